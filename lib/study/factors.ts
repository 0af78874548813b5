import type { FactorValue } from "./pivot";

// Run-level factor values, read from the variant object as loaded (SPEC §5, the generator's
// names) at load time and stored with the study aggregates, so the pivot filters on columns.

export interface RunFactorColumns {
  lookback: number | null;
  inputRange: string | null;
  ops: string | null;
  dictSize: number | null;
  k: number | null;
  turnMode: string | null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** `[1,10]` → "[1, 10]" (the paper's notation); a string is kept as written. */
export function inputRangeLabel(v: unknown): string | null {
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number")) return `[${v[0]}, ${v[1]}]`;
  return text(v);
}

export function runFactorColumns(benchmark: string, variant: Record<string, unknown>): RunFactorColumns {
  const dictionary = variant.dictionary;
  const dictEntries =
    dictionary && typeof dictionary === "object" && !Array.isArray(dictionary) ? Object.keys(dictionary as object).length : null;
  const dictSum = benchmark === "dict-sum";
  const multi = variant.multi_turn;
  return {
    lookback: benchmark === "procedural-arith" ? num(variant.lookback) : null,
    inputRange: benchmark === "procedural-arith" ? inputRangeLabel(variant.input_range) : null,
    ops: benchmark === "procedural-arith" ? text(variant.ops) : null,
    dictSize: dictSum ? (num(variant.dict_size) ?? dictEntries) : null,
    // SPEC §5: run.variant.K, default 1
    k: dictSum ? (num(variant.K) ?? num(variant.k) ?? 1) : null,
    turnMode: dictSum && typeof multi === "boolean" ? (multi ? "multi-turn" : "single-turn") : null,
  };
}

/** Model-level factors as x values. */
export function thinkingLabel(thinking: boolean | null): string | null {
  return thinking === true ? "thinking" : thinking === false ? "no thinking" : null;
}

export function factorRecord(
  cols: RunFactorColumns,
  model: { paramsB: number | null; thinking: boolean | null },
): Record<string, FactorValue | null> {
  return {
    lookback: cols.lookback,
    input_range: cols.inputRange,
    ops: cols.ops,
    dict_size: cols.dictSize,
    k: cols.k,
    turn_mode: cols.turnMode,
    size: model.paramsB,
    thinking: thinkingLabel(model.thinking),
  };
}
