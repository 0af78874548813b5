import { TOKEN } from "./config";
import { markerPath } from "./geometry";
import type { Marker } from "./palette";

export interface LegendEntry {
  label: string;
  color: string;
  marker?: Marker | null;
  dash?: string;
  hollow?: boolean;
  /** a filled swatch (bars, bands, heat cells) instead of a line */
  swatch?: "band" | "bar";
  /** swatch opacity (heat-map scale entries) */
  opacity?: number;
}

/** A small marker + line sample, the same as drawn in the chart. */
export function LegendGlyph({ color, marker, dash, hollow, swatch, opacity }: Omit<LegendEntry, "label">) {
  return (
    <svg aria-hidden="true" width="28" height="14" viewBox="0 0 28 14" className="shrink-0">
      {swatch === "band" ? (
        <rect x="1" y="2" width="26" height="10" rx="2" fill={color} fillOpacity={opacity ?? 0.2} />
      ) : swatch === "bar" ? (
        <rect x="7" y="1" width="14" height="12" rx="1.5" fill={color} fillOpacity={opacity ?? 1} />
      ) : (
        <line x1="1" x2="27" y1="7" y2="7" stroke={color} strokeWidth={2} strokeDasharray={dash} />
      )}
      {marker ? <path d={markerPath(marker, 14, 7, 3.6)} fill={hollow ? TOKEN.surface : color} stroke={color} strokeWidth={1.4} /> : null}
    </svg>
  );
}

/** HTML legend under a chart: wraps on narrow screens, labels are plain text. */
export function ChartLegend({ entries, title }: { entries: LegendEntry[]; title?: string }) {
  return (
    <ul aria-label={title ?? "Legend"} className="chart-legend">
      {entries.map((e, i) => (
        <li
          key={`${e.label}-${i}`}
          className="flex min-w-0 items-center gap-1.5"
          data-style={e.marker ? `${e.color} ${e.marker}${e.hollow ? " hollow" : ""}` : undefined}
        >
          <LegendGlyph color={e.color} marker={e.marker} dash={e.dash} hollow={e.hollow} swatch={e.swatch} opacity={e.opacity} />
          <span className="truncate" title={e.label}>
            {e.label}
          </span>
        </li>
      ))}
    </ul>
  );
}
