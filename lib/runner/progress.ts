// How many generations a run expects, for progress displays: Run.expectedItems (set by the
// runner) times the run's epochs. Null for runs loaded from files (nothing is expected).
export function expectedGenerations(
  expectedItems: number | null | undefined,
  config: Record<string, unknown> | null | undefined,
): number | null {
  if (!expectedItems) return null;
  const epochs = typeof config?.epochs === "number" && Number.isInteger(config.epochs) && config.epochs > 0 ? config.epochs : 1;
  return expectedItems * epochs;
}
