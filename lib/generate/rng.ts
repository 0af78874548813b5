// Seeded pseudo-random numbers for item generation and the simulated model.
//
// Everything here uses 32-bit integer arithmetic (Math.imul, >>>) and exact
// double divisions only, never Math.sin/log/exp, so a seed yields the same
// stream on every platform and Node version: datasets are reproducible bytes.

/** FNV-1a over the UTF-16 code units of a string, then a final avalanche. */
function hashString(s: string, h: number): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Derive a 32-bit seed from several parts (seed, family, item index, ...), so
 * each item gets its own independent stream: adding a length to the grid or
 * items to a run never changes the items already there.
 */
export function hashSeed(...parts: (string | number | boolean)[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    // the separator keeps ("ab","c") and ("a","bc") apart
    h = hashString(`${typeof p}:${String(p)}\u0001`, h);
  }
  return avalanche(h);
}

export interface Rng {
  /** uniform in [0, 1) with 32 bits of resolution */
  next(): number;
  /** uniform integer in [lo, hi], both inclusive */
  int(lo: number, hi: number): number;
  /** uniform in [lo, hi) */
  float(lo: number, hi: number): number;
  /** true with probability p */
  chance(p: number): boolean;
  choice<T>(items: readonly T[]): T;
  /** a shuffled copy (Fisher–Yates) */
  shuffle<T>(items: readonly T[]): T[];
  /** approximately normal (Irwin–Hall, 12 uniforms): no transcendental functions, so bit-stable */
  normal(mean?: number, sd?: number): number;
  /** pick an index with probability proportional to its weight */
  weighted(weights: readonly number[]): number;
  /** an independent child stream, named so call order elsewhere does not matter */
  fork(...label: (string | number)[]): Rng;
}

/** mulberry32: tiny, fast, passes the usual statistical batteries for this use. */
export function createRng(seed: number | string): Rng {
  let state = typeof seed === "number" ? hashSeed("n", seed) : hashSeed("s", seed);
  const baseSeed = state;

  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const int = (lo: number, hi: number): number => {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`rng.int: invalid range [${lo}, ${hi}]`);
    }
    return lo + Math.floor(next() * (hi - lo + 1));
  };

  const rng: Rng = {
    next,
    int,
    float: (lo, hi) => lo + next() * (hi - lo),
    chance: (p) => p > 0 && next() < p,
    choice: (items) => {
      if (items.length === 0) throw new RangeError("rng.choice: empty list");
      return items[Math.floor(next() * items.length)];
    },
    shuffle: (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i];
        out[i] = out[j];
        out[j] = tmp;
      }
      return out;
    },
    normal: (mean = 0, sd = 1) => {
      let s = 0;
      for (let i = 0; i < 12; i++) s += next();
      return mean + (s - 6) * sd;
    },
    weighted: (weights) => {
      let total = 0;
      for (const w of weights) total += Math.max(0, w);
      if (total <= 0) throw new RangeError("rng.weighted: no positive weight");
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= Math.max(0, weights[i]);
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    fork: (...label) => createRng(hashSeed(baseSeed, ...label)),
  };
  return rng;
}
