// Small descriptive statistics used by the comparison and self-conditioning views (pure).

export function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

export function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// One Wilson interval for the whole product: the analysis core's (exact 97.5% quantile).
export { wilson } from "../analysis/stats";

/** Ordinary least squares y = intercept + slope·x; null slope when x has no spread. */
export function ols(points: { x: number; y: number }[]): { slope: number | null; intercept: number | null } {
  const n = points.length;
  if (n < 2) return { slope: null, intercept: n === 1 ? points[0].y : null };
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) return { slope: null, intercept: my };
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/** Intercept of the OLS line through the points' means, given a stored slope. */
export function interceptFor(points: { x: number; y: number }[], slope: number): number | null {
  if (!points.length) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  return my - slope * mx;
}
