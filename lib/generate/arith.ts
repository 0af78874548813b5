// procedural-arith items (SPEC §2.1): two inputs and L − 2 operations, each reading two
// distinct earlier variables within the look-back window.

import { applyOp } from "../analysis/arith";
import { createRng, hashSeed, type Rng } from "./rng";

export const ARITH_OPS = ["+", "-", "*", "/"] as const;
export type ArithOp = (typeof ARITH_OPS)[number];
export type OpMode = "mixed" | ArithOp;

export interface ArithStep {
  op: ArithOp;
  a: number; // 1-based variable index
  b: number;
}
export interface ArithInput {
  x: number;
  y: number;
  steps: ArithStep[];
}
export interface ArithItem {
  id: string;
  length: number;
  input: ArithInput;
}

export interface ArithSettings {
  lookback: number;
  inputRange: [number, number];
  ops: OpMode;
  /** decimals of the drawn inputs; 3 as in the papers' items, 0 for integers */
  decimals: number;
}

/** Values beyond this are rejected: they stop being "arithmetic a model can do by hand". */
export const MAX_MAGNITUDE = 1e12;
/**
 * Values are steered into [SOFT_MIN, SOFT_MAX] when possible: beyond it chains explode, and
 * below it every value matches 0 under the absolute tolerance (0.0005), so a model's errors
 * would vanish from the trace and the rest of the item would test nothing.
 */
const SOFT_MIN = 1e-3;
const SOFT_MAX = 1e8;

/** 1 inside the band, growing with the distance outside it. */
function bandDistance(v: number): number {
  const a = Math.abs(v);
  if (a > SOFT_MAX) return a / SOFT_MAX;
  if (a < SOFT_MIN) return a === 0 ? Infinity : SOFT_MIN / a;
  return 1;
}
const MAX_RESTARTS = 200;

// The executor's operation: generated items and the analysis can never disagree on it.
export { applyOp };

/** Reference trace [S1..SL] in IEEE double arithmetic, step order. */
export function arithReference(input: ArithInput): number[] {
  const s = [input.x, input.y];
  for (const st of input.steps) s.push(applyOp(st.op, s[st.a - 1], s[st.b - 1]));
  return s;
}

/** Why a step value is unusable, or null when it is fine. */
export function invalidValueReason(op: string, a: number, b: number, value: number): string | null {
  if (op === "/" && b === 0) return "divides by zero";
  if (!Number.isFinite(value)) return "leaves the finite range";
  if (Math.abs(value) > MAX_MAGNITUDE) return `exceeds magnitude ${MAX_MAGNITUDE}`;
  return null;
}

/** Checks an existing procedure the way generation does; returns the first problem. */
export function validateArith(input: ArithInput, lookback?: number): string | null {
  const s = [input.x, input.y];
  if (!Number.isFinite(input.x) || !Number.isFinite(input.y)) return "inputs must be finite";
  for (let i = 0; i < input.steps.length; i++) {
    const j = i + 3;
    const { op, a, b } = input.steps[i];
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < 1 || a >= j || b >= j) {
      return `step ${j}: operands must be earlier variables`;
    }
    if (lookback !== undefined && (a < j - lookback || b < j - lookback)) {
      return `step ${j}: operand outside look-back ${lookback}`;
    }
    const v = applyOp(op, s[a - 1], s[b - 1]);
    const why = invalidValueReason(op, s[a - 1], s[b - 1], v);
    if (why) return `step ${j}: ${why}`;
    s.push(v);
  }
  return null;
}

function drawInput(rng: Rng, [lo, hi]: [number, number], decimals: number): number {
  const scale = 10 ** decimals;
  const v = rng.int(Math.ceil(lo * scale), Math.floor(hi * scale)) / scale;
  // dividing an integer by 10^d gives the shortest decimal, so JSON shows e.g. 8.523
  return v === 0 ? 0 : v;
}

function windowPairs(j: number, lookback: number): [number, number][] {
  const lo = Math.max(1, j - lookback);
  const pairs: [number, number][] = [];
  for (let a = lo; a < j; a++) for (let b = lo; b < j; b++) if (a !== b) pairs.push([a, b]);
  return pairs;
}

/**
 * Draw one procedure. Each step takes a random op and operand pair; when that value is
 * invalid or outside the soft band, the step is redrawn from all candidates in random order
 * (the first valid one inside the band, else the valid one nearest to it), which keeps long
 * multiplicative chains bounded. A step with no valid candidate restarts the item.
 */
