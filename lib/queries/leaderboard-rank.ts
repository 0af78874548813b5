// Pure helpers of the leaderboard query (no store access), kept apart so they stay small
// and testable.

export type HorizonRank = "leader" | "tied" | null;

interface HorizonCols {
  id: number;
  key: string;
  benchmark: string;
  h50: number | null;
  h50Lo: number | null;
  h50Hi: number | null;
}

type HorizonOrderCols = Pick<HorizonCols, "key" | "h50" | "h50Lo">;

/**
 * The order of runs on H_0.5, best first: the horizon, then its CI's lower bound (two censored
 * "≥ 95" runs are told apart by how sure each is), then the key. The leaderboard's H_0.5 sort
 * orders by the same in SQL (leaderboard-query.ts, orderOf), so its leader is its first row.
 */
export function byHorizon(a: HorizonOrderCols, b: HorizonOrderCols): number {
  if (a.h50 === null || b.h50 === null) return a.h50 === b.h50 ? keyOrder(a.key, b.key) : a.h50 === null ? 1 : -1;
  return b.h50 - a.h50 || (b.h50Lo ?? b.h50) - (a.h50Lo ?? a.h50) || keyOrder(a.key, b.key);
}

const keyOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Marks the leader on H_0.5 (the first run byHorizon) and the runs whose 95% CI overlaps the
 * leader's. Horizons are counted in each benchmark's own steps, so the comparison is made within
 * a benchmark: an arithmetic step and a dict-sum step are not the same unit.
 */
export function rankByHorizon(runs: HorizonCols[]): Map<number, HorizonRank> {
  const out = new Map<number, HorizonRank>();
  const byBenchmark = new Map<string, HorizonCols[]>();
  for (const r of runs) if (r.h50 !== null) byBenchmark.set(r.benchmark, [...(byBenchmark.get(r.benchmark) ?? []), r]);
  for (const group of byBenchmark.values()) {
    const leader = group.reduce((best, r) => (byHorizon(r, best) < 0 ? r : best));
    const lLo = leader.h50Lo ?? leader.h50!;
    const lHi = leader.h50Hi ?? leader.h50!;
    if (group.length < 2) continue; // a lone run leads nothing
    for (const r of group) {
      if (r.id === leader.id) out.set(r.id, "leader");
      else if ((r.h50Lo ?? r.h50!) <= lHi && (r.h50Hi ?? r.h50!) >= lLo) out.set(r.id, "tied");
    }
  }
  return out;
}

/**
 * Default "accuracy at" lengths: among the lengths most runs share (at least half as many
 * runs as the most common one), up to three spread over the range.
 */
export function pickLengths(lengths: number[]): number[] {
  const count = new Map<number, number>();
  for (const l of lengths) count.set(l, (count.get(l) ?? 0) + 1);
  const most = Math.max(0, ...count.values());
  const u = [...count]
    .filter(([, c]) => c * 2 >= most)
    .map(([l]) => l)
    .sort((a, b) => a - b);
  if (u.length <= 3) return u;
  return [u[0], u[Math.floor((u.length - 1) / 2)], u[u.length - 1]];
}

/** H_0.5 predicted from constant step reliability: ln 0.5 / ln p̂ (null when p̂ = 1 or unknown). */
export function predictedHorizon(p: number | null): number | null {
  if (p === null || p <= 0 || p >= 1) return null;
  return Math.log(0.5) / Math.log(p);
}

/**
 * Benchmarks in the order the leaderboard offers them: the SPEC's own first (§2), then the
 * rest A→Z. The first is the default, so the page a bare `/` opens depends only on which
 * benchmarks exist, never on how many runs each has: an import cannot flip it.
 */
const BENCHMARK_ORDER = ["procedural-arith", "dict-sum", "generic"];

export function orderBenchmarks(benchmarks: Iterable<string>): string[] {
  const rank = (b: string) => {
    const i = BENCHMARK_ORDER.indexOf(b);
    return i < 0 ? BENCHMARK_ORDER.length : i;
  };
  return [...new Set(benchmarks)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

export function defaultBenchmark(benchmarks: Iterable<string>): string | undefined {
  return orderBenchmarks(benchmarks)[0];
}

/**
 * Whether a run matches the leaderboard's search: every whitespace-separated word occurs,
 * case-insensitively and literally (no wildcards), in its key, model or variant.
 */
export function matchesRunSearch(q: string | undefined, run: { key: string; model: string; variant: string }): boolean {
  if (!q) return true;
  const hay = [run.key, run.model, run.variant].map((s) => s.toLowerCase());
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.some((h) => h.includes(word)));
}
