import type { FailureMode } from "./types";

// What each failure mode means in a run, in words for the pages. dict-sum judges its modes per
// turn (examples/README, "dict-sum"), and a self-conditioning run only at its target turn; the
// modes a benchmark never sets are null ("does not apply"), so a 0 there is not read as a finding.

/** The SPEC's rules (§3), as a run with a step trace is judged; the glossary states these. */
export const STEP_MODE_RULES: Record<FailureMode, string> = {
  "missing-answer": "no final answer anywhere",
  "format-error": "an answer is present but unparseable",
  "premature-answer": "the first answer comes before the trace states the last step",
  "self-correction": "two or more distinct answers, the first one wrong",
  "under-executed": "fewer than L distinct reference steps stated",
  "extra-steps": "a claimed step outside 1..L",
  slip: "at least one new error at a step",
};

const TURN_RULES: Record<FailureMode, string | null> = {
  "missing-answer": "a turn without an <answer> tag",
  "format-error": "a turn whose answer is not an integer",
  "premature-answer": null,
  "self-correction": null,
  "under-executed": "a step left without an answer (its turn has none)",
  "extra-steps": null,
  slip: "a turn wrong even from the model's own previous answer",
};

const TARGET_TURN_RULES: Record<FailureMode, string | null> = {
  "missing-answer": "no <answer> tag at the target turn",
  "format-error": "the target turn's answer is not an integer",
  "premature-answer": null,
  "self-correction": null,
  "under-executed": null,
  "extra-steps": null,
  slip: "a wrong integer at the target turn",
};

/** Each mode's rule for a run of `benchmark`; null where the benchmark never sets the mode. */
export function modeRules(benchmark: string, selfConditioning: boolean): Record<FailureMode, string | null> {
  if (benchmark !== "dict-sum") return STEP_MODE_RULES;
  return selfConditioning ? TARGET_TURN_RULES : TURN_RULES;
}
