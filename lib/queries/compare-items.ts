import "server-only";
import type { RunAccess } from "@/lib/auth/run-access";
import type { ReadContext } from "@/lib/read-context";
import { raw, sql, type Sql } from "@/lib/store/sql";
import { COMPARE_PAGE_SIZE, type CompareShow } from "@/lib/url/compare";
import type { Outcome, PairItem, PairSummary } from "./compare";

// One page of a pair's item list, read in SQL. Outcome classes come one after the other
// (regressions, improvements, both wrong, both right) and their sizes are known from the
// pair's 2×2 table, so a page is at most two LIMIT/OFFSET reads that walk run A in
// (length, load order) on its (runId, epoch, length, id) index, stop after the page, and look
// B up by (runId, itemKey) (on SQLite, `+a.length = +b.length` and `+b.epoch = 0` keep the
// planner off B's length and epoch indexes: driving the join from B, or reaching B through
// its epoch, scans a whole length of A, or all of B, per row; see `hint` in lib/store/dialect.ts).
// A deep page (OFFSET in the thousands) is a hash join of both runs on PostgreSQL: its planner
// prefers that to walking A past the skipped pairs (docs/decisions.md, figures).

const CLASSES: Record<Exclude<CompareShow, "shift">, Outcome[]> = {
  discordant: ["regression", "improvement"],
  regressions: ["regression"],
  improvements: ["improvement"],
  "both-wrong": ["neither"],
  all: ["regression", "improvement", "neither", "both"],
};
const SIDES: Record<Outcome, [boolean, boolean]> = {
  both: [true, true],
  regression: [true, false],
  improvement: [false, true],
  neither: [false, false],
};

function sizeOf(o: Outcome, t: PairSummary["table"]): number {
  return o === "both" ? t.both : o === "regression" ? t.onlyA : o === "improvement" ? t.onlyB : t.neither;
}

interface Row {
  itemKey: string;
  length: unknown;
  ac: unknown;
  bc: unknown;
  ad: unknown;
  bd: unknown;
}

const toItem = (r: Row): PairItem => {
  const aCorrect = Boolean(Number(r.ac));
  const bCorrect = Boolean(Number(r.bc));
  const div = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const outcome: Outcome = aCorrect && bCorrect ? "both" : aCorrect ? "regression" : bCorrect ? "improvement" : "neither";
  return { itemKey: r.itemKey, length: Number(r.length), aCorrect, bCorrect, aDiv: div(r.ad), bDiv: div(r.bd), outcome };
};

function read(ctx: ReadContext, a: number, b: number, answer: "first" | "last", where: Sql, order: Sql, limit: number, offset: number) {
  const c = raw(answer === "last" ? `"lastCorrect"` : `"firstCorrect"`);
  const hint = ctx.dialect.hint();
  return ctx.store.read<Row>(sql`
    SELECT a."itemKey" AS "itemKey", a."length" AS "length", a.${c} AS ac, b.${c} AS bc, a."firstDivergence" AS ad, b."firstDivergence" AS bd
    FROM "Generation" a JOIN "Generation" b ON b."runId" = ${b} AND b."itemKey" = a."itemKey" AND ${hint}b."epoch" = 0
    WHERE a."runId" = ${a} AND a."epoch" = 0 AND ${hint}a."length" = ${hint}b."length" AND ${where}
    ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`);
}

export async function pairItems(
  ctx: ReadContext,
  runA: RunAccess,
  runB: RunAccess,
  answer: "first" | "last",
  show: CompareShow,
  summary: PairSummary,
  page: number,
): Promise<{ rows: PairItem[]; total: number; page: number; pages: number }> {
  const [a, b] = [runA.id, runB.id];
  const c = raw(answer === "last" ? `"lastCorrect"` : `"firstCorrect"`);
  if (show === "shift") {
    const total = summary.divergence.n - summary.divergence.same;
    const pages = Math.max(1, Math.ceil(total / COMPARE_PAGE_SIZE));
    const p = Math.min(page, pages);
    const where = sql`b."firstDivergence" - a."firstDivergence" <> 0`; // null when either is
    const order = sql`b."firstDivergence" - a."firstDivergence", a."length", a."id"`;
    const rows = await read(ctx, a, b, answer, where, order, COMPARE_PAGE_SIZE, (p - 1) * COMPARE_PAGE_SIZE);
    return { rows: rows.map(toItem), total, page: p, pages };
  }
  const classes = CLASSES[show];
  const total = classes.reduce((t, o) => t + sizeOf(o, summary.table), 0);
  const pages = Math.max(1, Math.ceil(total / COMPARE_PAGE_SIZE));
  const p = Math.min(page, pages);
  let skip = (p - 1) * COMPARE_PAGE_SIZE;
  const rows: PairItem[] = [];
  for (const o of classes) {
    const size = sizeOf(o, summary.table);
    if (skip >= size) {
      skip -= size;
      continue;
    }
    const [sa, sb] = SIDES[o];
    // Bare boolean tests, not `= false`: a comparison would tempt the planner onto B's
    // (runId, firstCorrect) index, which scans a whole outcome class per row of A.
    const where = sql`${raw(sa ? "" : "NOT ")}a.${c} AND ${raw(sb ? "" : "NOT ")}b.${c}`;
    const got = await read(ctx, a, b, answer, where, sql`a."length", a."id"`, COMPARE_PAGE_SIZE - rows.length, skip);
    rows.push(...got.map(toItem));
    skip = 0;
    if (rows.length >= COMPARE_PAGE_SIZE) break;
  }
  return { rows, total, page: p, pages };
}
