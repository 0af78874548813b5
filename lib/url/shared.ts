import { z } from "zod";

// Building blocks for the per-route URL schemas. Each route has one schema (lib/url/*.ts)
// that the server uses to parse searchParams and the client uses to build hrefs, so a
// link always means the same screen. Parsing never throws: a bad value falls back to the
// default, because a hand-edited or stale link should still open a page.

/** What Next passes as searchParams, what route handlers get as URLSearchParams. */
export type RawSearchParams = Record<string, string | string[] | undefined> | URLSearchParams;

/** One value per key: the first when a key repeats. */
export function flattenSearchParams(raw: RawSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw instanceof URLSearchParams) {
    for (const [k, v] of raw) if (!(k in out)) out[k] = v;
    return out;
  }
  for (const [k, v] of Object.entries(raw)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === "string") out[k] = first;
  }
  return out;
}

/** Applies `schema` field by field so one bad field does not reset the others. */
export function parseFields<S extends z.ZodObject>(schema: S, raw: RawSearchParams): z.infer<S> {
  const flat = flattenSearchParams(raw);
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const r = (field as z.ZodType).safeParse(flat[name] === "" ? undefined : flat[name]);
    out[name] = r.success ? r.data : (field as z.ZodType).safeParse(undefined).data;
  }
  return out as z.infer<S>;
}

/** Optional trimmed string, empty → undefined. */
export const optString = (max = 200) =>
  z
    .string()
    // Cut, then trim: trimming first could leave a trailing space at the cut, which the
    // canonical link would then lose (tests/unit/fuzz-url.test.ts).
    .transform((s) => s.trim().slice(0, max).trim())
    .transform((s) => (s === "" ? undefined : s))
    .optional();

/** Integer with bounds and a default. */
// "-0" parses to -0, whose canonical link says "0": normalise so state and link agree.
const noNegZero = (n: number) => (Object.is(n, -0) ? 0 : n);

export const intParam = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).transform(noNegZero).catch(def).default(def);

/** Optional number (e.g. a size bound). */
export const optNumber = (min = -Infinity, max = Infinity) =>
  z.coerce.number().min(min).max(max).transform(noNegZero).optional().catch(undefined);

/** Optional integer. */
export const optInt = (min = 0, max = 1_000_000) =>
  z.coerce.number().int().min(min).max(max).transform(noNegZero).optional().catch(undefined);

/** "1"/"true"/"yes" → true; anything else → false. */
export const flagParam = z
  .string()
  .transform((s) => s === "1" || s === "true" || s === "yes")
  .optional()
  .transform((v) => v ?? false);

export const dirParam = z.enum(["asc", "desc"]).optional().catch(undefined);
export type SortDir = "asc" | "desc";

/** Comma-separated positive integers, sorted and de-duplicated; invalid entries dropped; none → undefined. */
export const intListParam = (maxItems = 8) =>
  z
    .string()
    .transform((s) =>
      [
        ...new Set(
          s
            .split(",")
            .map((x) => Number(x.trim()))
            .filter((n) => Number.isInteger(n) && n > 0 && n < 1e7),
        ),
      ]
        .sort((a, b) => a - b)
        .slice(0, maxItems),
    )
    // Nothing valid is the same as absent: `?at=x` and the canonical link (which drops an
    // empty list) must mean the same screen.
    .transform((list) => (list.length ? list : undefined))
    .optional()
    .catch(undefined);

/**
 * Serialises params into a query string, leaving out values equal to their default (so
 * the canonical link of a default view is the bare path) and empty values.
 */
export function toQuery(values: Record<string, unknown>, defaults: Record<string, unknown> = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === "" || v === false) continue;
    const text = Array.isArray(v) ? v.join(",") : v === true ? "1" : String(v);
    if (text === "") continue;
    const d = defaults[k];
    const dText = Array.isArray(d) ? d.join(",") : d === true ? "1" : d === undefined ? undefined : String(d);
    if (dText === text) continue;
    sp.set(k, text);
  }
  const q = sp.toString();
  return q ? "?" + q : "";
}

/** Path of a run page; run keys are URL-encoded (SPEC §9). */
export function runPath(key: string): string {
  return "/runs/" + encodeURIComponent(key);
}

/** Path of a run's metrics in the JSON API (SPEC §6). */
export function runMetricsApiPath(key: string): string {
  return "/api/v1" + runPath(key) + "/metrics";
}

/** Path of a generation page. */
export function generationPath(runKey: string, itemId: string): string {
  return runPath(runKey) + "/items/" + encodeURIComponent(itemId);
}

/**
 * A dynamic route segment as the user wrote it. Next hands segments over still
 * percent-encoded in some versions and decoded in others; decoding a decoded key that
 * contains "%" would corrupt it, so decode only when the text is valid percent-encoding.
 */
export function routeParam(segment: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(segment)) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