export function drawArithInput(rng: Rng, length: number, settings: ArithSettings): ArithInput {
  const { lookback, inputRange, ops, decimals } = settings;
  if (!Number.isInteger(length) || length < 3) throw new RangeError(`length must be an integer ≥ 3, got ${length}`);
  if (!Number.isInteger(lookback) || lookback < 2) throw new RangeError(`lookback must be an integer ≥ 2, got ${lookback}`);
  const opList: readonly ArithOp[] = ops === "mixed" ? ARITH_OPS : [ops];

  for (let attempt = 0; attempt < MAX_RESTARTS; attempt++) {
    const x = drawInput(rng, inputRange, decimals);
    const y = drawInput(rng, inputRange, decimals);
    const s = [x, y];
    const steps: ArithStep[] = [];
    let dead = false;
    for (let j = 3; j <= length; j++) {
      const lo = Math.max(1, j - lookback);
      const n = j - lo;
      // fast path, the common case: one random op and distinct pair
      const op = opList.length === 1 ? opList[0] : rng.choice(opList);
      const a = lo + rng.int(0, n - 1);
      let b = lo + rng.int(0, n - 2);
      if (b >= a) b++;
      const v = applyOp(op, s[a - 1], s[b - 1]);
      if (!invalidValueReason(op, s[a - 1], s[b - 1], v) && bandDistance(v) === 1) {
        steps.push({ op, a, b });
        s.push(v);
        continue;
      }
      const chosen = redrawStep(rng, s, j, lookback, opList);
      if (!chosen) {
        dead = true;
        break;
      }
      steps.push(chosen.st);
      s.push(chosen.v);
    }
    if (!dead) return { x, y, steps };
  }
  throw new Error(
    `cannot draw a valid procedure of length ${length} with ops ${ops} and input range [${inputRange.join(", ")}]: ` +
      `every attempt divided by zero or exceeded magnitude ${MAX_MAGNITUDE} ` +
      `(try a larger lookback, shorter lengths or mixed ops)`,
  );
}

function redrawStep(rng: Rng, s: number[], j: number, lookback: number, opList: readonly ArithOp[]): { st: ArithStep; v: number } | null {
  let nearest: { st: ArithStep; v: number; d: number } | null = null;
  const pairs = windowPairs(j, lookback);
  for (const op of rng.shuffle(opList)) {
    for (const [a, b] of rng.shuffle(pairs)) {
      const v = applyOp(op, s[a - 1], s[b - 1]);
      if (invalidValueReason(op, s[a - 1], s[b - 1], v)) continue;
      const d = bandDistance(v);
      if (d === 1) return { st: { op, a, b }, v };
      if (!nearest || d < nearest.d) nearest = { st: { op, a, b }, v, d };
    }
  }
  return nearest;
}

const OP_NAMES: Record<OpMode, string> = { mixed: "mixed", "+": "add", "-": "sub", "*": "mul", "/": "div" };

function rangeTag(n: number): string {
  return String(n).replace("-", "m").replace(".", "p");
}

/** e.g. `lb3-r1_10-mixed`, the convention of the example files. */
export function arithVariantName(settings: Pick<ArithSettings, "lookback" | "inputRange" | "ops" | "decimals">): string {
  const [lo, hi] = settings.inputRange;
  const base = `lb${settings.lookback}-r${rangeTag(lo)}_${rangeTag(hi)}-${OP_NAMES[settings.ops]}`;
  return settings.decimals === 3 ? base : `${base}-d${settings.decimals}`;
}

export function arithItemId(lookback: number, index: number): string {
  return `arith-lb${lookback}-${String(index).padStart(4, "0")}`;
}

export interface ArithGridOptions extends ArithSettings {
  lengths: number[];
  itemsPerLength: number;
  seed: number;
}

/**
 * Fails fast, before anything is written, on settings that cannot produce valid
 * procedures (e.g. only `*` on inputs ≥ 1 at length 95): draws the first item of each length.
 */
export function checkArithFeasible(opts: ArithGridOptions): void {
  const variant = arithVariantName(opts);
  for (const length of new Set(opts.lengths)) {
    drawArithInput(createRng(hashSeed(opts.seed, "procedural-arith", variant, length, 0)), length, opts);
  }
}

/**
 * Items in length-grid order. Each item's stream is seeded by (seed, settings, length,
 * index within length), so an item does not depend on the rest of the grid.
 */
export function* arithItems(opts: ArithGridOptions): Generator<ArithItem> {
  const variant = arithVariantName(opts);
  let index = 0;
  for (const length of opts.lengths) {
    for (let k = 0; k < opts.itemsPerLength; k++) {
      index++;
      const rng = createRng(hashSeed(opts.seed, "procedural-arith", variant, length, k));
      yield { id: arithItemId(opts.lookback, index), length, input: drawArithInput(rng, length, opts) };
    }
  }
}
