import { z } from "zod";
import { FAILURE_MODES, type FailureMode } from "@/lib/analysis/types";
import {
  dirParam,
  flagParam,
  intParam,
  optInt,
  optString,
  parseFields,
  runPath,
  toQuery,
  type RawSearchParams,
  type SortDir,
} from "./shared";

// URL state of a run page (`/runs/{key}`): the tab and the item table's filters, sort and
// page. The item export (`/export/runs/{key}/items`) reads the same params.

export const RUN_TABS = ["curves", "failures", "items"] as const;
export type RunTab = (typeof RUN_TABS)[number];

export const ITEM_SORTS = ["order", "item", "length", "divergence", "correct"] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

/** First-divergence filter: "7" (exactly step 7), "5-10" (a range), "none" (no divergence). */
export type DivergenceFilter = { kind: "exact"; step: number } | { kind: "range"; from: number; to: number } | { kind: "none" };

export function parseDivergence(text: string | undefined): DivergenceFilter | undefined {
  if (!text) return undefined;
  const t = text.trim().toLowerCase();
  if (t === "none") return { kind: "none" };
  const exact = /^(\d{1,6})$/.exec(t);
  if (exact) return { kind: "exact", step: Number(exact[1]) };
  const range = /^(\d{0,6})\s*[-–]\s*(\d{0,6})$/.exec(t);
  if (range && (range[1] || range[2])) {
    const from = range[1] ? Number(range[1]) : 1;
    const to = range[2] ? Number(range[2]) : 1_000_000;
    return { kind: "range", from: Math.min(from, to), to: Math.max(from, to) };
  }
  return undefined;
}

/** A generation's place in item order: "<item row id>.<epoch>". */
const cursorParam = z
  .string()
  .regex(/^\d{1,12}\.\d{1,6}$/)
  .optional()
  .catch(undefined);

export interface ItemCursor {
  itemId: number;
  epoch: number;
}

export function parseCursor(text: string | undefined): ItemCursor | undefined {
  if (!text) return undefined;
  const [itemId, epoch] = text.split(".").map(Number);
  return { itemId, epoch };
}

export const cursorText = (c: ItemCursor) => `${c.itemId}.${c.epoch}`;

const schema = z.object({
  tab: z.enum(RUN_TABS).optional().catch(undefined),
  /** only generations whose first answer is wrong */
  failed: flagParam,
  mode: z
    .string()
    .refine((s): s is FailureMode => (FAILURE_MODES as readonly string[]).includes(s))
    .optional()
    .catch(undefined),
  /** status of the first divergent step */
  kind: z.enum(["slip", "propagated", "missing"]).optional().catch(undefined),
  minLen: optInt(0),
  maxLen: optInt(0),
  div: optString(30),
  q: optString(200),
  sort: z.enum(ITEM_SORTS).optional().catch(undefined),
  dir: dirParam,
  page: intParam(1, 1, 1_000_000),
  pageSize: intParam(50, 10, 500),
  /**
   * Keyset cursors of the Next / Previous links in item order: the page starts after (or
   * ends before) this generation, so a deep page is an index seek instead of an OFFSET.
   * `page` still labels it. Other sorts page by OFFSET.
   */
  after: cursorParam,
  before: cursorParam,
});

export type RunParams = z.infer<typeof schema>;
export const DEFAULT_RUN_TAB: RunTab = "curves";

export function parseRunParams(raw: RawSearchParams): RunParams {
  return parseFields(schema, raw);
}

/**
 * The tab shown: the URL's, else the item table when the URL filters items (a link such as
 * `?failed=1` asks for items, whichever tab it forgot to name), else the curves.
 */
export function effectiveRunTab(p: RunParams): RunTab {
  return p.tab ?? (hasItemFilters(p) ? "items" : DEFAULT_RUN_TAB);
}

export function effectiveItemSort(p: RunParams): { sort: ItemSort; dir: SortDir } {
  const sort = p.sort ?? "order";
  return { sort, dir: p.dir ?? "asc" };
}

const DEFAULTS = { page: 1, pageSize: 50, tab: DEFAULT_RUN_TAB };

export function runQuery(p: Partial<RunParams>): string {
  // With item filters the default tab is the items (effectiveRunTab), so an explicit tab stays in the link.
  const defaults = hasItemFilters(p) ? { page: 1, pageSize: 50 } : DEFAULTS;
  return toQuery(
    {
      tab: p.tab,
      failed: p.failed,
      mode: p.mode,
      kind: p.kind,
      minLen: p.minLen,
      maxLen: p.maxLen,
      div: p.div,
      q: p.q,
      sort: p.sort,
      dir: p.dir,
      page: p.page,
      pageSize: p.pageSize,
      after: p.after,
      before: p.before,
    },
    defaults,
  );
}

export function runHref(key: string, p: Partial<RunParams> = {}): string {
  return runPath(key) + runQuery(p);
}

/** The item table with some filters changed: back to page 1 (cursors belong to one page). */
export function runItemsHref(key: string, p: RunParams, change: Partial<RunParams>): string {
  return runHref(key, { ...p, tab: "items", after: undefined, before: undefined, ...change, page: change.page ?? 1 });
}

export function runItemsSortHref(key: string, p: RunParams, column: ItemSort): string {
  const cur = effectiveItemSort(p);
  const dir: SortDir = cur.sort === column ? (cur.dir === "asc" ? "desc" : "asc") : "asc";
  return runItemsHref(key, p, { sort: column, dir });
}

export function runItemsExportHref(key: string, p: RunParams, format: "csv" | "json"): string {
  const q = runQuery({ ...p, tab: undefined, page: undefined, pageSize: undefined, after: undefined, before: undefined });
  return "/export" + runPath(key) + "/items" + (q ? q + "&" : "?") + "format=" + format;
}

/** True when the item table shows a subset (so an empty result says "no match", not "no items"). */
export function hasItemFilters(p: Partial<RunParams>): boolean {
  return Boolean(p.failed || p.mode || p.kind || p.minLen !== undefined || p.maxLen !== undefined || p.div || p.q);
}

/**
 * Href template for chart clicks: the item table filtered by `{placeholder}` values that
 * the chart fills in (encoded) for the clicked point.
 */
export function runItemsTemplate(key: string, placeholders: Partial<Record<"minLen" | "maxLen" | "mode" | "div", string>>): string {
  const base = runHref(key, { tab: "items" });
  const extra = Object.entries(placeholders)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return base + (extra ? "&" + extra : "");
}
