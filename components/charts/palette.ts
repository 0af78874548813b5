// One colour and one marker per model, from the model's identity alone: its store id (creation
// order, never reused for another model). Colours are CSS custom properties (the charts block of
// app/globals.css), so the same slot has a light and a dark value; markers are a second channel
// so no series depends on colour alone. Pure: safe from server and client files.

/** Okabe–Ito based hues; light values darkened for contrast on white, dark values lightened (globals.css). */
export const SERIES_COLOR_COUNT = 8;
export const MARKERS = ["circle", "square", "triangle", "diamond", "plus", "triangle-down", "hexagon"] as const;
export type Marker = (typeof MARKERS)[number];

/**
 * Colour × marker pairs walked diagonally: slot k takes colour k mod 8 and marker k mod 7. As 8 and
 * 7 are coprime, the 56 slots are 56 different pairs and neighbouring slots differ in both channels.
 */
export const PAIR_COUNT = SERIES_COLOR_COUNT * MARKERS.length;

export interface SeriesStyle {
  /** CSS colour (a var() of the charts block) */
  color: string;
  marker: Marker;
  /** slot index, for tests and data attributes */
  slot: number;
}

export function seriesColorVar(colorIndex: number): string {
  return `var(--chart-s${((colorIndex % SERIES_COLOR_COUNT) + SERIES_COLOR_COUNT) % SERIES_COLOR_COUNT})`;
}

export function styleOfSlot(slot: number): SeriesStyle {
  const k = ((slot % PAIR_COUNT) + PAIR_COUNT) % PAIR_COUNT;
  return { color: seriesColorVar(k % SERIES_COLOR_COUNT), marker: MARKERS[k % MARKERS.length], slot: k };
}

/**
 * The style of a model: slot = (id − 1) mod 56. Any models whose ids lie within 56 of each other
 * (a store's first 56 models, or any 56 loaded in a row) get pairwise different pairs, whatever
 * else is on screen. `duplicate` > 0 marks a further run of the same model in one chart: same
 * colour (the model), the next markers (so the runs stay apart).
 */
export function modelStyle(modelId: number, duplicate = 0): SeriesStyle {
  const base = styleOfSlot(modelId - 1);
  if (duplicate === 0) return base;
  const marker = MARKERS[(MARKERS.indexOf(base.marker) + duplicate) % MARKERS.length];
  return { ...base, marker };
}

/** Styles of a list of runs in display order: by model, further runs of a model get the next markers. */
export function runStyles(modelIds: number[]): SeriesStyle[] {
  const seen = new Map<number, number>();
  return modelIds.map((id) => {
    const dup = seen.get(id) ?? 0;
    seen.set(id, dup + 1);
    return modelStyle(id, dup);
  });
}
