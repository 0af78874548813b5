import "server-only";
import { numberOrNull, textOrNull } from "./sql-values";
import type { RunAccess } from "@/lib/auth/run-access";
import type { Store } from "@/lib/db";
import type { ReadContext } from "@/lib/read-context";
import { sql, type Sql } from "@/lib/store/sql";
import { decodeModes } from "@/lib/analysis/failure-modes";
import type { FailureMode } from "@/lib/analysis/types";
import { outputCandidates } from "@/lib/store/search-candidates";
import type { SignpostList } from "@/lib/store/signposts";
import { cursorText, effectiveItemSort, hasItemFilters, parseCursor, type RunParams } from "@/lib/url/run";
import { countCap, countItems, lengthStats, type LengthStat } from "./item-count";
import { itemFilterSql, itemOrderBy, itemOrderSql, nextWindow, seekSql } from "./item-sql";

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
  /** the run's distinct item lengths, for the length filter */
  lengths: number[];
}

type Key = { itemId: number; epoch: number };

/** A generation's key from a row read through the driver (`itemId`, `epoch` columns). */
const keyOf = (r: { itemId: unknown; epoch: unknown }): Key => ({ itemId: Number(r.itemId), epoch: Number(r.epoch) });
type RawRow = Record<keyof ItemRow | "itemIdNum", unknown>;

/**
 * One page in one statement, a deferred join: the inner query picks the page's
 * (itemId, epoch) keys, which is unique and ends both item-order indexes, so on the default
 * order and the failed filter it is an index-only scan (PostgreSQL touches no table page
 * once VACUUM has set the visibility map, where OFFSET over whole rows read each skipped row);
 * the outer query reads the page's rows by key.
 * `reverse`: the rows were read against the shown order (Previous, a descending page).
 */
async function pageRows(
  store: Store,
  where: Sql,
  order: (alias: string) => Sql,
  skip: number,
  take: number,
  reverse = false,
): Promise<{ rows: ItemRow[]; keys: Key[] }> {
  const found = await store.read<RawRow>(sql`
    SELECT g."itemId" AS "itemIdNum", g."itemKey" AS "itemId", g."epoch", g."length", g."firstAnswer", g."lastAnswer",
      g."firstCorrect", g."lastCorrect", g."firstDivergence", g."divergenceKind", g."modes", g."clean", g."statuses",
      g."completionTokens", g."latencyMs", i."inducedErrorRate"
    FROM (SELECT g."itemId", g."epoch" FROM "Generation" g WHERE ${where} ORDER BY ${order("g")} LIMIT ${take} OFFSET ${skip}) k
    JOIN "Generation" g ON g."itemId" = k."itemId" AND g."epoch" = k."epoch"
    JOIN "Item" i ON i."id" = g."itemId"
    ORDER BY ${order("g")}`);
  if (reverse) found.reverse();
  const rows: ItemRow[] = [];
  const keys: Key[] = [];
  for (const g of found) {
    keys.push({ itemId: Number(g.itemIdNum), epoch: Number(g.epoch) });
    rows.push({
      itemId: String(g.itemId),
      epoch: Number(g.epoch),
      length: Number(g.length),
      firstAnswer: textOrNull(g.firstAnswer),
      lastAnswer: textOrNull(g.lastAnswer),
      firstCorrect: Boolean(g.firstCorrect),
      lastCorrect: Boolean(g.lastCorrect),
      firstDivergence: numberOrNull(g.firstDivergence),
      divergenceKind: textOrNull(g.divergenceKind),
      modes: decodeModes(Number(g.modes)),
      clean: Boolean(g.clean),
      statuses: String(g.statuses),
      completionTokens: numberOrNull(g.completionTokens),
      latencyMs: numberOrNull(g.latencyMs),
      inducedErrorRate: numberOrNull(g.inducedErrorRate),
    });
  }
  return { rows, keys };
}

/**
 * The signposted list the filters select (lib/store/signposts.ts), if any: all generations,
 * or the failed ones with no other filter. Asked of the URL's one list of filters, so a filter
 * added there can never be skipped by a signposted page.
 */
