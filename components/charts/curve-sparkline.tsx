import { TOKEN, pct } from "./config";
import { markerPath } from "./geometry";
import { styleOfSlot, type SeriesStyle } from "./palette";

export interface CurveSparklineProps {
  /** accuracy per length, any order */
  points: { length: number; accuracy: number }[];
  width?: number;
  height?: number;
  /** the model's colour and marker (palette.ts modelStyle), as in every other chart */
  style?: SeriesStyle;
  /** run key, as `data-series` of the charts */
  series?: string;
  /** accessible name; a default one lists the values */
  label?: string;
}

/**
 * Tiny accuracy-vs-length line for table cells. Plain SVG (no chart library, no client
 * JavaScript), so a page of a hundred rows stays cheap. y runs 0–100%, x by rank of length.
 * The line is in the model's colour and its last point is the model's marker.
 */
export function CurveSparkline({ points, width = 96, height = 24, style = styleOfSlot(0), series, label }: CurveSparklineProps) {
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
      data-series={series}
      data-marker={style.marker}
    >
      <title>{name}</title>
      <line x1={pad} x2={width - pad} y1={y(0.5)} y2={y(0.5)} stroke={TOKEN.grid} strokeDasharray="2 2" strokeWidth={1} />
      <path d={d} fill="none" stroke={style.color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      <path d={markerPath(style.marker, x(pts.length - 1), y(last.accuracy), 2.6)} fill={style.color} />
    </svg>
  );
}
