import { compressRecord, decompressRecordText } from "./record-codec";
import {
  applyFormula,
  decimalsOf,
  firstFormula,
  FORMULA,
  num,
  ROUND_EXPECTED,
  ROUND_RECOMPUTED,
  roundsTo,
  roundTo,
  WINDOW,
} from "./step-trace-derive";
import { STATUS_LETTER, STEP_STATUSES, type StepRow, type StepStatus, type StepValue } from "../analysis/types";

// A generation's aligned steps as one compact record (Generation.stepTrace) instead of one
// StepResult row per step: the steps are read by one page only, the trace diff of one
// generation, always all together, so they need no columns of their own
// (docs/performance.md, "Store"). The record is a compressed JSON array (lib/store/record-codec.ts). Values are JSON
// numbers where the number prints back as the same text (strings otherwise); spans are
// (start − previous end, end − start) pairs, or one null for a step without a span: small
// numbers that deflate well. Statuses are one letter per step (STATUS_LETTER).
//
// Version 2 (written now) lists a value only where it cannot be derived, since full-precision
// numbers are what a record's bytes are made of:
//   [2, statuses, formulas, recomputedHow, claimedHow, expected[], recomputed[], claimed[], spans[]]
// - formulas, one letter per step: "." when the expected value is listed, else FORMULA
//   letter k: expected = op(expected[i − da], expected[i − db]) with (op, da, db) = k's
//   (arithmetic procedures: one op over recent steps). Found by trying every (op, da, db)
//   on the values, so the same steps give the same record whatever they were built from.
// - recomputedHow: "." absent, "=" the expected value, "f" the step's formula applied to the
//   model's own values (claimed, or expected where nothing was claimed), "!" listed.
// - claimedHow: "." absent, "=" the expected value, "~" the recomputed value, "a"+d / "A"+d
//   the expected / recomputed value rounded to d decimals (toFixed, exact by its
//   definition), "!" listed.
// Every derivation is checked when encoding against the value it stands for, so decoding
// gives back exactly the text version 1 gives. Version 1 (still decoded: stores made before
// hold it, and no migration rewrites it) was
//   [1, statuses, expected[], claimed[], recomputed[], spans[]]
// with every value listed. Built from an analysis (the writer) or from StepResult rows
// (migration 0009), the same steps give the same bytes.

/** A record never decompresses past this (a 100,000-step trace is ~5 MB): a damaged one cannot exhaust memory. */
const MAX_INFLATED = 64 << 20;

/** One step as the trace diff page reads it: values as text, as the StepResult rows held them. */
export interface StoredStep {
  step: number;
  status: StepStatus;
  expected: string;
  claimed: string | null;
  recomputed: string | null;
  span: [number, number] | null;
}

const LETTER_STATUS = new Map<string, StepStatus>(STEP_STATUSES.map((s) => [STATUS_LETTER[s], s]));

type Packed = number | string | null;

/** A value as the record holds it: a number when it prints back as the same text. */
function packValue(v: StepValue | null | undefined): Packed {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  const n = Number(v);
  return v !== "" && Number.isFinite(n) && String(n) === v ? n : v;
}

const unpackValue = (v: unknown): string | null => (v === null ? null : String(v));

export interface StepLike {
  status: StepStatus;
  expected: StepValue;
  claimed: StepValue | null;
  recomputed: StepValue | null;
  span: readonly [number, number] | null;
}

/** The record of steps 1..n (given in step order); null when there are none. */
export function encodeStepTrace(steps: readonly StepLike[]): Buffer | null {
  const text = stepTraceText(steps);
  return text === null ? null : compressRecord(text);
}

/**
 * The record's text before compression; null when there are no steps. A load builds it on the
 * analysis thread and compresses it on the loader's, where the two threads' work is most even.
 */
