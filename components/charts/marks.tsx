import { CHART, TOKEN } from "./config";
import { markerPath, r1 } from "./geometry";
import type { Marker } from "./palette";

/**
 * One data marker; with an href it is an SVG link (keyboard reachable, middle-click opens a tab;
 * the client leaf turns a plain click into a client-side navigation) with a larger hit target,
 * whose accessible name is also its tooltip.
 */
export function Mark({
  cx,
  cy,
  color,
  marker,
  hollow,
  r = CHART.markerRadius,
  href,
  tip,
}: {
  cx: number;
  cy: number;
  color: string;
  marker: Marker;
  hollow?: boolean;
  r?: number;
  href?: string | null;
  tip: string;
}) {
  if (!Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  const shape = (
    <path
      d={markerPath(marker, cx, cy, r)}
      fill={hollow ? TOKEN.surface : color}
      stroke={color}
      strokeWidth={1.5}
      data-hollow={hollow ? "" : undefined}
    />
  );
  if (!href)
    return (
      <g data-tip={tip}>
        <circle cx={r1(cx)} cy={r1(cy)} r={r + 4} fill="transparent" />
        {shape}
      </g>
    );
  return (
    <a href={href} aria-label={tip} className="chart-link">
      <circle cx={r1(cx)} cy={r1(cy)} r={r + 5} fill="transparent" />
      {shape}
    </a>
  );
}

/** Vertical error bar from y0 to y1 at x, with short caps. */
export function ErrorBar({ x, y0, y1, color, cap = 3 }: { x: number; y0: number; y1: number; color: string; cap?: number }) {
  if (![x, y0, y1].every(Number.isFinite)) return null;
  return (
    <path d={`M${x},${y0}V${y1}M${x - cap},${y0}h${2 * cap}M${x - cap},${y1}h${2 * cap}`} stroke={color} strokeWidth={1.2} fill="none" />
  );
}
