import type { SeriesSymbol } from "./theme";

export interface LegendEntry {
  label: string;
  color: string;
  symbol?: SeriesSymbol | null;
  dash?: string;
  hollow?: boolean;
  /** a filled swatch (bars, bands) instead of a line */
  swatch?: "band" | "bar";
}

function symbolPath(symbol: SeriesSymbol, cx: number, cy: number, r: number): string {
  switch (symbol) {
    case "square":
      return `M${cx - r},${cy - r}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case "triangle":
      return `M${cx},${cy - r * 1.15}L${cx + r * 1.1},${cy + r * 0.8}L${cx - r * 1.1},${cy + r * 0.8}Z`;
    case "diamond":
      return `M${cx},${cy - r * 1.3}L${cx + r},${cy}L${cx},${cy + r * 1.3}L${cx - r},${cy}Z`;
    case "cross": {
      const a = r / 2.5;
      return `M${cx - a},${cy - r}h${2 * a}v${r - a}h${r - a}v${2 * a}h${a - r}v${r - a}h${-2 * a}v${a - r}h${a - r}v${-2 * a}h${r - a}Z`;
    }
    default:
      return `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  }
}

/** A small marker + line sample, the same as drawn in the chart. */
export function LegendGlyph({ color, symbol, dash, hollow, swatch }: Omit<LegendEntry, "label">) {
  return (
    <svg aria-hidden="true" width="28" height="14" viewBox="0 0 28 14" className="shrink-0">
      {swatch === "band" ? (
        <rect x="1" y="2" width="26" height="10" rx="2" fill={color} fillOpacity={0.18} />
      ) : swatch === "bar" ? (
        <rect x="7" y="1" width="14" height="12" rx="1.5" fill={color} />
      ) : (
        <line x1="1" x2="27" y1="7" y2="7" stroke={color} strokeWidth={2} strokeDasharray={dash} />
      )}
      {symbol ? <path d={symbolPath(symbol, 14, 7, 3.6)} fill={hollow ? "#fff" : color} stroke={color} strokeWidth={1.4} /> : null}
    </svg>
  );
}

/** HTML legend under a chart: wraps on narrow screens, labels are plain text. */
export function ChartLegend({ entries, title }: { entries: LegendEntry[]; title?: string }) {
  return (
    <ul aria-label={title ?? "Legend"} className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-neutral-700">
      {entries.map((e, i) => (
        <li key={`${e.label}-${i}`} className="flex min-w-0 items-center gap-1.5">
          <LegendGlyph color={e.color} symbol={e.symbol} dash={e.dash} hollow={e.hollow} swatch={e.swatch} />
          <span className="truncate" title={e.label}>
            {e.label}
          </span>
        </li>
      ))}
    </ul>
  );
}