export function stepTraceText(steps: readonly StepLike[]): string | null {
  const n = steps.length;
  if (n === 0) return null;
  // The four letter columns, one ASCII byte per step each, in one scratch buffer: built by `+=`
  // they were a string object per letter, a tenth of a load's allocation (docs/performance.md, "Load").
  if (letters.length < 4 * n) letters = Buffer.allocUnsafeSlow(4 * n);
  const STATUSES = 0;
  const FORMULAS = n;
  const RECOMPUTED = 2 * n;
  const CLAIMED = 3 * n;
  const expected: Packed[] = [];
  const recomputed: Packed[] = [];
  const claimed: Packed[] = [];
  const spans: (number | null)[] = [];
  // the numbers a decoder will hold: expected values, and the model's own (claimed, else expected)
  const exp: number[] = new Array(n);
  const own: number[] = new Array(n);
  let end = 0;
  for (let i = 0; i < n; i++) {
    const s = steps[i];
    letters[STATUSES + i] = STATUS_CODE[s.status];
    const e = packValue(s.expected);
    const c = packValue(s.claimed);
    const r = packValue(s.recomputed);
    exp[i] = num(e);
    own[i] = c === null ? exp[i] : num(c);

    const k = typeof e === "number" ? firstFormula(exp, i, e) : -1;
    if (k < 0) {
      letters[FORMULAS + i] = DOT;
      expected.push(e);
    } else letters[FORMULAS + i] = FORMULA.charCodeAt(k);

    if (r === null) letters[RECOMPUTED + i] = DOT;
    else if (r === e) letters[RECOMPUTED + i] = EQUALS;
    else if (k >= 0 && typeof r === "number" && applyFormula(k, own, i) === r) letters[RECOMPUTED + i] = FORMULA_APPLIED;
    else {
      letters[RECOMPUTED + i] = LISTED;
      recomputed.push(r);
    }

    if (c === null) letters[CLAIMED + i] = DOT;
    else if (c === e) letters[CLAIMED + i] = EQUALS;
    else if (c === r) letters[CLAIMED + i] = TILDE;
    else {
      const cn = num(c);
      const d = typeof c === "number" ? decimalsOf(cn) : -1;
      if (d >= 0 && typeof e === "number" && roundsTo(exp[i], d, cn)) letters[CLAIMED + i] = ROUND_EXPECTED.charCodeAt(d);
      else if (d >= 0 && typeof r === "number" && roundsTo(num(r), d, cn)) letters[CLAIMED + i] = ROUND_RECOMPUTED.charCodeAt(d);
      else {
        letters[CLAIMED + i] = LISTED;
        claimed.push(c);
      }
    }

    if (s.span) {
      spans.push(s.span[0] - end, s.span[1] - s.span[0]);
      end = s.span[1];
    } else spans.push(null);
  }
  const column = (from: number) => letters.toString("latin1", from, from + n);
  return JSON.stringify([2, column(STATUSES), column(FORMULAS), column(RECOMPUTED), column(CLAIMED), expected, recomputed, claimed, spans]);
}

let letters = Buffer.allocUnsafeSlow(1024);
const STATUS_CODE = Object.fromEntries(STEP_STATUSES.map((s) => [s, STATUS_LETTER[s].charCodeAt(0)])) as Record<StepStatus, number>;
const [DOT, EQUALS, FORMULA_APPLIED, LISTED, TILDE] = Array.from(".=f!~", (c) => c.charCodeAt(0));

/** The record of an analysed generation; null when it has no step trace. */
export function stepTraceOf(a: { hasSteps: boolean; steps: readonly StepRow[] }): Buffer | null {
  return a.hasSteps ? encodeStepTrace(a.steps) : null;
}

/** The steps of a record written by encodeStepTrace (either version); [] for none. Throws on a damaged record. */
export function decodeStepTrace(record: Uint8Array | null): StoredStep[] {
  if (record === null || record.length === 0) return [];
  const parsed = JSON.parse(decompressRecordText(record, MAX_INFLATED)) as unknown;
  if (Array.isArray(parsed) && parsed[0] === 2 && parsed.length === 9) return decodeV2(parsed);
  if (Array.isArray(parsed) && parsed[0] === 1 && parsed.length === 6) return decodeV1(parsed);
  throw new Error("step trace: unknown record layout");
}

function statusAt(statuses: string, i: number): StepStatus {
  const status = LETTER_STATUS.get(statuses[i]);
  if (!status) throw new Error(`step trace: unknown status letter ${JSON.stringify(statuses[i])}`);
  return status;
}

/** The spans column of n steps, as (gap, length) pairs or null (see the header). */
function readSpans(spans: unknown, n: number): ([number, number] | null)[] {
  if (!Array.isArray(spans)) throw new Error("step trace: spans are not a list");
  const out: ([number, number] | null)[] = new Array(n);
  let k = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    if (spans[k] === null) {
      out[i] = null;
      k++;
      continue;
    }
    const gap: unknown = spans[k];
    const length: unknown = spans[k + 1];
    if (typeof gap !== "number" || typeof length !== "number") throw new Error("step trace: spans do not match the steps");
    const start = end + gap;
    end = start + length;
    out[i] = [start, end];
    k += 2;
  }
  if (k !== spans.length) throw new Error("step trace: spans do not match the steps");
  return out;
}

