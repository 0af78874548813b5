import { FAILURE_MODES, type FailureMode } from "./types";

// A generation's failure modes as a bitmask, bit i standing for FAILURE_MODES[i]: the form
// Generation.modes and the summary columns keep, so counting and filtering need no strings.
// Stored masks depend on the order of FAILURE_MODES.

/** The mask of `modes`; names that are not failure modes are ignored. */
export function encodeModes(modes: Iterable<string>): number {
  let bits = 0;
  for (const m of modes) {
    const i = FAILURE_MODES.indexOf(m as FailureMode);
    if (i >= 0) bits |= 1 << i;
  }
  return bits;
}

/** The modes set in `bits`, in FAILURE_MODES order. */
export function decodeModes(bits: number): FailureMode[] {
  return FAILURE_MODES.filter((_, i) => (bits & (1 << i)) !== 0);
}

export function emptyModeCounts(): Record<FailureMode, number> {
  return Object.fromEntries(FAILURE_MODES.map((m) => [m, 0])) as Record<FailureMode, number>;
}

/** Adds one generation's mask to `counts`. */
export function countModes(counts: Record<FailureMode, number>, bits: number): void {
  for (let i = 0; i < FAILURE_MODES.length; i++) if (bits & (1 << i)) counts[FAILURE_MODES[i]]++;
}

/** Every mask with `mode`'s bit set: the stores have no portable bit test, so a mode filter is an IN list. */
export function masksWith(mode: FailureMode): number[] {
  const bit = 1 << FAILURE_MODES.indexOf(mode);
  const out: number[] = [];
  for (let m = 0; m < 1 << FAILURE_MODES.length; m++) if (m & bit) out.push(m);
  return out;
}
