// Simulated procedural-arith traces. The model executes from its own stated values, so a
// slip propagates; each failure behaviour of the profile maps to a SPEC §3 failure mode.

import { applyOp, arithReference, ARITH_OPS, type ArithInput } from "./arith";
import { formatAnswer, formatNumber } from "./format";
import type { Rng } from "./rng";
import type { SimItem, SimProfile } from "./simulate";

/** Own values past this are treated as a breakdown: the model writes some other number. */
const OWN_LIMIT = 1e20;

const PREAMBLES = ["", "", "Let me execute the procedure step by step.", "I'll compute each variable in order."];
const FILLERS = ["Keeping track of the values so far.", "Now the next few steps.", "Continuing with the procedure."];
const UNPARSEABLE = ["undefined", "cannot be determined", "unknown", "not computable"];

function usable(v: number): boolean {
  return Number.isFinite(v) && Math.abs(v) <= OWN_LIMIT;
}

/** 10^floor(log10 |v|) by exact-enough scaling (no Math.log10, so identical everywhere). */
function leadingPlace(v: number): number {
  let a = Math.abs(v);
  if (a === 0) return 0.01;
  let place = 1;
  while (a >= 10) {
    a /= 10;
    place *= 10;
  }
  while (a < 1 && place > 1e-12) {
    a *= 10;
    place /= 10;
  }
  return place;
}

/**
 * A plausible wrong value, clearly outside the match tolerance of `v`. Errors sit in the
 * leading digits: a slip in the 6th digit would vanish under the relative tolerance, and a
 * model's real mistakes (wrong digit, dropped sign, wrong operation) are not that subtle.
 */
export function slipValue(rng: Rng, v: number, ops?: { op: string; a: number; b: number }): number {
  const margin = Math.max(0.003, Math.abs(v) * 0.002);
  for (let tries = 0; tries < 12; tries++) {
    const sign = rng.chance(0.5) ? 1 : -1;
    let w: number;
    switch (rng.int(0, 4)) {
      case 0: // relative drift
        w = v * (1 + sign * rng.float(0.02, 0.3));
        break;
      case 1: // one wrong digit among the first three
        w = v + (sign * rng.int(1, 9) * leadingPlace(v)) / 10 ** rng.int(0, 2);
        break;
      case 2: // dropped sign
        w = -v;
        break;
      case 3: {
        // applied the wrong operation
        if (!ops) continue;
        const other = rng.choice(ARITH_OPS.filter((o) => o !== ops.op));
        w = applyOp(other, ops.a, ops.b);
        break;
      }
      default: // carried a wrong unit
        w = v + sign * Math.max(1, leadingPlace(v));
    }
    if (usable(w) && Math.abs(w - v) > margin) return w;
  }
  return v + Math.abs(v) * 0.1 + 1;
}

interface LineStyle {
  times: string;
  divide: string;
  stepLabels: number;
}

function opText(op: string, st: LineStyle): string {
  return op === "*" ? st.times : op === "/" ? st.divide : op;
}

function operandText(v: number): string {
  const s = formatNumber(v);
  return v < 0 ? `(${s})` : s;
}

function stepLine(
  rng: Rng,
  st: LineStyle,
  j: number,
  op: string,
  a: number,
  b: number,
  va: number,
  vb: number,
  v: number,
  plain = false,
): string {
  const o = opText(op, st);
  const vals = `${operandText(va)} ${o} ${operandText(vb)}`;
  const val = formatNumber(v);
  if (!plain && rng.chance(st.stepLabels)) {
    return rng.choice([
      `Step ${j}: ${vals} = ${val}`,
      `Step ${j}: S${a} ${o} S${b} gives ${vals} = ${val}`,
      `Step ${j}: compute S${a} ${o} S${b}: ${vals} = ${val}`,
    ]);
  }
  if (plain) return `S${j} = S${a} ${o} S${b} = ${vals} = ${val}`;
  const r = rng.next();
  if (r < 0.76) return `S${j} = S${a} ${o} S${b} = ${vals} = ${val}`;
  if (r < 0.88) return `S${j} = ${vals} = ${val}`;
  return `S${j} = S${a} ${o} S${b} = ${val}`;
}

function inputLine(rng: Rng, st: LineStyle, j: 1 | 2, v: number): string {
  const name = j === 1 ? "x" : "y";
  if (rng.chance(st.stepLabels)) return `Step ${j}: ${name} = ${formatNumber(v)}`;
  return rng.chance(0.5) ? `S${j} = ${name} = ${formatNumber(v)}` : `S${j} = ${formatNumber(v)}`;
}

function answerLine(rng: Rng, alt: number, text: string, L: number): string {
  const r = rng.next();
  if (r < alt / 2) return `Final answer: ${text}`;
  if (r < alt) return `The answer is $\\boxed{${text}}$.`;
  return rng.choice(["", "So the answer is ", "Therefore ", `The value of S${L} rounded to 3 decimals is `]) + `<answer>${text}</answer>`;
}