function decodeV1(parsed: unknown[]): StoredStep[] {
  const [, statuses, expected, claimed, recomputed, spans] = parsed as [unknown, string, unknown[], unknown[], unknown[], unknown];
  if (typeof statuses !== "string" || !Array.isArray(expected) || !Array.isArray(claimed) || !Array.isArray(recomputed))
    throw new Error("step trace: unknown record layout");
  const n = statuses.length;
  if (expected.length !== n || claimed.length !== n || recomputed.length !== n) throw new Error("step trace: columns of unequal length");
  const span = readSpans(spans, n);
  const out: StoredStep[] = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      step: i + 1,
      status: statusAt(statuses, i),
      expected: String(expected[i]),
      claimed: unpackValue(claimed[i]),
      recomputed: unpackValue(recomputed[i]),
      span: span[i],
    };
  }
  return out;
}

/** The listed values of one column, taken in order; throws when the record lists too few or a non-value. */
function listed(values: unknown): { next: () => number | string; done: () => boolean } {
  if (!Array.isArray(values)) throw new Error("step trace: unknown record layout");
  let k = 0;
  return {
    next: () => {
      const v: unknown = values[k++];
      if (typeof v !== "number" && typeof v !== "string") throw new Error("step trace: a listed value is missing");
      return v;
    },
    done: () => k === values.length,
  };
}

/** A value a formula gave: the encoder only writes formulas that give the (finite) value they stand for. */
function derived(v: number): number {
  if (!Number.isFinite(v)) throw new Error("step trace: a formula over values it cannot use");
  return v;
}

function decodeV2(parsed: unknown[]): StoredStep[] {
  const [, statuses, formulas, recomputedHow, claimedHow] = parsed;
  if (typeof statuses !== "string" || typeof formulas !== "string" || typeof recomputedHow !== "string" || typeof claimedHow !== "string")
    throw new Error("step trace: unknown record layout");
  const n = statuses.length;
  if (formulas.length !== n || recomputedHow.length !== n || claimedHow.length !== n)
    throw new Error("step trace: columns of unequal length");
  const expected = listed(parsed[5]);
  const recomputed = listed(parsed[6]);
  const claimed = listed(parsed[7]);
  const span = readSpans(parsed[8], n);
  const exp: number[] = new Array(n);
  const own: number[] = new Array(n);
  const out: StoredStep[] = new Array(n);
  for (let i = 0; i < n; i++) {
    let e: number | string;
    if (formulas[i] === ".") e = expected.next();
    else {
      const k = FORMULA.indexOf(formulas[i]);
      if (k < 0 || (k >> 2) % WINDOW >= i || Math.floor(k / (4 * WINDOW)) >= i) throw new Error("step trace: bad formula");
      e = derived(applyFormula(k, exp, i));
    }
    exp[i] = num(e);

    let r: number | string | null;
    const rHow = recomputedHow[i];
    if (rHow === ".") r = null;
    else if (rHow === "=") r = e;
    else if (rHow === "f" && formulas[i] !== ".") r = derived(applyFormula(FORMULA.indexOf(formulas[i]), own, i));
    else if (rHow === "!") r = recomputed.next();
    else throw new Error(`step trace: unknown recomputed letter ${JSON.stringify(rHow)}`);

    let c: number | string | null;
    const cHow = claimedHow[i];
    let d: number;
    if (cHow === ".") c = null;
    else if (cHow === "=") c = e;
    else if (cHow === "~" && r !== null) c = r;
    else if (cHow === "!") c = claimed.next();
    else if ((d = ROUND_EXPECTED.indexOf(cHow)) >= 0 && typeof e === "number") c = roundTo(exp[i], d);
    else if ((d = ROUND_RECOMPUTED.indexOf(cHow)) >= 0 && typeof r === "number") c = roundTo(num(r), d);
    else throw new Error(`step trace: unknown claimed letter ${JSON.stringify(cHow)}`);
    own[i] = c === null ? exp[i] : num(c);

    out[i] = {
      step: i + 1,
      status: statusAt(statuses, i),
      expected: String(e),
      claimed: unpackValue(c),
      recomputed: unpackValue(r),
      span: span[i],
    };
  }
  if (!expected.done() || !recomputed.done() || !claimed.done()) throw new Error("step trace: more values listed than the steps use");
  return out;
}
