// A one-line picture of a generation's trace: one cell per reference step, coloured by
// status (runs of equal status merged). The title repeats it in words for non-colour reading.

const FILL: Record<string, string> = { c: "#10b981", s: "#dc2626", p: "#f59e0b", m: "#d4d4d4" };
const NAME: Record<string, string> = { c: "correct", s: "slip", p: "propagated", m: "missing" };

export function TraceStrip({ statuses, width = 120, height = 10 }: { statuses: string; width?: number; height?: number }) {
  if (!statuses) return <span className="text-xs text-neutral-400">—</span>;
  const n = statuses.length;
  // One path per status, one square subpath per run: a 95-step strip is at most four
  // elements, not one per run (an item page draws 50 strips).
  const paths = new Map<string, string>();
  const counts = new Map<string, number>();
  for (let i = 0; i < n; ) {
    const letter = statuses[i];
    let j = i + 1;
    while (j < n && statuses[j] === letter) j++;
    paths.set(letter, (paths.get(letter) ?? "") + `M${i} 0h${j - i}v1h${i - j}z`);
    counts.set(letter, (counts.get(letter) ?? 0) + j - i);
    i = j;
  }
  const words = Object.entries(NAME)
    .filter(([l]) => counts.has(l))
    .map(([l, name]) => `${counts.get(l)} ${name}`)
    .join(", ");
  return (
    <svg width={width} height={height} viewBox={`0 0 ${n} 1`} preserveAspectRatio="none" role="img" aria-label={`${n} steps: ${words}`} className="block rounded-sm">
      <title>{`${n} steps: ${words}`}</title>
      {[...paths].map(([letter, d]) => (
        <path key={letter} d={d} fill={FILL[letter] ?? "#a3a3a3"} />
      ))}
    </svg>
  );
}
