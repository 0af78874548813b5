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
  nGen: number;
  /** item index of generation g (read only when items are grouped: several generations of one, or clusters) */
  genItem: (g: number) => number;
  /**
   * Generation g's contribution, read once per generation (no copy of a run's columns is made):
   * its L when it has steps (0 for generations without steps, e.g. self-conditioning), its first
   * divergence (0 = none), its index into `fitLengths` for the length fit (−1 = not in the fit)
   * and its first-answer outcome (0 or 1).
   */
  stepLength: (g: number) => number;
  firstDiv: (g: number) => number;
  fitLengthIdx: (g: number) => number;
  firstCorrect: (g: number) => number;
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
  const clusters = inp.itemCluster ? clusterMembers(inp.itemCluster, inp.nItems) : null;
  const cls = itemClasses(inp, clusters !== null || drawClasses !== undefined);
  const { classSize } = cls;
  const nClasses = classSize.length;
  const classCount = new Float64Array(nClasses);
  const draw = drawClasses ?? multinomialDraw(classSize);
  const rng = new Rng(seed);
  const { repL, repF, repLi, repFc } = cls;
  const { byLength, byFirstDiv, divByLength } = curve;
  // without a draw of items by their class, only the count of items is read
  const itemClass = cls.itemClass ?? { length: inp.nItems };

  for (let r = 0; r < resamples; r++) {
    classCount.fill(0);
    if (clusters === null) draw(rng, itemClass as ArrayLike<number>, classSize, classCount);
    else {
      const nc = clusters.length;
      for (let k = 0; k < nc; k++) {
        const m = clusters[rng.below(nc)];
        for (let j = 0; j < m.length; j++) classCount[cls.itemClass![m[rng.below(m.length)]]]++;
      }
    }
    clearCurveCounts(curve);
    succ.fill(0);
    total.fill(0);
    for (let c = 0; c < nClasses; c++) {
      const w = classCount[c];
      if (w === 0) continue;
      for (let k = cls.repStart[c], e = cls.repStart[c + 1]; k < e; k++) {
        const L = repL[k];
        if (L > 0) {
          byLength[L] += w;
          const f = repF[k];
          if (f > 0) {
            byFirstDiv[f] += w;
            divByLength[L] += w;
          }
        }
        const li = repLi[k];
        if (li >= 0) {
          total[li] += w;
          if (repFc[k]) succ[li] += w;
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

interface ItemClasses {
  /** each item's class, where a draw of items by class needs it (clusters, tests); else null */
  itemClass: Uint8Array | Uint16Array | Int32Array | null;
  /** items in each class */
  classSize: Float64Array;
  /** class c's representative generations are repStart[c] .. repStart[c + 1] of the rep arrays: their contributions */
  repStart: Int32Array;
  repL: Int32Array;
  repF: Int32Array;
  repLi: Int32Array;
  repFc: Uint8Array;
}

/**
 * Groups items with identical contributions; each class keeps one representative item's
 * generations, as their contributions. An item of one generation (most runs have only such)
 * is keyed by a number and needs no grouping of generations by item: a run's end made no copy
 * of its columns and no string per item (docs/performance.md, "Memory", stop 49).
 */
function itemClasses(inp: BootstrapInput, withItemClass: boolean): ItemClasses {
  const { nItems, nGen, genItem } = inp;
  const span = inp.lmax + 2;
  const fits = inp.fitLengths.length + 1;
  const numeric = span * span * fits * 2 <= Number.MAX_SAFE_INTEGER;
  const key = (g: number): number | string => {
    const L = inp.stepLength(g);
    const f = inp.firstDiv(g);
    const li = inp.fitLengthIdx(g);
    const fc = inp.firstCorrect(g);
    return numeric ? ((L * span + f) * fits + li + 1) * 2 + fc : `${L},${f},${li},${fc}`;
  };
  const ids = new Map<number | string, number>();
  const sizes: number[] = [];
  const starts: number[] = [0];
  const reps: number[] = [];
  const itemClass = withItemClass ? new Int32Array(nItems) : null;
  const classOf = (k: number | string, gens: ArrayLike<number>): number => {
    let c = ids.get(k);
    if (c === undefined) {
      ids.set(k, (c = ids.size));
      for (let j = 0; j < gens.length; j++) reps.push(gens[j]);
      starts.push(reps.length);
      sizes.push(0);
    }
    sizes[c]++;
    return c;
  };
  if (nGen === nItems) {
    // every item has one generation (each item has at least one)
    const one = [0];
    for (let g = 0; g < nGen; g++) {
      one[0] = g;
      const c = classOf(key(g), one);
      if (itemClass) itemClass[genItem(g)] = c;
    }
  } else {
    // Each item's generations, in order, as slices of one array: an array per item was the peak
    // of a big load's last stage (figures: docs/decisions.md).
    const first = new Int32Array(nItems + 1);
    for (let g = 0; g < nGen; g++) first[genItem(g) + 1]++;
    for (let i = 0; i < nItems; i++) first[i + 1] += first[i];
    const gens = new Int32Array(nGen);
    const fill = first.slice(0, nItems);
    for (let g = 0; g < nGen; g++) gens[fill[genItem(g)]++] = g;
    for (let i = 0; i < nItems; i++) {
      const from = first[i];
      const to = first[i + 1];
      const own = gens.subarray(from, to);
      const k =
        to - from === 1
          ? key(gens[from])
          : Array.from(own, (g) => String(key(g)))
              .sort()
              .join(";");
      const c = classOf(k, own);
      if (itemClass) itemClass[i] = c;
    }
  }
  const at = (f: (g: number) => number) => Int32Array.from(reps, f);
  // Resampling clustered items reads this table at random, once per item each: in the narrowest
  // type, more of it stays in the CPU's caches (docs/performance.md, "Load").
  const narrow = !itemClass
    ? null
    : ids.size <= 256
      ? Uint8Array.from(itemClass)
      : ids.size <= 65536
        ? Uint16Array.from(itemClass)
        : itemClass;
  return {
    itemClass: narrow,
    classSize: Float64Array.from(sizes),
    repStart: Int32Array.from(starts),
    repL: at(inp.stepLength),
    repF: at(inp.firstDiv),
    repLi: at(inp.fitLengthIdx),
    repFc: Uint8Array.from(reps, inp.firstCorrect),
  };
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
