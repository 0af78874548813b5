import { z } from "zod";
import {
  dirParam,
  flagParam,
  intListParam,
  intParam,
  optNumber,
  optString,
  parseFields,
  toQuery,
  type RawSearchParams,
  type SortDir,
} from "./shared";

// URL state of the leaderboard (`/`) and of its exports (`/export/leaderboard`).

/** Columns the leaderboard sorts on; `at:N` sorts by first-answer accuracy at length N. */
export const LEADERBOARD_SORTS = [
  "model",
  "benchmark",
  "variant",
  "size",
  "items",
  "h50",
  "h80",
  "l50",
  "p",
  "firstAccuracy",
  "lastAccuracy",
  "scSlope",
] as const;
export type LeaderboardSortColumn = (typeof LEADERBOARD_SORTS)[number] | `at:${number}`;

const sortParam = z
  .string()
  .refine((s) => (LEADERBOARD_SORTS as readonly string[]).includes(s) || /^at:\d{1,6}$/.test(s))
  .transform((s) => s as LeaderboardSortColumn)
  .optional()
  .catch(undefined);

const schema = z.object({
  /** the benchmark ranked; absent → the page picks one (defaultBenchmark), the API and export list every benchmark */
  benchmark: optString(),
  /** search over run key, model and variant (every word must match one of them) */
  q: optString(100),
  /** show demo runs even though real runs exist */
  demo: flagParam,
  variant: optString(),
  family: optString(),
  thinking: z.enum(["yes", "no"]).optional().catch(undefined),
  minSize: optNumber(0),
  maxSize: optNumber(0),
  /** lengths for the "accuracy at length" columns; absent → chosen from the data */
  at: intListParam(6),
  sort: sortParam,
  dir: dirParam,
  page: intParam(1, 1, 100_000),
  pageSize: intParam(25, 5, 200),
});

export type LeaderboardParams = z.infer<typeof schema>;
export const DEFAULT_LEADERBOARD_SORT: LeaderboardSortColumn = "h50";

export function parseLeaderboardParams(raw: RawSearchParams): LeaderboardParams {
  return parseFields(schema, raw);
}

/** Text columns read naturally A→Z, numbers best-first. */
export function defaultDirFor(sort: LeaderboardSortColumn): SortDir {
  return sort === "model" || sort === "benchmark" || sort === "variant" ? "asc" : "desc";
}

export function effectiveSort(p: LeaderboardParams): { sort: LeaderboardSortColumn; dir: SortDir } {
  const sort = p.sort ?? DEFAULT_LEADERBOARD_SORT;
  return { sort, dir: p.dir ?? defaultDirFor(sort) };
}

const DEFAULTS = { page: 1, pageSize: 25 };

/** Query string (with leading "?", or "") of the given params. */
export function leaderboardQuery(p: Partial<LeaderboardParams>): string {
  return toQuery(
    {
      benchmark: p.benchmark,
      q: p.q,
      demo: p.demo,
      variant: p.variant,
      family: p.family,
      thinking: p.thinking,
      minSize: p.minSize,
      maxSize: p.maxSize,
      at: p.at,
      sort: p.sort,
      dir: p.dir,
      page: p.page,
      pageSize: p.pageSize,
    },
    DEFAULTS,
  );
}

export function leaderboardHref(p: Partial<LeaderboardParams>): string {
  return "/" + leaderboardQuery(p);
}

/** Href after a filter change: back to page 1, since the old page may not exist. */
export function leaderboardFilterHref(p: LeaderboardParams, change: Partial<LeaderboardParams>): string {
  return leaderboardHref({ ...p, ...change, page: 1 });
}

/** Href for clicking a column header: toggles direction when already sorted by it. */
export function leaderboardSortHref(p: LeaderboardParams, column: LeaderboardSortColumn): string {
  const cur = effectiveSort(p);
  const dir: SortDir = cur.sort === column ? (cur.dir === "asc" ? "desc" : "asc") : defaultDirFor(column);
  return leaderboardHref({ ...p, sort: column, dir, page: 1 });
}

export function leaderboardExportHref(p: LeaderboardParams, format: "csv" | "json"): string {
  const q = leaderboardQuery({ ...p, page: undefined, pageSize: undefined });
  return "/export/leaderboard" + (q ? q + "&" : "?") + "format=" + format;
}