function signpostList(p: RunParams): SignpostList | null {
  if (hasItemFilters({ ...p, failed: false })) return null;
  return p.failed ? "failed" : "all";
}

/**
 * A typed page number of a signposted list: from the stored key at or before the page's
 * first row (in ascending item order), skipping fewer than SIGNPOST_EVERY rows. A descending
 * page is the ascending slice that ends `offset` rows before the end, reversed: `total` is
 * exact here, from the stored aggregates of a complete run. Null when the run has none.
 */
async function pageBySignpost(
  store: Store,
  runId: number,
  list: SignpostList,
  where: Sql,
  offset: number,
  take: number,
  total: number,
  dir: "asc" | "desc",
) {
  let start = offset;
  if (dir === "desc") {
    start = total - offset - take;
    if (start < 0) [take, start] = [take + start, 0];
    if (take <= 0) return null;
  }
  const [s] = await store.read<{ position: unknown; itemId: unknown; epoch: unknown }>(
    sql`
    SELECT "position", "itemId", "epoch" FROM "RunSignpost"
    WHERE "runId" = ${runId} AND "list" = ${list} AND "position" <= ${start} ORDER BY "position" DESC LIMIT 1`,
    { planOnce: true },
  );
  if (!s) return null;
  const from = seekSql(keyOf(s), true, true);
  return pageRows(store, sql`${where} AND ${from}`, (a) => itemOrderBy(true, a), start - Number(s.position), take, dir === "desc");
}

/** Previous / Next cursors of a page in item order: its first and last keys. */
function cursorsOf(keys: Key[]): ItemPage["cursors"] {
  return keys.length ? { first: cursorText(keys[0]), last: cursorText(keys[keys.length - 1]) } : null;
}

/**
 * A search in item order with no cursor, on SQLite: one scan in that order finds the count's
 * matches (up to its cap) and the page is a slice of them, read by key. A count and a page of
 * their own each re-checked the text of the page's matches (inflating each output again).
 */
async function searchPage(ctx: ReadContext, where: Sql, base: Sql, p: RunParams, stats: LengthStat[]): Promise<ItemPage> {
  const cap = countCap(p);
  const up = effectiveItemSort(p).dir === "asc";
  const found: Key[] = ctx.dialect.searchInWindows
    ? await matchesInOrder(ctx, base, p.q!, up, cap + 1)
    : (
        await ctx.store.read<{ itemId: unknown; epoch: unknown }>(
          sql`SELECT g."itemId", g."epoch" FROM "Generation" g WHERE ${where} ORDER BY ${itemOrderSql(p, "g")} LIMIT ${cap + 1}`,
        )
      ).map(keyOf);
  const more = found.length > cap;
  const total = Math.min(found.length, cap);
  const pageCount = Math.max(1, Math.ceil(total / p.pageSize));
  const page = Math.min(p.page, pageCount);
  // No match, no second read: a constant-false condition does not stop SQLite's planner from
  // walking a whole index of the table (measured: 200 ms at 1.6 million generations).
  const { rows, keys } = await rowsOfKeys(ctx, found.slice((page - 1) * p.pageSize, page * p.pageSize), up);
  return { rows, total, more, page, pageSize: p.pageSize, pageCount, cursors: cursorsOf(keys), lengths: stats.map((s) => s.length) };
}

/**
 * PostgreSQL: the keys of the first `limit` generations (of those `base` selects) whose output
 * contains `q`, in item order (`up`: ascending) — read in windows of the rows in that order,
 * the text checked within each window. Its planner has no statistics of outputs and takes a
 * search's check for rare, so an ordered page of a common text checked the whole run and sorted
 * it (page 1 of "<answer>" 35 s at 100,000 items; docs/decisions.md, "Search"); a window is a
 * LIMIT it walks the item-order index for.
 */
