import type { Provider } from "../env";
import { foldAscii, OUTPUT_CONTAINS_FUNCTION } from "./output-text";
import { raw, sql, type Sql } from "./sql";

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
}

/** A LIKE pattern matching `q` literally anywhere (with ESCAPE '\'): `%`, `_` and `\` are text. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

const sqlite: Dialect = {
  provider: "sqlite",
  hint: () => raw("+"),
  outputContains: (alias, q) =>
    sql`${raw(`${OUTPUT_CONTAINS_FUNCTION}(${alias}."output", ${alias}."outputDeflated"`)}, ${foldAscii(q)}) = 1`,
};

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";

const postgres: Dialect = {
  provider: "postgres",
  hint: () => raw(""),
  outputContains: (alias, q) => containsText(raw(`${alias}."output"`), q),
};

// ILIKE folds whatever the database's locale folds (all of
// Unicode under a UTF-8 one), so the translate() recheck narrows it to ASCII folding, as on
// SQLite. ASCII folding implies ILIKE's, so the pair matches exactly the ASCII-folded rows.
function containsText(column: Sql, q: string): Sql {
  return sql`${column} ILIKE ${containsPattern(q)} ESCAPE '\\' AND translate(${column}, ${UPPER}, ${LOWER}) LIKE ${containsPattern(foldAscii(q))} ESCAPE '\\'`;
}

export function dialectOf(provider: Provider): Dialect {
  return provider === "postgres" ? postgres : sqlite;
}
