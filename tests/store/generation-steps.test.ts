import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Store } from "../../lib/db";
import { NativeReader } from "../../lib/native/reader";
import { getGeneration } from "../../lib/queries/generation";
import { loadNative } from "../../lib/store/load";
import { EXAMPLES } from "../helpers/shared-data";
import { adminContext, runAccess, STORE_KINDS } from "../helpers/stores";

// The trace diff page's steps come from the generation's step trace record: for every
// generation of every example file they must be the aligned steps the analysis computed
// (values as text), read back through the page's own query, on both stores.
// The query module is server-only; here it is exercised on a store directly.
vi.mock("server-only", () => ({}));

const FILES = ["arith-small.jsonl", "dictsum-small.jsonl", "selfcond-small.jsonl", "generic-small.jsonl"];
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

describe.each(STORE_KINDS)("trace diff steps on $name", (kind) => {
  let s: { store: Store; drop(): Promise<void> };
  beforeAll(async () => {
    s = await kind.create();
    for (const f of FILES) expect((await loadNative(s.store, f, fs.createReadStream(path.join(EXAMPLES, f)))).errors).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await s?.drop();
  });

  it("reads back every generation's analysed steps", async () => {
    const ctx = adminContext(s.store);
    let generations = 0;
    let steps = 0;
    let operands = 0;
    for (const f of FILES) {
      const reader = new NativeReader(f);
      const lines = fs.readFileSync(path.join(EXAMPLES, f), "utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        const ev = reader.line(lines[i], i + 1);
        if (ev?.kind !== "generation") continue;
        const access = await runAccess(ctx, ev.header.key);
        const detail = await getGeneration(ctx, access, ev.item.id, ev.item.epoch);
        const want = ev.analysis.hasSteps
          ? ev.analysis.steps.map((st) => ({
              step: st.step,
              status: st.status,
              expected: String(st.expected),
              claimed: text(st.claimed),
              recomputed: text(st.recomputed),
              span: st.span ?? null,
              // the trace diff derives a wrong step's operand values (they are not stored): the analysis's own
              operands: st.status === "correct" ? null : (st.operands ?? null),
            }))
          : [];
        const got = detail!.steps.map(({ step, status, expected, claimed, recomputed, span, operands }) => ({
          step,
          status,
          expected,
          claimed,
          recomputed,
          span,
          operands,
        }));
        operands += got.filter((g) => g.operands !== null).length;
        expect(got, `${f}:${i + 1}`).toEqual(want);
        generations++;
        steps += want.length;
      }
    }
    expect(generations).toBeGreaterThan(100);
    expect(steps).toBeGreaterThan(1000);
    expect(operands).toBeGreaterThan(100);
  }, 120_000);
});
