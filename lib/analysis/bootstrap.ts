// Percentile bootstrap of the horizons and the length fit (SPEC §4): 1,000 resamples of items
// (variant → item when the run mixes variants), a fixed seed, so results are deterministic.
//
// Speed: an item's contribution to every resampled statistic depends only on its generations'
// (L, first divergence, first-answer outcome). Items with equal contributions form a class, so a
// resample is the count of draws that fall in each class — one multinomial draw over the classes'
// sizes (lib/analysis/binomial.ts), distributed exactly as n uniform draws of items mapped to their
// classes — then one weighted pass over the classes (a few hundred, typically): its cost follows
// the classes, not the items (figures: docs/performance.md, "Load").
import { MultinomialSampler } from "./binomial";
import { clearCurveCounts, horizonFrom, newCurveCounts } from "./horizon";
import { logisticFit, percentileSorted } from "./stats";

export interface BootstrapInput {
  nItems: number;
  /** item index of every generation */
  genItem: Int32Array;
  /** L of every generation with steps (0 for generations without steps, e.g. self-conditioning) */
  stepLength: Int32Array;
  /** first divergence (0 = none) */
  firstDiv: Int32Array;
  /** index into `fitLengths` for the length fit (−1 = not in the fit), and first-answer outcome */
  fitLengthIdx: Int32Array;
  firstCorrect: Uint8Array;
  fitLengths: number[]; // distinct L, ascending
  lmax: number;
  /** cluster index per item, or null for plain item resampling */
  itemCluster: Int32Array | null;
  horizonLevels: number[]; // e.g. [0.5, 0.8]
  withFit: boolean;
}

export interface BootstrapResult {
  horizonCi: [number, number][]; // per level
  l50Ci: [number, number] | null;
  l80Ci: [number, number] | null;
  /** resamples that could be fitted: ones with a single length or a single outcome are skipped */
  fitsUsed: number;
}

export const BOOTSTRAP_SEED = 20260601;
export const BOOTSTRAP_RESAMPLES = 1000;

const LOGIT80 = Math.log(4);

/**
 * Fills `out` with one resample's count of drawn items per class (items resampled with
 * replacement, as many as there are). The default is one multinomial draw over `classSize`;
 * tests draw the items one by one to compare with resampling items themselves.
 */
export type ClassDraw = (rng: Rng, itemClass: ArrayLike<number>, classSize: Float64Array, out: Float64Array) => void;

function multinomialDraw(classSize: Float64Array): ClassDraw {
  const sampler = new MultinomialSampler(classSize);
  return (rng, itemClass, _classSize, out) => sampler.draw(rng.next, itemClass.length, out);
}

export function bootstrap(
  inp: BootstrapInput,
  resamples = BOOTSTRAP_RESAMPLES,
  seed = BOOTSTRAP_SEED,
  drawClasses?: ClassDraw,
): BootstrapResult {
  const curve = newCurveCounts(inp.lmax);
  const nLen = inp.fitLengths.length;
  const succ = new Float64Array(nLen);
  const total = new Float64Array(nLen);
  const x = Float64Array.from(inp.fitLengths, (L) => Math.log2(L));
  const horizons = inp.horizonLevels.map(() => new Float64Array(resamples));
  const l50 = new Float64Array(resamples);
  const l80 = new Float64Array(resamples);
  let fits = 0;
  const cls = itemClasses(inp);
  const nClasses = cls.repStart.length - 1;
  const classCount = new Float64Array(nClasses);
  const classSize = new Float64Array(nClasses);
  for (let i = 0; i < inp.nItems; i++) classSize[cls.itemClass[i]]++;
  const draw = drawClasses ?? multinomialDraw(classSize);
  const rng = new Rng(seed);
  const clusters = inp.itemCluster ? clusterMembers(inp.itemCluster, inp.nItems) : null;
  const { stepLength, firstDiv, fitLengthIdx, firstCorrect } = inp;
  const { byLength, byFirstDiv, divByLength } = curve;

  for (let r = 0; r < resamples; r++) {
    classCount.fill(0);
    const itemClass = cls.itemClass;
    if (clusters === null) draw(rng, itemClass, classSize, classCount);
    else {
      const nc = clusters.length;
      for (let k = 0; k < nc; k++) {
        const m = clusters[rng.below(nc)];
        for (let j = 0; j < m.length; j++) classCount[itemClass[m[rng.below(m.length)]]]++;
      }
    }
    clearCurveCounts(curve);
    succ.fill(0);
    total.fill(0);
    for (let c = 0; c < nClasses; c++) {
      const w = classCount[c];
      if (w === 0) continue;
      for (let k = cls.repStart[c], e = cls.repStart[c + 1]; k < e; k++) {
        const g = cls.repGens[k];
        const L = stepLength[g];
        if (L > 0) {
          byLength[L] += w;
          const f = firstDiv[g];
          if (f > 0) {
            byFirstDiv[f] += w;
            divByLength[L] += w;
          }
        }
        const li = fitLengthIdx[g];
        if (li >= 0) {
          total[li] += w;
          if (firstCorrect[g]) succ[li] += w;
        }
      }
    }
    for (let k = 0; k < horizons.length; k++) horizons[k][r] = horizonFrom(curve, inp.horizonLevels[k]).steps;
    if (!inp.withFit) continue;
    let lengths = 0;
    let S = 0;
    let T = 0;
    for (let i = 0; i < nLen; i++) {
      if (total[i] > 0) lengths++;
      S += succ[i];
      T += total[i];
    }
    if (lengths < 2 || S === 0 || S === T) continue; // degenerate resample: cannot be fitted
    const { slope: a, intercept: b } = logisticFit(x, succ, total);
    const v50 = 2 ** (-b / a);
    const v80 = 2 ** ((LOGIT80 - b) / a);
    if (!Number.isFinite(v50) || !Number.isFinite(v80)) continue;
    l50[fits] = v50;
    l80[fits] = v80;
    fits++;
  }
  const ci = (arr: Float64Array): [number, number] => {
    const s = arr.sort();
    return [percentileSorted(s, 0.025), percentileSorted(s, 0.975)];
  };
  return {
    horizonCi: horizons.map(ci),
    l50Ci: inp.withFit && fits > 0 ? ci(l50.subarray(0, fits)) : null,
    l80Ci: inp.withFit && fits > 0 ? ci(l80.subarray(0, fits)) : null,
    fitsUsed: fits,
  };
}

