// What an import left out or could not know, as sentences for the run page (read from the
// run's stored source and config; the importers write these fields).
export function importNotes(source: unknown, config: unknown): string[] {
  const notes: string[] = [];
  const s = typeof source === "object" && source !== null ? (source as Record<string, unknown>) : {};
  const c = typeof config === "object" && config !== null ? (config as Record<string, unknown>) : {};
  const errored = s.errored_samples as { count?: unknown; ids?: unknown } | undefined;
  if (errored && typeof errored.count === "number" && errored.count > 0) {
    const ids = Array.isArray(errored.ids) ? errored.ids.map(String) : [];
    const shown = ids.slice(0, 10).join(", ") + (errored.count > 10 ? ", …" : "");
    notes.push(
      `skipped ${errored.count} errored sample${errored.count === 1 ? "" : "s"}${ids.length ? ` (ids ${shown})` : ""}: they raised before they were scored, and Inspect's own metrics leave them out too`,
    );
  }
  if (c.per_item_correctness === "unavailable") {
    const m = c.corpus_metric as { name?: unknown; value?: unknown } | undefined;
    const name = typeof m?.name === "string" ? m.name : "a corpus-level metric";
    const value = typeof m?.value === "number" ? ` = ${m.value}` : " (no results_*.json value)";
    notes.push(`per-item correctness unavailable: ${name} is corpus-level; the run's ${name}${value} is lm-eval's`);
  }
  if (typeof c.threshold === "number") notes.push(`correct = score ≥ ${c.threshold} (--threshold)`);
  return notes;
}

export const correctnessUnavailable = (config: unknown) =>
  typeof config === "object" && config !== null && (config as Record<string, unknown>).per_item_correctness === "unavailable";
