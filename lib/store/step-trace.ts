import { inflateRawSync } from "node:zlib";
import { deflateExact } from "./deflate";
import { STATUS_LETTER, STEP_STATUSES, type StepRow, type StepStatus, type StepValue } from "../analysis/types";

// A generation's aligned steps as one compact record (Generation.stepTrace) instead of one
// StepResult row per step: the steps are read by one page only, the trace diff of one
// generation, always all together, so they need no columns of their own
// (docs/performance.md, "Store"). The record is raw deflate of a JSON array
//   [1, statuses, expected[], claimed[], recomputed[], spans[]]
// with statuses one letter per step (STATUS_LETTER), values as JSON numbers where the number
// prints back as the same text (strings otherwise, null when absent), and spans as
// (start − previous end, end − start) pairs, or one null for a step without a span: small
// numbers that deflate well. Built from an analysis (the writer) or from StepResult rows
// (migration 0009), the same steps give the same bytes.

const VERSION = 1;
/** A record never inflates past this (a 100,000-step trace is ~5 MB): a damaged one cannot exhaust memory. */
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

/** A value as the record holds it: a number when it prints back as the same text. */
function packValue(v: StepValue | null | undefined): number | string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  const n = Number(v);
  return v !== "" && Number.isFinite(n) && String(n) === v ? n : v;
}

const unpackValue = (v: unknown): string | null => (v === null ? null : String(v));

interface StepLike {
  status: StepStatus;
  expected: StepValue;
  claimed: StepValue | null;
  recomputed: StepValue | null;
  span: readonly [number, number] | null;
}

/** The record of steps 1..n (given in step order); null when there are none. */
export function encodeStepTrace(steps: readonly StepLike[]): Buffer | null {
  if (steps.length === 0) return null;
  let statuses = "";
  const expected: (number | string | null)[] = [];
  const claimed: (number | string | null)[] = [];
  const recomputed: (number | string | null)[] = [];
  const spans: (number | null)[] = [];
  let end = 0;
  for (const s of steps) {
    statuses += STATUS_LETTER[s.status];
    expected.push(packValue(s.expected));
    claimed.push(packValue(s.claimed));
    recomputed.push(packValue(s.recomputed));
    if (s.span) {
      spans.push(s.span[0] - end, s.span[1] - s.span[0]);
      end = s.span[1];
    } else spans.push(null);
  }
  return deflateExact(JSON.stringify([VERSION, statuses, expected, claimed, recomputed, spans]));
}

/** The record of an analysed generation; null when it has no step trace. */
export function stepTraceOf(a: { hasSteps: boolean; steps: readonly StepRow[] }): Buffer | null {
  return a.hasSteps ? encodeStepTrace(a.steps) : null;
}

/** The steps of a record written by encodeStepTrace; [] for none. Throws on a damaged record. */
export function decodeStepTrace(record: Uint8Array | null): StoredStep[] {
  if (record === null || record.length === 0) return [];
  const parsed = JSON.parse(inflateRawSync(record, { maxOutputLength: MAX_INFLATED }).toString("utf8")) as unknown;
  if (!Array.isArray(parsed) || parsed[0] !== VERSION || parsed.length !== 6) throw new Error("step trace: unknown record layout");
  const [, statuses, expected, claimed, recomputed, spans] = parsed as [number, string, unknown[], unknown[], unknown[], (number | null)[]];
  const n = statuses.length;
  if (expected.length !== n || claimed.length !== n || recomputed.length !== n) throw new Error("step trace: columns of unequal length");
  const out: StoredStep[] = new Array(n);
  let k = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const status = LETTER_STATUS.get(statuses[i]);
    if (!status) throw new Error(`step trace: unknown status letter ${JSON.stringify(statuses[i])}`);
    let span: [number, number] | null = null;
    if (spans[k] === null) k++;
    else {
      const start = end + (spans[k] as number);
      end = start + (spans[k + 1] as number);
      span = [start, end];
      k += 2;
    }
    out[i] = {
      step: i + 1,
      status,
      expected: String(expected[i]),
      claimed: unpackValue(claimed[i]),
      recomputed: unpackValue(recomputed[i]),
      span,
    };
  }
  if (k !== spans.length) throw new Error("step trace: spans do not match the steps");
  return out;
}
