import type { Provider } from "../env";
import type { Store } from "../db";
import { type PostingRead, windowedCandidates } from "./search-postings";
import { queryTrigrams } from "./search-terms";
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
   * Ids of run `runId`'s generations whose output may contain `q` (case-insensitively), from
   * SQLite's index of trigrams (lib/store/search-postings.ts), to be re-checked; null when no
   * narrowing applies: `q` under three characters, over 900 candidates, a run not yet indexed
   * (PostgreSQL's pg_trgm index serves the match itself).
   */
  outputCandidates(store: Store, runId: number, q: string): Promise<number[] | null>;
}

/** A LIKE pattern matching `q` literally anywhere (with ESCAPE '\'): `%`, `_` and `\` are text. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

// Prisma binds each id as a parameter and SQLite statements take at most 999 of them.
const CANDIDATES = 900;

const sqlite: Dialect = {
  provider: "sqlite",
  hint: () => raw("+"),
  outputContains: (alias, q) =>
    sql`${raw(`${OUTPUT_CONTAINS_FUNCTION}(${alias}."output", ${alias}."outputDeflated"`)}, ${foldAscii(q)}) = 1`,
  async outputCandidates(store, runId, q) {
    const trigrams = queryTrigrams(q);
    if (trigrams === null) return null;
    // A run loaded moments ago may still wait for its index (lib/store/search-index.ts).
    const [run] = await store.read<{ searchIndexed: unknown }>(sql`SELECT "searchIndexed" FROM "Run" WHERE "id" = ${runId}`);
    if (!run?.searchIndexed) return null;
    // the run's first and last blocks: two seeks of the key (runId, block, trigram)
    const [range] = await store.read<{ first: unknown; last: unknown }>(
      sql`SELECT (SELECT "block" FROM "SearchPosting" WHERE "runId" = ${runId} ORDER BY "block" LIMIT 1) AS "first",
                 (SELECT "block" FROM "SearchPosting" WHERE "runId" = ${runId} ORDER BY "block" DESC LIMIT 1) AS "last"`,
    );
    if (range?.first === null || range?.first === undefined) return [];
    // blocks and trigrams both listed, so that SQLite seeks each pair (a range of blocks would read every row in it)
    return windowedCandidates(Number(range.first), Number(range.last), trigrams.length, CANDIDATES, (from, to) =>
      store.read<PostingRead>(
        sql`SELECT "block", "ids" FROM "SearchPosting"
            WHERE "runId" = ${runId} AND "block" IN (${join(Array.from({ length: to - from + 1 }, (_, k) => from + k))})
              AND "trigram" IN (${join(trigrams)})`,
      ),
    );
  },
};

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";

const postgres: Dialect = {
  provider: "postgres",
  hint: () => raw(""),
  outputContains: (alias, q) => containsText(raw(`${alias}."output"`), q),
  outputCandidates: async () => null,
};

// ILIKE is what the pg_trgm index serves; it folds whatever the database's locale folds (all of
// Unicode under a UTF-8 one), so the translate() recheck narrows it to ASCII folding, as on
// SQLite. ASCII folding implies ILIKE's, so the pair matches exactly the ASCII-folded rows.
function containsText(column: Sql, q: string): Sql {
  return sql`${column} ILIKE ${containsPattern(q)} ESCAPE '\\' AND translate(${column}, ${UPPER}, ${LOWER}) LIKE ${containsPattern(foldAscii(q))} ESCAPE '\\'`;
}

export function dialectOf(provider: Provider): Dialect {
  return provider === "postgres" ? postgres : sqlite;
}
