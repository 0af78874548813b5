import { bandPath, linePath, linearTicks, scale } from "@/components/charts/geometry";
import { styleOfSlot } from "@/components/charts/palette";

// The accuracy-vs-length chart of a link preview, drawn for next/og (satori): SVG for the band,
// line and axes (satori rasterises it without text), the tick labels as positioned divs.
// Colours are the light values of the dashboard's series slots (app/globals.css --chart-sN):
// satori cannot resolve CSS variables.
const SLOT_HEX = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#3a93c9", "#404040", "#b87a00"];

export function previewColor(modelId: number): string {
  return SLOT_HEX[styleOfSlot(modelId - 1).slot % SLOT_HEX.length];
}

export interface PreviewSeries {
  color: string;
  points: { length: number; accuracy: number; ci: [number, number] }[];
}

const PAD = { left: 56, right: 16, top: 12, bottom: 40 };

export function CurvePanel({ series, width, height }: { series: PreviewSeries[]; width: number; height: number }) {
  const lengths = series.flatMap((s) => s.points.map((p) => p.length));
  const lo = Math.min(...lengths, 0);
  const hi = Math.max(...lengths, 1);
  const x = scale([lo, hi], [PAD.left, width - PAD.right]);
  const y = scale([0, 1], [height - PAD.bottom, PAD.top]);
  const xTicks = linearTicks(lo, hi, 6);
  const yTicks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div style={{ display: "flex", position: "relative", width, height }}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        {yTicks.map((t) => (
          <line key={t} x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} stroke="#e5e5e5" strokeWidth={1} />
        ))}
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={height - PAD.bottom} stroke="#737373" strokeWidth={2} />
        <line x1={PAD.left} x2={width - PAD.right} y1={height - PAD.bottom} y2={height - PAD.bottom} stroke="#737373" strokeWidth={2} />
        {series.map((s, i) => (
          <path
            key={`band${i}`}
            d={bandPath(
              s.points.map((p) => x(p.length)),
              s.points.map((p) => y(p.ci[1])),
              s.points.map((p) => y(p.ci[0])),
            )}
            fill={s.color}
            fillOpacity={0.18}
          />
        ))}
        {series.map((s, i) => (
          <path
            key={`line${i}`}
            d={linePath(s.points.map((p) => [x(p.length), y(p.accuracy)]))}
            fill="none"
            stroke={s.color}
            strokeWidth={4}
          />
        ))}
        {series.flatMap((s, i) =>
          s.points.map((p) => <circle key={`${i}:${p.length}`} cx={x(p.length)} cy={y(p.accuracy)} r={6} fill={s.color} />),
        )}
      </svg>
      {yTicks.map((t) => (
        <div
          key={t}
          style={{
            position: "absolute",
            left: 0,
            top: y(t) - 12,
            width: PAD.left - 8,
            display: "flex",
            justifyContent: "flex-end",
            fontSize: 18,
            color: "#525252",
          }}
        >
          {`${t * 100}%`}
        </div>
      ))}
      {xTicks.map((t) => (
        <div
          key={t}
          style={{
            position: "absolute",
            left: x(t) - 30,
            top: height - PAD.bottom + 6,
            width: 60,
            display: "flex",
            justifyContent: "center",
            fontSize: 18,
            color: "#525252",
          }}
        >
          {String(t)}
        </div>
      ))}
    </div>
  );
}
