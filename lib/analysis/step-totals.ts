import { STATUS_LETTER, STEP_STATUSES } from "./types";

// A run's step statuses summed as they are pushed (SummaryColumns): every aggregate of a run
// reads statuses only through sums by step or by length, so the statuses themselves are not
// kept. Kept, they were the largest of the run's columns (two bits a step and 12 bytes a
// generation), and a run's end read them four times over (docs/performance.md, "Memory",
// stop 48). All sums are of whole numbers, exact in doubles, so their order does not matter.

const CODE_C = STATUS_LETTER.correct.charCodeAt(0);
const CODE_P = STATUS_LETTER.propagated.charCodeAt(0);
const KNOWN = new Set(STEP_STATUSES.map((s) => STATUS_LETTER[s].charCodeAt(0)));

export class StepTotals {
  /** okByStep[j]: generations whose step j is locally correct (correct or propagated), j < its statuses */
  okByStep = new Float64Array(64);
  /** the same for j also below the generation's length */
  okByStepInLength = new Float64Array(64);
  /** okLastByLength[L]: generations of length L whose step L − 1 is locally correct */
  okLastByLength = new Float64Array(64);
  /** by length L, over generations with statuses: Σ c and Σ c², c its locally correct steps below L */
  cByLength = new Float64Array(64);
  c2ByLength = new Float64Array(64);
  /** Σ locally correct statuses, Σ statuses */
  localTotal = 0;
  stepsTotal = 0;

  /** Adds a generation of length `length` with `statuses` (one letter a step, STATUS_LETTER), not empty. */
  push(length: number, statuses: string): void {
    const count = statuses.length;
    if (count > this.okByStep.length) this.okByStep = grown(this.okByStep, count);
    if (Math.min(count, length) > this.okByStepInLength.length) this.okByStepInLength = grown(this.okByStepInLength, count);
    if (length >= this.cByLength.length) {
      this.okLastByLength = grown(this.okLastByLength, length + 1);
      this.cByLength = grown(this.cByLength, length + 1);
      this.c2ByLength = grown(this.c2ByLength, length + 1);
    }
    const { okByStep, okByStepInLength } = this;
    const within = Math.min(count, length);
    let ok = 0;
    let okWithin = 0;
    for (let j = 0; j < count; j++) {
      const c = statuses.charCodeAt(j);
      if (c === CODE_C || c === CODE_P) {
        okByStep[j]++;
        ok++;
        if (j < within) {
          okByStepInLength[j]++;
          okWithin++;
        }
      } else if (!KNOWN.has(c)) throw new Error(`internal: unknown step status letter ${JSON.stringify(statuses[j])}`);
    }
    if (length >= 1 && length - 1 < count) {
      const c = statuses.charCodeAt(length - 1);
      if (c === CODE_C || c === CODE_P) this.okLastByLength[length]++;
    }
    this.cByLength[length] += okWithin;
    this.c2ByLength[length] += okWithin * okWithin;
    this.localTotal += ok;
    this.stepsTotal += count;
  }
}

/** `a` copied into a new array of at least `size` (×1.5 at least), the rest zero. */
function grown(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(Math.max(size, Math.ceil(a.length * 1.5)));
  next.set(a);
  return next;
}
