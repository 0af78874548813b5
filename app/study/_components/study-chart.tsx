import Link from "next/link";
import { ChartFrame, EmptyChart } from "@/components/charts/chart-frame";
import { seriesColor } from "@/components/charts/theme";
import { FACTOR_LABELS, isFractionMetric, metricLabel } from "@/lib/study/definitions";
import type { FactorValue, StudySeriesResult } from "@/lib/study/pivot";
import type { StudyParams } from "@/lib/url/study";
import { cellHref } from "./cell-href";

// The study chart, drawn as SVG on the server: one line per series, 95% intervals as bars,
// every point a link to the items behind it. Text (names, run keys) only as SVG text nodes.

const W = 720;
const H = 320;
const M = { top: 12, right: 16, bottom: 44, left: 52 };

export function StudyChart({ p, data, legend }: { p: StudyParams; data: StudySeriesResult[]; legend: string }) {
  const points = data.flatMap((s) => s.points);
  if (points.length === 0) return <EmptyChart message="No runs match: nothing to draw." />;
  const xs = [...new Map(points.map((pt) => [String(pt.x), pt.x])).values()];
  const numeric = xs.every((x) => typeof x === "number");
  const nums = numeric ? (xs as number[]) : [];
  const [x0, x1] = numeric ? [Math.min(...nums), Math.max(...nums)] : [0, xs.length - 1];
  const order = numeric ? [] : xs.map(String);
  const fx = (x: FactorValue) => {
    const v = numeric ? (x as number) : order.indexOf(String(x));
    const span = x1 - x0 || 1;
    const pad = numeric ? 0 : 0.5;
    return M.left + ((v - x0 + pad) / (span + 2 * pad)) * (W - M.left - M.right);
  };
  const fraction = isFractionMetric(p.metric);
  const yMax = fraction ? 1 : Math.max(1, ...points.map((pt) => Math.max(pt.value ?? 0, pt.ci?.[1] ?? 0))) * 1.05;
  const fy = (v: number) => H - M.bottom - (v / yMax) * (H - M.top - M.bottom);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * yMax);
  // ticks at least 24 px apart, so close values (4 and 5 steps) do not print over each other
  const xTicks: FactorValue[] = [];
  for (const x of xs) if (!xTicks.length || fx(x) - fx(xTicks[xTicks.length - 1]) >= 24) xTicks.push(x);
  const fmt = (v: number) => (fraction ? `${Math.round(v * 100)}%` : v.toFixed(0));
  return (
    <ChartFrame
      title={`${metricLabel(p.metric)} by ${FACTOR_LABELS[p.x]}`}
      description={`${data.length} series. ${legend}`}
      testId="study-chart"
      legend={
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-neutral-700" aria-label="Series">
          {data.map((s, i) => (
            <li key={s.name} className="flex items-center gap-1.5">
              <svg width="18" height="8" aria-hidden="true">
                <line x1="0" y1="4" x2="18" y2="4" stroke={seriesColor(i)} strokeWidth="2" strokeDasharray={i % 2 ? "4 2" : undefined} />
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
      }
    >
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={`${metricLabel(p.metric)} chart`}>
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={fy(t)} y2={fy(t)} stroke="#e5e5e5" />
            <text x={M.left - 6} y={fy(t) + 4} textAnchor="end" fontSize="11" fill="#525252">
              {fmt(t)}
            </text>
          </g>
        ))}
        {xTicks.map((x) => (
          <text key={String(x)} x={fx(x)} y={H - M.bottom + 16} textAnchor="middle" fontSize="11" fill="#525252">
            {String(x)}
          </text>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 6} textAnchor="middle" fontSize="12" fill="#404040">
          {FACTOR_LABELS[p.x]}
        </text>
        {data.map((s, i) => {
          const color = seriesColor(i);
          const drawn = s.points.filter((pt) => pt.value !== null);
          const path = drawn.map((pt, j) => `${j ? "L" : "M"}${fx(pt.x).toFixed(1)},${fy(pt.value!).toFixed(1)}`).join("");
          return (
            <g key={s.name} data-series={s.name}>
              {drawn.length > 1 ? (
                <path d={path} fill="none" stroke={color} strokeWidth="2" strokeDasharray={i % 2 ? "6 3" : undefined} />
              ) : null}
              {drawn.map((pt) => (
                <Link key={String(pt.x)} href={cellHref(p, s.name, pt)} data-testid="study-point">
                  {pt.ci ? (
                    <line
                      x1={fx(pt.x)}
                      x2={fx(pt.x)}
                      y1={fy(pt.ci[0])}
                      y2={fy(pt.ci[1])}
                      stroke={color}
                      strokeOpacity="0.5"
                      strokeWidth="2"
                    />
                  ) : null}
                  <circle cx={fx(pt.x)} cy={fy(pt.value!)} r="4.5" fill={color} stroke="white" strokeWidth="1">
                    <title>{`${s.name}, ${FACTOR_LABELS[p.x]} ${pt.x}: ${fmt(pt.value!)} (n = ${pt.n})`}</title>
                  </circle>
                </Link>
              ))}
            </g>
          );
        })}
      </svg>
    </ChartFrame>
  );
}
