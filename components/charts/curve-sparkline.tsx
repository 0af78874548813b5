import { TOKEN, pct } from "./config";

export interface CurveSparklineProps {
  /** accuracy per length, any order */
  points: { length: number; accuracy: number }[];
  width?: number;
  height?: number;
  color?: string;
  /** accessible name; a default one lists the values */
  label?: string;
}

/**
 * Tiny accuracy-vs-length line for table cells. Plain SVG (no chart library, no client
 * JavaScript), so a page of a hundred rows stays cheap. y runs 0–100%, x by rank of length.
 */
export function CurveSparkline({ points, width = 96, height = 24, color = "var(--chart-s0)", label }: CurveSparklineProps) {
  const pts = [...points].filter((p) => Number.isFinite(p.accuracy)).sort((a, b) => a.length - b.length);
  const name = label ?? (pts.length ? "Accuracy by length: " + pts.map((p) => `${p.length}: ${pct(p.accuracy)}`).join(", ") : "No data");
  if (pts.length === 0)
    return (
      <span className="text-xs text-neutral-400" aria-label={name}>
        —
      </span>
    );
  const pad = 2;
  const x = (i: number) => (pts.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (pts.length - 1));
  const y = (a: number) => pad + (1 - Math.min(1, Math.max(0, a))) * (height - 2 * pad);
  const d = pts.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join("");
  const last = pts[pts.length - 1];
  return (
    <svg
      role="img"
      aria-label={name}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="inline-block align-middle"
    >
      <title>{name}</title>
      <line x1={pad} x2={width - pad} y1={y(0.5)} y2={y(0.5)} stroke={TOKEN.grid} strokeDasharray="2 2" strokeWidth={1} />
      <path d={d} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={x(pts.length - 1)} cy={y(last.accuracy)} r={2} fill={color} />
    </svg>
  );
}