export function simulateArith(profile: SimProfile, item: SimItem, rng: Rng): string {
  const input = item.input as unknown as ArithInput;
  const ref = arithReference(input);
  const L = ref.length;
  const opAt = (j: number) => input.steps[j - 3];

  // the model's own execution: slips with probability 1 − p, otherwise exact on its own values
  const own: number[] = [];
  let firstSlip = 0;
  for (let j = 1; j <= L; j++) {
    const s = j >= 3 ? opAt(j) : null;
    let v = s ? applyOp(s.op, own[s.a - 1], own[s.b - 1]) : j === 1 ? input.x : input.y;
    const slip = rng.chance(1 - profile.stepReliability);
    // own values gone to infinity (e.g. dividing by its own wrong zero): the model falls back
    // on a sensible value instead of writing "Infinity", and no extra slip is counted
    if (!usable(v)) v = ref[j - 1];
    if (slip) {
      v = slipValue(rng, v, s ? { op: s.op, a: own[s.a - 1], b: own[s.b - 1] } : undefined);
      if (!firstSlip) firstSlip = j;
    }
    own.push(v);
  }

  // every event is drawn, in a fixed order, so one profile change never reshuffles the rest
  const miss = rng.chance(profile.missingAnswer);
  const badFormat = rng.chance(profile.formatError) && !miss;
  const prem = rng.chance(profile.premature);
  const premStops = rng.chance(0.5);
  const under = rng.chance(profile.underExecute);
  const extra = rng.chance(profile.extraSteps);
  const selfCorr = rng.chance(profile.selfCorrection) && !miss && !badFormat && !(prem && premStops);

  const st: LineStyle = {
    times: rng.chance(0.6) ? "*" : "×",
    divide: rng.chance(0.6) ? "/" : "÷",
    stepLabels: profile.stepLabels,
  };

  const omitted = new Set<number>();
  if (under && L >= 5) {
    const start = rng.int(3, L - 2);
    const len = rng.int(1, Math.max(1, Math.floor(L / 6)));
    for (let j = start; j <= Math.min(L - 1, start + len - 1); j++) omitted.add(j);
  }
  const premAt = prem ? rng.int(Math.max(2, Math.floor(L / 3)), L - 1) : 0;

  const lines: string[] = [];
  const pre = rng.choice(PREAMBLES);
  if (pre) lines.push(pre);
  const writeStep = (j: number) => {
    if (j <= 2) return lines.push(inputLine(rng, st, j as 1 | 2, own[j - 1]));
    const s = opAt(j);
    lines.push(stepLine(rng, st, j, s.op, s.a, s.b, own[s.a - 1], own[s.b - 1], own[j - 1]));
  };

  for (let j = 1; j <= L; j++) {
    if (!omitted.has(j)) writeStep(j);
    if (j > 2 && j < L && rng.chance(0.02)) lines.push(rng.choice(FILLERS));
    if (j === premAt) {
      if (premStops) {
        // stops early: answers with what it has (or nothing when the answer is missing too)
        if (!miss) lines.push(answerLine(rng, profile.altAnswerStyle, badFormat ? rng.choice(UNPARSEABLE) : formatAnswer(own[j - 1]), L));
        return lines.join("\n");
      }
      if (!miss) lines.push(`The answer is <answer>${formatAnswer(own[j - 1])}</answer>. Let me verify by finishing the remaining steps.`);
    }
  }

  let finalValue = own[L - 1];
  if (extra) {
    const ext = own.slice();
    const n = rng.int(1, 3);
    for (let j = L + 1; j <= L + n; j++) {
      const a = j - rng.int(1, 3);
      let b = j - rng.int(1, 3);
      if (b === a) b = a === j - 1 ? j - 2 : j - 1;
      const op = rng.choice(ARITH_OPS);
      let v = applyOp(op, ext[a - 1], ext[b - 1]);
      if (!usable(v)) v = ext[a - 1] + ext[b - 1];
      ext.push(v);
      lines.push(stepLine(rng, st, j, op, a, b, ext[a - 1], ext[b - 1], v));
    }
    if (rng.chance(0.4)) finalValue = ext[ext.length - 1];
  }

  if (miss) {
    if (rng.chance(0.5)) lines.push("That completes the procedure.");
    return lines.join("\n");
  }

  if (selfCorr) {
    if (firstSlip) {
      lines.push(`<answer>${formatAnswer(finalValue)}</answer>`);
      lines.push(`Wait, S${firstSlip} looks wrong. Let me redo the steps from S${firstSlip}.`);
      for (let j = firstSlip; j <= L; j++) {
        if (j <= 2) lines.push(`S${j} = ${formatNumber(ref[j - 1])}`);
        else {
          const s = opAt(j);
          lines.push(stepLine(rng, st, j, s.op, s.a, s.b, ref[s.a - 1], ref[s.b - 1], ref[j - 1], true));
        }
      }
    } else {
      lines.push(`<answer>${formatAnswer(slipValue(rng, finalValue))}</answer>`);
      lines.push(`Hmm, let me double-check S${L}.`);
      const s = opAt(L);
      lines.push(stepLine(rng, st, L, s.op, s.a, s.b, own[s.a - 1], own[s.b - 1], own[L - 1], true));
    }
    lines.push(`So the corrected answer is <answer>${formatAnswer(ref[L - 1])}</answer>`);
    return lines.join("\n");
  }

  lines.push(answerLine(rng, profile.altAnswerStyle, badFormat ? rng.choice(UNPARSEABLE) : formatAnswer(finalValue), L));
  return lines.join("\n");
}
