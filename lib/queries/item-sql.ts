import type { Dialect } from "@/lib/store/dialect";
import { join, raw, sql, type Sql } from "@/lib/store/sql";
import { masksWith } from "@/lib/analysis/failure-modes";
import { effectiveItemSort, parseDivergence, type ItemCursor, type RunParams } from "@/lib/url/run";

// The item table's filters, orders and seeks as SQL over `"Generation" g`, one builder for the
// page, its count and the export. SQL rather than Prisma `where` objects: Prisma compiles
// each operation in its query compiler (docs/decisions.md, figures), and the page's reads fold into one
// statement (lib/queries/items.ts).

/**
 * The filters of `p` (and the search candidates, when the index narrowed them) as one condition;
 * without the search's check of the text when `withText` is false (a caller checking it apart).
 */
export function itemFilterSql(dialect: Dialect, runId: number, p: RunParams, candidates: number[] | null = null, withText = true): Sql {
  const and: Sql[] = [sql`g."runId" = ${runId}`];
  if (candidates) and.push(candidates.length ? sql`g."id" IN (${join(candidates)})` : sql`1 = 0`);
  if (p.failed) and.push(sql`g."firstCorrect" = false`);
  if (p.mode) and.push(sql`g."modes" IN (${join(masksWith(p.mode))})`);
  if (p.kind) and.push(sql`g."divergenceKind" = ${p.kind}`);
  if (p.minLen !== undefined) and.push(sql`g."length" >= ${p.minLen}`);
  if (p.maxLen !== undefined) and.push(sql`g."length" <= ${p.maxLen}`);
  const div = parseDivergence(p.div);
  if (div?.kind === "none") and.push(sql`g."firstDivergence" IS NULL`);
  if (div?.kind === "exact") and.push(sql`g."firstDivergence" = ${div.step}`);
  if (div?.kind === "range") and.push(sql`g."firstDivergence" >= ${div.from} AND g."firstDivergence" <= ${div.to}`);
  if (p.q && withText) and.push(dialect.outputContains("g", p.q));
  return join(and, " AND ");
}

/** ORDER BY of the table's sort, over the columns of `alias`; item order breaks every tie. */
export function itemOrderSql(p: RunParams, alias = "g"): Sql {
  const { sort, dir } = effectiveItemSort(p);
  const col = (name: string) => `${alias}."${name}"`;
  const d = dir === "asc" ? "ASC" : "DESC";
  const order = `${col("itemId")} ASC, ${col("epoch")} ASC`;
  switch (sort) {
    case "item":
      return raw(`${col("itemKey")} ${d}, ${col("epoch")} ASC`);
    case "length":
      return raw(`${col("length")} ${d}, ${order}`);
    case "divergence":
      return raw(`${col("firstDivergence")} ${d} NULLS LAST, ${order}`);
    case "correct":
      return raw(`${col("firstCorrect")} ${d}, ${order}`);
    default:
      return itemOrderBy(dir === "asc", alias);
  }
}

/** Item order, ascending or descending (the default sort, and seeks). */
export function itemOrderBy(up: boolean, alias = "g"): Sql {
  return raw(up ? `${alias}."itemId" ASC, ${alias}."epoch" ASC` : `${alias}."itemId" DESC, ${alias}."epoch" DESC`);
}

/**
 * The generations after (`up`) or before a key in item order, the key itself when
 * `inclusive`: a range on the item id that the item-order indexes seek to, less the key
 * item's epochs on the wrong side. Its cost does not depend on how deep the key is.
 */
export function seekSql(c: ItemCursor, up: boolean, inclusive = false): Sql {
  const range = raw(up ? ">=" : "<=");
  const wrongSide = raw(up ? (inclusive ? "<" : "<=") : inclusive ? ">" : ">=");
  return sql`g."itemId" ${range} ${c.itemId} AND NOT (g."itemId" = ${c.itemId} AND g."epoch" ${wrongSide} ${c.epoch})`;
}

/**
 * The next window of a PostgreSQL search in item order (matchesInOrder in lib/queries/items.ts):
 * as many rows as the matches still wanted need at the rate seen so far, a quarter more, between
 * 256 and 16,384; 4× the last while nothing has matched. Fixed 4× steps read a common text's
 * rows far past its count's cap.
 */
export function nextWindow(last: number, wanted: number, matched: number, checked: number): number {
  if (matched === 0) return Math.min(last * 4, 16384);
  return Math.min(16384, Math.max(256, Math.ceil(((wanted * checked) / matched) * 1.25)));
}
