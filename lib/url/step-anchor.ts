// Anchor ids of a generation page's rows, apart from the URL schema so that the trace diff's
// client bundle does not carry zod.

/** Anchor id of a reference step row (`#step-J`). */
export function stepAnchor(step: number): string {
  return "step-" + step;
}