/** Groups items with identical contributions; each class keeps one representative's generations. */
function itemClasses(inp: BootstrapInput): { itemClass: Uint8Array | Uint16Array | Int32Array; repStart: Int32Array; repGens: Int32Array } {
  // Each item's generations, in order, as slices of one array: an array per item was the peak
  // of a big load's last stage (figures: docs/decisions.md).
  const { nItems, genItem } = inp;
  const first = new Int32Array(nItems + 1);
  for (let g = 0; g < genItem.length; g++) first[genItem[g] + 1]++;
  for (let i = 0; i < nItems; i++) first[i + 1] += first[i];
  const gens = new Int32Array(genItem.length);
  const fill = first.slice(0, nItems);
  for (let g = 0; g < genItem.length; g++) gens[fill[genItem[g]]++] = g;
  const contribution = (g: number) => `${inp.stepLength[g]},${inp.firstDiv[g]},${inp.fitLengthIdx[g]},${inp.firstCorrect[g]}`;
  const ids = new Map<string, number>();
  const itemClass = new Int32Array(nItems);
  const starts: number[] = [0];
  const reps: number[] = [];
  for (let i = 0; i < nItems; i++) {
    const from = first[i];
    const to = first[i + 1];
    const key = to - from === 1 ? contribution(gens[from]) : Array.from(gens.subarray(from, to), contribution).sort().join(";");
    let c = ids.get(key);
    if (c === undefined) {
      ids.set(key, (c = ids.size));
      for (let k = from; k < to; k++) reps.push(gens[k]);
      starts.push(reps.length);
    }
    itemClass[i] = c;
  }
  // Resampling clustered items reads this table at random, once per item each: in the narrowest
  // type, more of it stays in the CPU's caches (docs/performance.md, "Load").
  const narrow = ids.size <= 256 ? Uint8Array.from(itemClass) : ids.size <= 65536 ? Uint16Array.from(itemClass) : itemClass;
  return { itemClass: narrow, repStart: Int32Array.from(starts), repGens: Int32Array.from(reps) };
}

function clusterMembers(cl: Int32Array, nItems: number): Int32Array[] {
  let nc = 0;
  for (let i = 0; i < nItems; i++) nc = Math.max(nc, cl[i] + 1);
  const lists: number[][] = Array.from({ length: nc }, () => []);
  for (let i = 0; i < nItems; i++) lists[cl[i]].push(i);
  return lists.map((m) => Int32Array.from(m));
}

/** mulberry32 (same stream as stats.mulberry32), with an integer draw in [0, n). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed | 0;
  }
  /** A uniform double in [0, 1). */
  readonly next = (): number => {
    const a = (this.state = (this.state + 0x6d2b79f5) | 0);
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  below(n: number): number {
    return (this.next() * n) | 0;
  }
}
