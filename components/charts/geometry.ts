// Scales, ticks and SVG path builders of the server-rendered charts. Pure functions: no React,
// no DOM, so every chart draws the same way on the server and in unit tests.
import type { Marker } from "./palette";

export interface Scale {
  (v: number): number;
  domain: [number, number];
  range: [number, number];
  log: boolean;
}

/** Linear or log10 map from `domain` to `range` (pixels); values outside are not clamped. */
export function scale(domain: [number, number], range: [number, number], log = false): Scale {
  const t = log ? (v: number) => Math.log10(Math.max(v, Number.MIN_VALUE)) : (v: number) => v;
  const d0 = t(domain[0]);
  const d1 = t(domain[1]);
  const span = d1 - d0 || 1;
  const f = ((v: number) => range[0] + ((t(v) - d0) / span) * (range[1] - range[0])) as Scale;
  f.domain = domain;
  f.range = range;
  f.log = log;
  return f;
}

/** Powers of two (and the ends) inside [lo, hi]: readable ticks for a log-scaled length axis. */
export function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  if (!(lo > 0) || !(hi >= lo)) return out;
  for (let t = 2 ** Math.floor(Math.log2(lo)); t <= hi * 1.0001; t *= 2) if (t >= lo * 0.9999) out.push(t);
  if (out.length < 2) return [lo, hi];
  return out;
}

/** About `count` round ticks covering [lo, hi] (1, 2, 5 × 10^k steps), for linear axes. */
export function linearTicks(lo: number, hi: number, count = 8): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t * 1e9) / 1e9);
  if (out[0] !== lo && lo > 0 && (out[0] ?? Infinity) - lo > step / 3) out.unshift(lo);
  return out;
}

/** Keeps every k-th tick so that at most `max` remain (the last one always kept). */
export function thinTicks(ticks: number[], max: number): number[] {
  if (ticks.length <= max) return ticks;
  const every = Math.ceil(ticks.length / max);
  return ticks.filter((_, i) => i % every === 0 || i === ticks.length - 1).filter((t, i, a) => i === a.length - 1 || a.indexOf(t) === i);
}

/** A coordinate to one decimal: a tenth of a viewBox unit is below a pixel at every width drawn. */
export const r1 = (v: number) => Math.round(v * 10) / 10;

/** Polyline through the points; a gap (null) starts a new segment. */
export function linePath(points: ([number, number] | null)[]): string {
  let d = "";
  let pen = false;
  for (const p of points) {
    if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${r1(p[0])},${r1(p[1])}`;
    pen = true;
  }
  return d;
}

/** Closed band between an upper and a lower polyline over the same x values. */
export function bandPath(xs: number[], upper: number[], lower: number[]): string {
  if (xs.length === 0) return "";
  const top = xs.map((x, i) => `${i === 0 ? "M" : "L"}${r1(x)},${r1(upper[i])}`).join("");
  const bottom = xs
    .map((x, i) => [x, lower[i]] as const)
    .reverse()
    .map(([x, y]) => `L${r1(x)},${r1(y)}`)
    .join("");
  return `${top}${bottom}Z`;
}

/** A marker of radius ~r centred at (cx, cy). */
export function markerPath(marker: Marker, cx: number, cy: number, r: number): string {
  const P = (pts: [number, number][]) => "M" + pts.map(([x, y]) => `${r1(cx + x * r)},${r1(cy + y * r)}`).join("L") + "Z";
  switch (marker) {
    case "square":
      return P([
        [-0.9, -0.9],
        [0.9, -0.9],
        [0.9, 0.9],
        [-0.9, 0.9],
      ]);
    case "triangle":
      return P([
        [0, -1.2],
        [1.1, 0.8],
        [-1.1, 0.8],
      ]);
    case "triangle-down":
      return P([
        [0, 1.2],
        [1.1, -0.8],
        [-1.1, -0.8],
      ]);
    case "diamond":
      return P([
        [0, -1.3],
        [1, 0],
        [0, 1.3],
        [-1, 0],
      ]);
    case "plus": {
      const a = 0.38;
      return P([
        [-a, -1.1],
        [a, -1.1],
        [a, -a],
        [1.1, -a],
        [1.1, a],
        [a, a],
        [a, 1.1],
        [-a, 1.1],
        [-a, a],
        [-1.1, a],
        [-1.1, -a],
        [-a, -a],
      ]);
    }
    case "hexagon":
      return P(Array.from({ length: 6 }, (_, i) => [Math.cos((i * Math.PI) / 3), Math.sin((i * Math.PI) / 3)] as [number, number]));
    default:
      return `M${r1(cx - r)},${r1(cy)}a${r1(r)},${r1(r)} 0 1,0 ${r1(2 * r)},0a${r1(r)},${r1(r)} 0 1,0 ${r1(-2 * r)},0Z`;
  }
}

/** Fills `{length}`, `{step}` … placeholders of an href template (values URL-encoded). */
export function fillHref(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? encodeURIComponent(String(values[k])) : m));
}
