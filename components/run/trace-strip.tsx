// A one-line picture of a generation's trace: one band per reference step, coloured by
// status (runs of equal status merged). The label repeats it in words for non-colour reading.

const FILL: Record<string, string> = { c: "#10b981", s: "#dc2626", p: "#f59e0b", m: "#d4d4d4" };
const NAME: Record<string, string> = { c: "correct", s: "slip", p: "propagated", m: "missing" };

/** `%` with at most two decimals: the stops of a 95-step strip need no more. */
const pct = (i: number, n: number) => `${Math.round((i / n) * 10000) / 100}%`;

/**
 * One element with hard colour stops (a gradient), not an SVG of paths: an item page draws 50
 * strips, and React's cost and the page's size are per element (the SVG was 5–6 of them).
 */
export function TraceStrip({ statuses }: { statuses: string }) {
  if (!statuses) return <span className="item-quiet">—</span>;
  const n = statuses.length;
  const stops: string[] = [];
  const counts = new Map<string, number>();
  for (let i = 0; i < n;) {
    const letter = statuses[i];
    let j = i + 1;
    while (j < n && statuses[j] === letter) j++;
    stops.push(`${FILL[letter] ?? "#a3a3a3"} ${pct(i, n)} ${pct(j, n)}`);
    counts.set(letter, (counts.get(letter) ?? 0) + j - i);
    i = j;
  }
  const words = Object.entries(NAME)
    .filter(([l]) => counts.has(l))
    .map(([l, name]) => `${counts.get(l)} ${name}`)
    .join(", ");
  const label = `${n} steps: ${words}`;
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className="trace-strip"
      style={{ background: `linear-gradient(90deg,${stops.join(",")})` }}
    />
  );
}

/** The strip's colours in words, shown once above a table of strips. */
export function TraceStripLegend() {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="trace-strip-legend">
      <span>Trace strip, one band per step:</span>
      {Object.entries(NAME).map(([letter, name]) => (
        <span key={letter} className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: FILL[letter] }} />
          {name}
        </span>
      ))}
    </span>
  );
}
