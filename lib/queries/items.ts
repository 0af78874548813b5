import "server-only";
import { numberOrNull, textOrNull } from "./sql-values";
import { db, type Db } from "@/lib/db";
import { Prisma } from "@/lib/generated/sqlite/client";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import { cursorText, effectiveItemSort, parseCursor, parseDivergence, type ItemCursor, type RunParams } from "@/lib/url/run";
import { countItems, outputCandidates } from "./item-count";
import type { SignpostList } from "@/lib/store/signposts";

// The item table of a run page: generations filtered, sorted and paged in the store.

export interface ItemRow {
  itemId: string;
  epoch: number;
  length: number;
  firstAnswer: string | null;
  lastAnswer: string | null;
  firstCorrect: boolean;
  lastCorrect: boolean;
  firstDivergence: number | null;
  divergenceKind: string | null;
  modes: FailureMode[];
  clean: boolean;
  /** one letter per step (c s p m), for the trace strip; "" without step data */
  statuses: string;
  completionTokens: number | null;
  latencyMs: number | null;
  inducedErrorRate: number | null;
}

export interface ItemPage {
  rows: ItemRow[];
  total: number;
  /** the count stopped early: more than `total` generations match */
  more: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
  /** keyset cursors of the first and last row shown, for Previous / Next (item order only) */
  cursors: { first: string; last: string } | null;
}

export function modesOf(bits: number): FailureMode[] {
  return FAILURE_MODES.filter((_, i) => (bits & (1 << i)) !== 0);
}

/** Every bitmask over FAILURE_MODES with `mode`'s bit set: the store has no portable bit test. */
function masksWith(mode: FailureMode): number[] {
  const bit = 1 << FAILURE_MODES.indexOf(mode);
  const out: number[] = [];
  for (let m = 0; m < 1 << FAILURE_MODES.length; m++) if (m & bit) out.push(m);
  return out;
}

export function itemWhere(runId: number, p: RunParams, candidates: number[] | null = null): Prisma.GenerationWhereInput {
  const and: Prisma.GenerationWhereInput[] = [{ runId }];
  if (candidates) and.push({ id: { in: candidates } });
  if (p.failed) and.push({ firstCorrect: false });
  if (p.mode) and.push({ modes: { in: masksWith(p.mode) } });
  if (p.kind) and.push({ divergenceKind: p.kind });
  if (p.minLen !== undefined) and.push({ length: { gte: p.minLen } });
  if (p.maxLen !== undefined) and.push({ length: { lte: p.maxLen } });
  const div = parseDivergence(p.div);
  if (div?.kind === "none") and.push({ firstDivergence: null });
  if (div?.kind === "exact") and.push({ firstDivergence: div.step });
  if (div?.kind === "range") and.push({ firstDivergence: { gte: div.from, lte: div.to } });
  // Prisma's `contains` escapes % and _ itself, so the search text is matched literally.
  if (p.q) and.push({ output: { contains: p.q } });
  return { AND: and };
}

function orderOf(p: RunParams): Prisma.GenerationOrderByWithRelationInput[] {
  const { sort, dir } = effectiveItemSort(p);
  const order: Prisma.GenerationOrderByWithRelationInput[] = [{ itemId: "asc" }, { epoch: "asc" }];
  switch (sort) {
    case "item": return [{ itemKey: dir }, { epoch: "asc" }];
    case "length": return [{ length: dir }, ...order];
    case "divergence": return [{ firstDivergence: { sort: dir, nulls: "last" } }, ...order];
    case "correct": return [{ firstCorrect: dir }, ...order];
    default: return dir === "asc" ? order : [{ itemId: "desc" }, { epoch: "desc" }];
  }
}

const SELECT = {
  itemKey: true, epoch: true, length: true, firstAnswer: true, lastAnswer: true, firstCorrect: true, lastCorrect: true,
  firstDivergence: true, divergenceKind: true, modes: true, clean: true, statuses: true, completionTokens: true,
  latencyMs: true, item: { select: { inducedErrorRate: true } },
} satisfies Prisma.GenerationSelect;

type Selected = Prisma.GenerationGetPayload<{ select: typeof SELECT }>;

