import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ANONYMOUS, type AccessMode, type Principal } from "../../lib/auth/policy";
import { RunAccess } from "../../lib/auth/run-access";
import type { Store } from "../../lib/db";
import { getCurveRuns } from "../../lib/queries/curves";
import { getLeaderboard, getLeaderboardFilterOptions } from "../../lib/queries/leaderboard";
import { listRunOptions, resolveRunPieces } from "../../lib/queries/run-options";
import { getSelfConditioning } from "../../lib/queries/selfcond";
import { readContextOf, type ReadContext } from "../../lib/read-context";
import { loadNative } from "../../lib/store/load";
import { listRuns } from "../../lib/store/read";
import { parseLeaderboardParams } from "../../lib/url/leaderboard";
import { EXAMPLES } from "../helpers/fixtures";
import { adminContext, STORE_KINDS } from "../helpers/stores";

vi.mock("server-only", () => ({}));

// Who sees what through the read context, on a real store: the access check that makes a
// RunAccess, and the listing reads, which show a principal only the runs it may read (a
// share-link holder in private mode: its runs and nothing else).

const FILES = ["arith-small.jsonl", "selfcond-small.jsonl"];
const keysOf = (file: string) =>
  fs
    .readFileSync(path.join(EXAMPLES, file), "utf8")
    .split("\n")
    .filter((l) => l.includes('"type":"run"'))
    .map((l) => (JSON.parse(l) as { key: string }).key);
const [A, B] = keysOf("arith-small.jsonl");
const [SC1, SC2] = keysOf("selfcond-small.jsonl");

describe.each(STORE_KINDS)("read access on $name", (kind) => {
  let store: Store;
  let drop: () => Promise<void>;
  const as = (principal: Principal, mode: AccessMode): ReadContext => readContextOf(store, principal, mode);

  beforeAll(async () => {
    ({ store, drop } = await kind.create());
    for (const f of FILES) expect((await loadNative(store, f, [fs.readFileSync(path.join(EXAMPLES, f))])).errors).toEqual([]);
  });
  afterAll(async () => drop?.());

  it("the access check: policy first, then the store; the same refusal whether the run exists or not", async () => {
    const stranger = as(ANONYMOUS, "private");
    const holder = as({ kind: "anonymous", shares: [A] }, "private");
    expect(await RunAccess.check(stranger, A)).toEqual({ ok: false, refusal: "sign-in" });
    expect(await RunAccess.check(stranger, "no-such-run")).toEqual({ ok: false, refusal: "sign-in" });
    expect(await RunAccess.check(holder, B)).toEqual({ ok: false, refusal: "not-found" });
    expect(await RunAccess.check(holder, "no-such-run")).toEqual({ ok: false, refusal: "not-found" });
    const own = await RunAccess.check(holder, A);
    expect(own.ok && own.run.key).toBe(A);
    expect(own.ok && RunAccess.is(own.run)).toBe(true);
    expect(RunAccess.is({ id: 1, key: A, status: "complete", loadedAt: new Date() })).toBe(false);
    const open = await RunAccess.check(as(ANONYMOUS, "open"), B);
    expect(open.ok && open.run.id).toBe((await store.prisma.run.findUniqueOrThrow({ where: { key: B } })).id);
    expect(await RunAccess.check(as(ANONYMOUS, "open"), "no-such-run")).toEqual({ ok: false, refusal: "not-found" });
    const viewer = as({ kind: "user", userId: 1, email: "v@x", role: "viewer", shares: [] }, "private");
    expect((await RunAccess.check(viewer, B)).ok).toBe(true);
  });

  it("listings show a share-link holder its runs only, a stranger none, readers of everything all", async () => {
    const all = [A, B, SC1, SC2].sort();
    const cases: [string, ReadContext, string[]][] = [
      ["local admin", adminContext(store), all],
      ["open mode, anonymous", as(ANONYMOUS, "open"), all],
      ["private, viewer", as({ kind: "user", userId: 1, email: "v@x", role: "viewer", shares: [] }, "private"), all],
      ["private, share holder", as({ kind: "anonymous", shares: [A, SC1] }, "private"), [A, SC1].sort()],
      ["private, stranger", as(ANONYMOUS, "private"), []],
    ];
    for (const [who, ctx, visible] of cases) {
      expect((await listRuns(ctx)).map((r) => r.key).sort(), `${who}: run list`).toEqual(visible);
      expect((await listRunOptions(ctx)).map((r) => r.key).sort(), `${who}: run options`).toEqual(visible);
      const board = await getLeaderboard(ctx, parseLeaderboardParams({ sc: "1", pageSize: "100" }));
      const boardKeys = board.rows.map((r) => r.key);
      expect(
        boardKeys.every((k) => visible.includes(k)),
        `${who}: leaderboard ${boardKeys}`,
      ).toBe(true);
      expect(board.total, `${who}: leaderboard total`).toBe(boardKeys.length);
      if (visible.includes(A)) expect(boardKeys, `${who}: leaderboard shows A`).toContain(A);
      const options = await getLeaderboardFilterOptions(ctx, parseLeaderboardParams({}));
      expect(options.benchmarks.length === 0, `${who}: filter options`).toBe(visible.length === 0);
      const pieces = await resolveRunPieces(ctx, [A, B, "no-such-run"]);
      expect(pieces.keys, `${who}: runs= resolved`).toEqual([A, B].filter((k) => visible.includes(k)));
      expect(pieces.unknown.sort(), `${who}: runs= unknown`).toEqual([A, B, "no-such-run"].filter((k) => !visible.includes(k)).sort());
      const curves = await getCurveRuns(ctx, [A, B]);
      expect(
        curves.runs.map((r) => r.key),
        `${who}: curves`,
      ).toEqual([A, B].filter((k) => visible.includes(k)));
      const sc = await getSelfConditioning(ctx, []);
      expect(sc.runs.map((r) => r.key).sort(), `${who}: self-conditioning`).toEqual([SC1, SC2].filter((k) => visible.includes(k)).sort());
    }
  });
});