async function matchesInOrder(ctx: ReadContext, base: Sql, q: string, up: boolean, limit: number): Promise<Key[]> {
  const found: Key[] = [];
  let checked = 0;
  for (let past = base, width = 256; ; width = nextWindow(width, limit - found.length, found.length, checked)) {
    const rows = await ctx.store.read<{ itemId: unknown; epoch: unknown; hit: unknown }>(
      sql`SELECT w."itemId", w."epoch", ${ctx.dialect.outputContains("w", q)} AS "hit"
          FROM (SELECT g."itemId", g."epoch", g."output" FROM "Generation" g WHERE ${past} ORDER BY ${itemOrderBy(up, "g")} LIMIT ${width}) w
          ORDER BY ${itemOrderBy(up, "w")}`,
    );
    for (const r of rows) if (r.hit) if (found.push(keyOf(r)) === limit) return found;
    if (rows.length < width) return found;
    checked += rows.length;
    past = sql`${base} AND ${seekSql(keyOf(rows[rows.length - 1]), up)}`;
  }
}

/** The rows of `keys`, in item order (`up`: ascending). */
async function rowsOfKeys(ctx: ReadContext, keys: Key[], up: boolean, reverse = false) {
  if (keys.length === 0) return { rows: [], keys: [] };
  return pageRows(ctx.store, ctx.dialect.keysIn("g", keys), (a) => itemOrderBy(up, a), 0, keys.length, reverse);
}

/** A complete run's counts come from its stored aggregates. */
export async function getRunItems(ctx: ReadContext, run: RunAccess, p: RunParams): Promise<ItemPage> {
  const store = ctx.store;
  const { id: runId, status } = run;
  const candidates = p.q ? await outputCandidates(store, runId, p.q) : null;
  const where = itemFilterSql(ctx.dialect, runId, p, candidates);
  const stats = await lengthStats(ctx, run);
  const { sort, dir } = effectiveItemSort(p);
  const after = parseCursor(p.after);
  const before = parseCursor(p.before);
  const base = itemFilterSql(ctx.dialect, runId, p, candidates, false); // the search's check apart (PostgreSQL)
  if (p.q && sort === "order" && !after && !before) return searchPage(ctx, where, base, p, stats);
  const { total, more } = await countItems(ctx, run, p, where, stats);
  const pageCount = Math.max(1, Math.ceil(total / p.pageSize));
  const page = Math.min(p.page, pageCount);
  let found: { rows: ItemRow[]; keys: Key[] };
  if (sort === "order" && page > 1 && (after || before)) {
    // Next (after) moves along the shown order, Previous (before) against it.
    const up = Boolean(after) === (dir === "asc");
    const seek = (w: Sql) => sql`${w} AND ${seekSql((after ?? before)!, up)}`;
    found =
      p.q && ctx.dialect.searchInWindows
        ? await rowsOfKeys(ctx, await matchesInOrder(ctx, seek(base), p.q, up, p.pageSize), up, !after)
        : await pageRows(store, seek(where), (a) => itemOrderBy(up, a), 0, p.pageSize, !after);
  } else {
    const list = sort === "order" && page > 1 && status === "complete" ? signpostList(p) : null;
    const jumped = list && (await pageBySignpost(store, runId, list, where, (page - 1) * p.pageSize, p.pageSize, total, dir));
    found = jumped || (await pageRows(store, where, (a) => itemOrderSql(p, a), (page - 1) * p.pageSize, p.pageSize));
  }
  const { rows, keys } = found;
  const cursors = sort === "order" ? cursorsOf(keys) : null;
  return { rows, total, more, page, pageSize: p.pageSize, pageCount, cursors, lengths: stats.map((s) => s.length) };
}

/** Every matching row, for the CSV/JSON export (bounded). */
export async function getAllRunItems(ctx: ReadContext, run: RunAccess, p: RunParams, limit: number): Promise<ItemRow[]> {
  const store = ctx.store;
  const where = itemFilterSql(ctx.dialect, run.id, p, p.q ? await outputCandidates(store, run.id, p.q) : null);
  return (await pageRows(store, where, (a) => itemOrderSql(p, a), 0, limit)).rows;
}
