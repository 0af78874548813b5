// A one-line picture of a generation's trace: one cell per reference step, coloured by
// status (runs of equal status merged). The title repeats it in words for non-colour reading.

const FILL: Record<string, string> = { c: "#10b981", s: "#dc2626", p: "#f59e0b", m: "#d4d4d4" };
const NAME: Record<string, string> = { c: "correct", s: "slip", p: "propagated", m: "missing" };

export function TraceStrip({ statuses, width = 120, height = 10 }: { statuses: string; width?: number; height?: number }) {
  if (!statuses) return <span className="text-xs text-neutral-400">—</span>;
  const n = statuses.length;
  const runs: { letter: string; from: number; to: number }[] = [];
  for (let i = 0; i < n; i++) {
    const last = runs[runs.length - 1];
    if (last && last.letter === statuses[i]) last.to = i + 1;
    else runs.push({ letter: statuses[i], from: i, to: i + 1 });
  }
  const counts = Object.entries(NAME)
    .map(([l, name]) => [name, [...statuses].filter((c) => c === l).length] as const)
    .filter(([, c]) => c > 0)
    .map(([name, c]) => `${c} ${name}`)
    .join(", ");
  return (
    <svg width={width} height={height} viewBox={`0 0 ${n} 1`} preserveAspectRatio="none" role="img" aria-label={`${n} steps: ${counts}`} className="block rounded-sm">
      <title>{`${n} steps: ${counts}`}</title>
      {runs.map((r) => (
        <rect key={r.from} x={r.from} y={0} width={r.to - r.from} height={1} fill={FILL[r.letter] ?? "#a3a3a3"} />
      ))}
    </svg>
  );
}
