import { grow, growable } from "./growable";
import { StepTotals } from "./step-totals";
import type { GenerationSummary } from "./types";

// A run's generation summaries as columns (typed arrays), the form the metrics read. The
// loader keeps one summary per generation until the run's last line, because the bootstrap
// resamples items: as objects with a status string each they cost an order of magnitude more
// and sat in the JavaScript heap, which V8 let grow well past them; as columns they take
// ~6–10 bytes a generation (lengths and first divergences in 16 bits while they fit, item
// numbers only once a generation's is not its own index), outside that heap (figures:
// docs/decisions.md). Step statuses are
// not kept: every aggregate reads them through sums taken as they are pushed (StepTotals).
// Each column grows in place (lib/analysis/growable.ts).

const FIRST_CORRECT = 1;
const LAST_CORRECT = 2;
const CLEAN = 4;
const EXACT_STEP = 8;
const HAS_STEPS = 16;

/** Optional numbers: a column is allocated (NaN = null) when the first value arrives. */
type OptionalField = "lengthValue" | "weight" | "scRate" | "scTurn";

/**
 * A run's usage, summed in push order: the metrics read only its totals (RunExtras.usage), so
 * it takes no column per generation (four of them were 32 bytes a generation, the largest
 * part of a big run's columns: docs/performance.md, "Memory").
 */
export interface UsageTotals {
  /** some generation had a usage number */
  any: boolean;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  latencySum: number;
  latencyCount: number;
}

/** Most generations one run's columns hold. */
const MAX_GENERATIONS = 2 ** 27;
const INT16_MAX = 0x7fff;

export class SummaryColumns {
  n = 0;
  private cap: number;
  /**
   * item of each generation, numbered by first appearance (itemNumber); null while generation i
   * is of item i, as in a run of one generation per item in file order, the largest runs: 4
   * bytes a generation not kept
   */
  private item: Int32Array | null = null;
  /** items numbered so far */
  items = 0;
  /** keys of the items numbered here (summaries pushed without a number), by number */
  private itemKeys: string[] = [];
  private itemIndex = new Map<string, number>();
  /** 16 bits a generation until a length or first divergence needs more (widen) */
  length: Int16Array | Int32Array;
  private flags: Uint8Array;
  /** -1 when the generation never left the reference */
  firstDiv: Int16Array | Int32Array;
  /** bitmask over FAILURE_MODES (7 of them) */
  modes: Uint8Array;
  /** cluster of each generation: an index into clusterNames, -1 for none; allocated with the first cluster */
  private cluster: Int32Array | null = null;
  readonly clusterNames: string[] = [];
  private clusterIndex = new Map<string, number>();
  /** the statuses' sums over the run (the statuses themselves are not kept) */
  readonly steps = new StepTotals();
  private optional = new Map<OptionalField, Float64Array>();
  readonly usage: UsageTotals = { any: false, promptTokens: 0, completionTokens: 0, costUsd: 0, latencySum: 0, latencyCount: 0 };

  constructor(capacity = 1024) {
    this.cap = Math.min(Math.max(16, capacity), MAX_GENERATIONS);
    this.length = growable(Int16Array, this.cap, MAX_GENERATIONS);
    this.flags = growable(Uint8Array, this.cap, MAX_GENERATIONS);
    this.firstDiv = growable(Int16Array, this.cap, MAX_GENERATIONS);
    this.modes = growable(Uint8Array, this.cap, MAX_GENERATIONS);
  }

  static from(list: readonly GenerationSummary[]): SummaryColumns {
    const c = new SummaryColumns(list.length);
    for (const s of list) c.push(s);
    return c;
  }

  /**
   * Takes the item numbered `index` by the source (a load's reader numbers items by first
   * appearance), true when it is new: a load keeps no item keys. Summaries pushed without a
   * number are numbered here by key instead; one SummaryColumns uses one way or the other.
   */
  itemAt(index: number): boolean {
    if (this.itemKeys.length) throw new Error("internal: items numbered by key and by the source");
    if (index < this.items) return false;
    if (index > this.items) throw new Error(`internal: item ${index} numbered before item ${this.items}`);
    this.items++;
    return true;
  }

  private itemOf(key: string): number {
    const k = this.itemIndex.get(key);
    if (k !== undefined) return k;
    if (this.items > this.itemKeys.length) throw new Error("internal: items numbered by key and by the source");
    this.itemIndex.set(key, this.items);
    this.itemKeys.push(key);
    return this.items++;
  }

  /** `item`: the summary's item number (itemAt), or numbered by its key here. */
  push(s: GenerationSummary, item = this.itemOf(s.itemKey)): void {
    if (this.n === this.cap) this.grow();
    if ((s.length > INT16_MAX || (s.firstDivergence ?? 0) > INT16_MAX) && this.length instanceof Int16Array) this.widen();
    const i = this.n++;
    if (this.item) this.item[i] = item;
    else if (item !== i) {
      this.item = growable(Int32Array, this.cap, MAX_GENERATIONS);
      for (let j = 0; j < i; j++) this.item[j] = j;
      this.item[i] = item;
    }
    this.length[i] = s.length;
    this.flags[i] =
      (s.firstCorrect ? FIRST_CORRECT : 0) |
      (s.lastCorrect ? LAST_CORRECT : 0) |
      (s.clean ? CLEAN : 0) |
      (s.exactStep ? EXACT_STEP : 0) |
      (s.statuses.length > 0 ? HAS_STEPS : 0);
    this.firstDiv[i] = s.firstDivergence ?? -1;
    this.modes[i] = s.modes;
    if (s.cluster !== null) this.cluster ??= growable(Int32Array, this.cap, MAX_GENERATIONS).fill(-1);
    if (this.cluster) this.cluster[i] = s.cluster === null ? -1 : this.clusterOf(s.cluster);
    if (s.statuses.length > 0) this.steps.push(s.length, s.statuses);
    this.addUsage(s);
    this.set("lengthValue", i, s.lengthValue);
    this.set("weight", i, s.weight);
    this.set("scRate", i, s.selfConditioning?.inducedErrorRate);
    this.set("scTurn", i, s.selfConditioning?.targetTurn);
  }

