import type { Provider } from "../env";
import { foldAscii, OUTPUT_CONTAINS_FUNCTION } from "./output-text";
import { join, raw, sql, type Sql } from "./sql";

// The SQL that differs between the two stores, chosen by the store's provider (never by the
// environment: a PostgreSQL store opened by a test or a script gets PostgreSQL's SQL).
export interface Dialect {
  readonly provider: Provider;
  /**
   * `+` before a column on SQLite keeps its planner from using that term for an index
   * (lib/queries/compare-sql.ts explains the joins that need it). Nothing on PostgreSQL: there
   * `+a.length = +b.length` hides the columns' statistics and the planner misjudges the join.
   */
  hint(): Sql;
  /**
   * The output of the generation `alias` contains `q` as literal text, ignoring the case of ASCII
   * letters and only theirs, the same on both stores (docs/decisions.md, search). SQLite stores
   * outputs deflated: a function of ours inflates and checks each (lib/store/output-text.ts).
   */
  outputContains(alias: string, q: string): Sql;
  /**
   * How a search in item order finds its matches. SQLite checks the text in the WHERE of one
   * read in that order. PostgreSQL's planner has no statistics of outputs and takes the check
   * for rare, so an ordered page of a common text checked the whole run and sorted it: there
   * the search reads windows of the order and checks within each (lib/queries/items.ts,
   * `matchesInOrder`; docs/decisions.md, "Search").
   */
  readonly searchInWindows: boolean;
  /**
   * The generations of `alias` whose (item, epoch) is one of `keys`. PostgreSQL plans each read
   * anew, and planning a page's 50 OR'd pairs cost more than running them (docs/performance.md,
   * "Pages and API", stop 52): there the keys go as two arrays.
   */
  keysIn(alias: string, keys: readonly { itemId: number; epoch: number }[]): Sql;
}

const sqlite: Dialect = {
  provider: "sqlite",
  hint: () => raw("+"),
  outputContains: (alias, q) =>
    sql`${raw(`${OUTPUT_CONTAINS_FUNCTION}(${alias}."output", ${alias}."outputDeflated"`)}, ${foldAscii(q)}) = 1`,
  searchInWindows: false,
  keysIn: (alias, keys) =>
    sql`(${join(
      keys.map((k) => sql`(${raw(`${alias}."itemId"`)} = ${k.itemId} AND ${raw(`${alias}."epoch"`)} = ${k.epoch})`),
      " OR ",
    )})`,
};

const postgres: Dialect = {
  provider: "postgres",
  hint: () => raw(""),
  // A text without ASCII letters has nothing to fold: strpos() finds it at half a regular expression's cost.
  outputContains: (alias, q) =>
    /[a-z]/i.test(q) ? sql`${raw(`${alias}."output"`)} ~ ${asciiFoldedPattern(q)}` : sql`strpos(${raw(`${alias}."output"`)}, ${q}) > 0`,
  searchInWindows: true,
  keysIn: (alias, keys) => {
    const itemIds = keys.map((k) => k.itemId);
    return sql`${raw(`${alias}."itemId"`)} = ANY(${itemIds}::int[]) AND (${raw(`${alias}."itemId", ${alias}."epoch"`)}) IN (SELECT * FROM unnest(${itemIds}::int[], ${keys.map((k) => k.epoch)}::int[]))`;
  },
};

/**
 * A PostgreSQL regular expression matching `q` literally, each ASCII letter either case and
 * nothing else folded: the search's rule on both stores. ILIKE folds whatever the database's
 * locale folds (all of Unicode under a UTF-8 one), and its re-check with translate() cost ~0.5 ms
 * per output (docs/decisions.md, "Search"). In an advanced regular expression a backslash before
 * a character that is not a letter or digit stands for that character.
 */
function asciiFoldedPattern(q: string): string {
  let out = "";
  for (const c of q) {
    if (/^[a-z]$/i.test(c)) out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else if (/^[0-9]$/.test(c) || c.charCodeAt(0) > 0x7f) out += c;
    else out += "\\" + c;
  }
  return out;
}

export function dialectOf(provider: Provider): Dialect {
  return provider === "postgres" ? postgres : sqlite;
}