function toRow(g: Selected): ItemRow {
  return {
    itemId: g.itemKey,
    epoch: g.epoch,
    length: g.length,
    firstAnswer: g.firstAnswer,
    lastAnswer: g.lastAnswer,
    firstCorrect: g.firstCorrect,
    lastCorrect: g.lastCorrect,
    firstDivergence: g.firstDivergence,
    divergenceKind: g.divergenceKind,
    modes: modesOf(g.modes),
    clean: g.clean,
    statuses: g.statuses,
    completionTokens: g.completionTokens,
    latencyMs: g.latencyMs,
    inducedErrorRate: g.item.inducedErrorRate,
  };
}

/** A page's rows by key, in SQL: Prisma's relation select cost 1.7 ms a page, this 0.4 ms. */
type RawRow = Record<keyof ItemRow | "itemIdNum", unknown>;
async function rowsByKey(prisma: Db, keys: Key[]): Promise<Map<string, ItemRow>> {
  const found = await prisma.$queryRaw<RawRow[]>(Prisma.sql`
    SELECT g."itemId" AS "itemIdNum", g."itemKey" AS "itemId", g."epoch", g."length", g."firstAnswer", g."lastAnswer",
      g."firstCorrect", g."lastCorrect", g."firstDivergence", g."divergenceKind", g."modes", g."clean", g."statuses",
      g."completionTokens", g."latencyMs", i."inducedErrorRate"
    FROM "Generation" g JOIN "Item" i ON i."id" = g."itemId"
    WHERE g."itemId" IN (${Prisma.join([...new Set(keys.map((k) => k.itemId))])})
      AND g."epoch" IN (${Prisma.join([...new Set(keys.map((k) => k.epoch))])})`);
  const out = new Map<string, ItemRow>();
  for (const g of found) {
    out.set(`${Number(g.itemIdNum)}:${Number(g.epoch)}`, {
      itemId: String(g.itemId),
      epoch: Number(g.epoch),
      length: Number(g.length),
      firstAnswer: textOrNull(g.firstAnswer),
      lastAnswer: textOrNull(g.lastAnswer),
      firstCorrect: Boolean(g.firstCorrect),
      lastCorrect: Boolean(g.lastCorrect),
      firstDivergence: numberOrNull(g.firstDivergence),
      divergenceKind: textOrNull(g.divergenceKind),
      modes: modesOf(Number(g.modes)),
      clean: Boolean(g.clean),
      statuses: String(g.statuses),
      completionTokens: numberOrNull(g.completionTokens),
      latencyMs: numberOrNull(g.latencyMs),
      inducedErrorRate: numberOrNull(g.inducedErrorRate),
    });
  }
  return out;
}

type Key = { itemId: number; epoch: number };

/**
 * One page in two reads (a deferred join). OFFSET steps over every row before the page, and
 * PostgreSQL reads each skipped row from the table (1.5 s halfway down 100,000 generations).
 * The first read asks only for (itemId, epoch), which is unique and ends both item-order
 * indexes, so on the default order and the failed filter it is an index-only scan (no table
 * reads once VACUUM has set the visibility map); the second reads the page's rows by key.
 */
async function pageRows(prisma: Db, where: Prisma.GenerationWhereInput, orderBy: Prisma.GenerationOrderByWithRelationInput[], skip: number, take: number, reverse = false): Promise<{ rows: ItemRow[]; keys: Key[] }> {
  const keys = await prisma.generation.findMany({ where, select: { itemId: true, epoch: true }, orderBy, skip, take });
  if (reverse) keys.reverse();
  if (keys.length === 0) return { rows: [], keys };
  const byKey = await rowsByKey(prisma, keys);
  // a key whose row went in between (its run replaced) is left out, as a fresh read would
  const rows: ItemRow[] = [];
  const kept: Key[] = [];
  for (const k of keys) {
    const row = byKey.get(`${k.itemId}:${k.epoch}`);
    if (!row) continue;
    rows.push(row);
    kept.push(k);
  }
  return { rows, keys: kept };
}

/**
 * The generations strictly after (`up`) or before a cursor in item order, nearest first: a
 * range on the item id that the item-order indexes seek to, less the cursor item's epochs
 * on the wrong side. Its cost does not depend on how deep the page is.
 */
function seek(where: Prisma.GenerationWhereInput, c: ItemCursor, up: boolean) {
  const range: Prisma.GenerationWhereInput = up
    ? { itemId: { gte: c.itemId }, NOT: { itemId: c.itemId, epoch: { lte: c.epoch } } }
    : { itemId: { lte: c.itemId }, NOT: { itemId: c.itemId, epoch: { gte: c.epoch } } };
  const dir = up ? "asc" : "desc";
  return { where: { AND: [where, range] }, orderBy: [{ itemId: dir }, { epoch: dir }] satisfies Prisma.GenerationOrderByWithRelationInput[] };
}