  /** The item number of generation i. */
  itemNumber(i: number): number {
    return this.item ? this.item[i] : i;
  }
  firstCorrect(i: number): boolean {
    return (this.flags[i] & FIRST_CORRECT) !== 0;
  }
  lastCorrect(i: number): boolean {
    return (this.flags[i] & LAST_CORRECT) !== 0;
  }
  clean(i: number): boolean {
    return (this.flags[i] & CLEAN) !== 0;
  }
  exactStep(i: number): boolean {
    return (this.flags[i] & EXACT_STEP) !== 0;
  }
  firstDivergence(i: number): number | null {
    return this.firstDiv[i] < 0 ? null : this.firstDiv[i];
  }
  /** Whether generation i has step statuses (a step trace). */
  hasSteps(i: number): boolean {
    return (this.flags[i] & HAS_STEPS) !== 0;
  }
  clusterName(i: number): string | null {
    const c = this.cluster ? this.cluster[i] : -1;
    return c < 0 ? null : this.clusterNames[c];
  }
  /** An optional number of generation i; null when absent. */
  value(field: OptionalField, i: number): number | null {
    const col = this.optional.get(field);
    if (!col) return null;
    const v = col[i];
    return Number.isNaN(v) ? null : v;
  }
  has(field: OptionalField): boolean {
    return this.optional.has(field);
  }
  selfConditioning(i: number): { inducedErrorRate: number; targetTurn: number } | null {
    const rate = this.value("scRate", i);
    return rate === null ? null : { inducedErrorRate: rate, targetTurn: this.value("scTurn", i)! };
  }

  /**
   * Generation i as a summary object, for tests (the item's key is its number when a load
   * numbered it; usage is null: only its totals are kept; statuses only as whether there are
   * any; no epoch: no metric reads it).
   */
  get(i: number): Omit<GenerationSummary, "statuses" | "epoch"> & { hasSteps: boolean } {
    const out: Omit<GenerationSummary, "statuses" | "epoch"> & { hasSteps: boolean } = {
      itemKey: this.itemKeys[this.itemNumber(i)] ?? `#${this.itemNumber(i)}`,
      length: this.length[i],
      firstCorrect: this.firstCorrect(i),
      lastCorrect: this.lastCorrect(i),
      firstDivergence: this.firstDivergence(i),
      hasSteps: this.hasSteps(i),
      modes: this.modes[i],
      cluster: this.clusterName(i),
      selfConditioning: this.selfConditioning(i),
      clean: this.clean(i),
      exactStep: this.exactStep(i),
      promptTokens: null,
      completionTokens: null,
      latencyMs: null,
      costUsd: null,
    };
    const lv = this.value("lengthValue", i);
    const w = this.value("weight", i);
    if (lv !== null) out.lengthValue = lv;
    if (w !== null) out.weight = w;
    return out;
  }

  private clusterOf(name: string): number {
    let c = this.clusterIndex.get(name);
    if (c === undefined) {
      c = this.clusterNames.length;
      this.clusterIndex.set(name, c);
      this.clusterNames.push(name);
    }
    return c;
  }

  private addUsage(s: GenerationSummary): void {
    const u = this.usage;
    if (s.promptTokens !== null || s.completionTokens !== null || s.latencyMs !== null || s.costUsd !== null) u.any = true;
    u.promptTokens += s.promptTokens ?? 0;
    u.completionTokens += s.completionTokens ?? 0;
    u.costUsd += s.costUsd ?? 0;
    if (s.latencyMs !== null) {
      u.latencySum += s.latencyMs;
      u.latencyCount++;
    }
  }

  private set(field: OptionalField, i: number, v: number | null | undefined): void {
    let col = this.optional.get(field);
    if (v == null) {
      if (col) col[i] = NaN;
      return;
    }
    if (!col) {
      col = growable(Float64Array, this.cap, MAX_GENERATIONS).fill(NaN);
      this.optional.set(field, col);
    }
    col[i] = v;
  }

  /** The length and first-divergence columns at 32 bits a generation, from the first value past 16. */
  private widen(): void {
    const wide = (narrow: Int16Array | Int32Array) => {
      const out = growable(Int32Array, this.cap, MAX_GENERATIONS);
      out.set(narrow.subarray(0, this.n));
      return out;
    };
    this.length = wide(this.length);
    this.firstDiv = wide(this.firstDiv);
  }

  private grow(): void {
    const columns = [this.length, this.flags, this.firstDiv, this.modes, ...(this.item ? [this.item] : [])];
    for (const col of columns) grow(col, this.cap + 1, "generations");
    const cap = this.length.length;
    if (this.cluster) {
      grow(this.cluster, cap, "generations");
      this.cluster.fill(-1, this.cap);
    }
    for (const col of this.optional.values()) {
      grow(col, cap, "generations");
      col.fill(NaN, this.cap);
    }
    this.cap = cap;
  }
}
