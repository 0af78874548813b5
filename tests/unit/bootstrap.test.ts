// The bootstrap groups items with equal contributions into classes; it must give exactly what a
// resampling of the items themselves gives (same draws), epochs and all. Its own draw of a
// resample's class counts (multinomial) is tested against its distribution in binomial.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bootstrap, Rng, type BootstrapInput, type ClassDraw } from "../../lib/analysis/bootstrap";
import { horizonFrom, newCurveCounts } from "../../lib/analysis/horizon";
import { logisticFit, percentileSorted } from "../../lib/analysis/stats";

/** The same statistics, each resample summed over the drawn items' own generations. */
function itemBootstrap(inp: BootstrapInput, resamples: number, seed: number) {
  const rng = new Rng(seed);
  const x = Float64Array.from(inp.fitLengths, Math.log2);
  const horizons = inp.horizonLevels.map(() => [] as number[]);
  const l50: number[] = [];
  const l80: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const drawn = new Float64Array(inp.nItems);
    for (let k = 0; k < inp.nItems; k++) drawn[rng.below(inp.nItems)]++;
    const curve = newCurveCounts(inp.lmax);
    const succ = new Float64Array(inp.fitLengths.length);
    const total = new Float64Array(inp.fitLengths.length);
    for (let g = 0; g < inp.nGen; g++) {
      const w = drawn[inp.genItem(g)];
      const L = inp.stepLength(g);
      if (L > 0) {
        curve.byLength[L] += w;
        if (inp.firstDiv(g) > 0) {
          curve.byFirstDiv[inp.firstDiv(g)] += w;
          curve.divByLength[L] += w;
        }
      }
      const li = inp.fitLengthIdx(g);
      if (li >= 0) {
        total[li] += w;
        if (inp.firstCorrect(g)) succ[li] += w;
      }
    }
    inp.horizonLevels.forEach((s, k) => horizons[k].push(horizonFrom(curve, s).steps));
    const S = succ.reduce((a, b) => a + b, 0);
    const T = total.reduce((a, b) => a + b, 0);
    if (total.filter((t) => t > 0).length < 2 || S === 0 || S === T) continue;
    const { slope: a, intercept: b } = logisticFit(x, succ, total);
    const v50 = 2 ** (-b / a);
    const v80 = 2 ** ((Math.log(4) - b) / a);
    if (!Number.isFinite(v50) || !Number.isFinite(v80)) continue;
    l50.push(v50);
    l80.push(v80);
  }
  const ci = (v: number[]): [number, number] => {
    const s = Float64Array.from(v).sort();
    return [percentileSorted(s, 0.025), percentileSorted(s, 0.975)];
  };
  return {
    horizonCi: horizons.map(ci),
    l50Ci: l50.length ? ci(l50) : null,
    l80Ci: l80.length ? ci(l80) : null,
    fitsUsed: l50.length,
  };
}

const generation = fc.record({
  L: fc.integer({ min: 1, max: 6 }),
  div: fc.integer({ min: 0, max: 6 }),
  correct: fc.boolean(),
});
// runs whose items have one generation each (keyed by a number, with no grouping by item) or up to three
const runs = fc
  .boolean()
  .chain((single) => fc.array(fc.array(generation, { minLength: 1, maxLength: single ? 1 : 3 }), { minLength: 1, maxLength: 25 }))
  .map((items) => {
    const gens = items.flatMap((gs, item) => gs.map((g) => ({ ...g, item, div: Math.min(g.div, g.L) })));
    // generations in the order a file might give them: epochs of an item need not be adjacent
    gens.sort((a, b) => ((a.item * 7 + a.L) % 5) - ((b.item * 7 + b.L) % 5));
    const fitLengths = [...new Set(gens.map((g) => g.L))].sort((a, b) => a - b);
    const inp: BootstrapInput = {
      nItems: items.length,
      nGen: gens.length,
      genItem: (g) => gens[g].item,
      stepLength: (g) => gens[g].L,
      firstDiv: (g) => gens[g].div,
      fitLengthIdx: (g) => fitLengths.indexOf(gens[g].L),
      firstCorrect: (g) => (gens[g].correct ? 1 : 0),
      fitLengths,
      lmax: Math.max(...fitLengths),
      itemCluster: null,
      horizonLevels: [0.5, 0.8],
      withFit: true,
    };
    return inp;
  });

/** Items drawn one by one, as itemBootstrap draws them, counted by class. */
const itemByItem: ClassDraw = (rng, itemClass, _sizes, out) => {
  const n = itemClass.length;
  for (let k = 0; k < n; k++) out[itemClass[rng.below(n)]]++;
};

describe("bootstrap", () => {
  it("equals resampling the items themselves, with several generations per item", () => {
    fc.assert(
      fc.property(runs, fc.integer(), (inp, seed) => {
        expect(bootstrap(inp, 60, seed, itemByItem)).toEqual(itemBootstrap(inp, 60, seed));
      }),
      { numRuns: 300 },
    );
  });
});