/** The signposted list the filters select (lib/store/signposts.ts), if any. */
function signpostList(p: RunParams): SignpostList | null {
  if (p.mode || p.kind || p.div || p.q || p.minLen !== undefined || p.maxLen !== undefined) return null;
  return p.failed ? "failed" : "all";
}

/**
 * A typed page number of a signposted list: from the stored key at or before the page's
 * first row (in ascending item order), skipping fewer than SIGNPOST_EVERY rows. A descending
 * page is the ascending slice that ends `offset` rows before the end, reversed: `total` is
 * exact here, from the stored aggregates of a complete run. Null when the run has none.
 */
async function pageBySignpost(prisma: Db, runId: number, list: SignpostList, where: Prisma.GenerationWhereInput, offset: number, take: number, total: number, dir: "asc" | "desc") {
  let start = offset;
  if (dir === "desc") {
    start = total - offset - take;
    if (start < 0) [take, start] = [take + start, 0];
    if (take <= 0) return null;
  }
  const [s] = await prisma.$queryRaw<{ position: unknown; itemId: unknown; epoch: unknown }[]>(Prisma.sql`
    SELECT "position", "itemId", "epoch" FROM "RunSignpost"
    WHERE "runId" = ${runId} AND "list" = ${list} AND "position" <= ${start} ORDER BY "position" DESC LIMIT 1`);
  if (!s) return null;
  const itemId = Number(s.itemId);
  const from: Prisma.GenerationWhereInput = { itemId: { gte: itemId }, NOT: { itemId, epoch: { lt: Number(s.epoch) } } };
  const asc: Prisma.GenerationOrderByWithRelationInput[] = [{ itemId: "asc" }, { epoch: "asc" }];
  return pageRows(prisma, { AND: [where, from] }, asc, start - Number(s.position), take, dir === "desc");
}

/** `status` is the run's (RunSummary.status): a complete run's counts come from its stored aggregates. */
export async function getRunItems(runId: number, status: string, p: RunParams): Promise<ItemPage> {
  const prisma = await db();
  const where = itemWhere(runId, p, p.q ? await outputCandidates(prisma, runId, p.q) : null);
  const { total, more } = await countItems(prisma, runId, status, p, where);
  const pageCount = Math.max(1, Math.ceil(total / p.pageSize));
  const page = Math.min(p.page, pageCount);
  const { sort, dir } = effectiveItemSort(p);
  const after = parseCursor(p.after);
  const before = parseCursor(p.before);
  let found: { rows: ItemRow[]; keys: Key[] };
  if (sort === "order" && page > 1 && (after || before)) {
    // Next (after) moves along the shown order, Previous (before) against it.
    const s = seek(where, (after ?? before)!, Boolean(after) === (dir === "asc"));
    found = await pageRows(prisma, s.where, s.orderBy, 0, p.pageSize, !after);
  } else {
    const list = sort === "order" && page > 1 && status === "complete" ? signpostList(p) : null;
    const jumped = list && (await pageBySignpost(prisma, runId, list, where, (page - 1) * p.pageSize, p.pageSize, total, dir));
    found = jumped || (await pageRows(prisma, where, orderOf(p), (page - 1) * p.pageSize, p.pageSize));
  }
  const { rows, keys } = found;
  const cursors = sort === "order" && keys.length ? { first: cursorText(keys[0]), last: cursorText(keys[keys.length - 1]) } : null;
  return { rows, total, more, page, pageSize: p.pageSize, pageCount, cursors };
}

/** Every matching row, for the CSV/JSON export (bounded). */
export async function getAllRunItems(runId: number, p: RunParams, limit: number): Promise<ItemRow[]> {
  const prisma = await db();
  const where = itemWhere(runId, p, p.q ? await outputCandidates(prisma, runId, p.q) : null);
  const found = await prisma.generation.findMany({ where, select: SELECT, orderBy: orderOf(p), take: limit });
  return found.map(toRow);
}

/** Distinct item lengths of a run, for the length filter. */
export async function getRunLengths(runId: number): Promise<number[]> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ length: unknown }[]>(Prisma.sql`SELECT "length" FROM "RunLengthStat" WHERE "runId" = ${runId} ORDER BY "length"`);
  return rows.map((r) => Number(r.length));
}
