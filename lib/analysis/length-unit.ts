// What an item's length counts: reference steps (native runs, every step-based import) or
// human minutes (METR task lengths). One place decides it from the run's source, and every
// view that prints a length (run page, leaderboard, curves axes and tooltips) asks here.
export type LengthUnit = "steps" | "minutes";
/** a chart or table over runs of both units */
export type LengthUnits = LengthUnit | "mixed";

export function lengthUnitOf(source: unknown): LengthUnit {
  return typeof source === "object" && source !== null && (source as { format?: unknown }).format === "metr-runs" ? "minutes" : "steps";
}

/** lengthUnitOf of a run's stored source JSON text */
export function lengthUnitOfJson(source: string | null | undefined): LengthUnit {
  if (!source || !source.includes("metr-runs")) return "steps"; // most runs: no parse
  try {
    return lengthUnitOf(JSON.parse(source));
  } catch {
    return "steps";
  }
}

export function commonLengthUnit(units: Iterable<LengthUnit>): LengthUnits {
  const set = new Set(units);
  return set.size === 1 ? [...set][0] : set.size === 0 ? "steps" : "mixed";
}

/** "3 steps", "1 step", "0.79 min" */
export function fmtLength(n: number, unit: LengthUnits, digits = 1): string {
  const num = Number.isInteger(n) ? String(n) : n.toFixed(n < 1 && unit === "minutes" ? 2 : digits);
  if (unit === "minutes") return `${num} min`;
  if (unit === "mixed") return num;
  return `${num} ${n === 1 ? "step" : "steps"}`;
}

export function lengthAxisLabel(unit: LengthUnits, log = false): string {
  const what = unit === "minutes" ? "Human time (minutes" : unit === "mixed" ? "Length (steps or minutes" : "Length (steps";
  return `${what}${log ? ", log scale" : ""})`;
}

/** what one item is called beside a length of this unit (METR's items are tasks) */
export const itemNoun = (unit: LengthUnits, n: number) => (unit === "minutes" ? (n === 1 ? "task" : "tasks") : n === 1 ? "item" : "items");
