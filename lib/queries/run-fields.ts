import { lengthUnitOfJson, type LengthUnit } from "../analysis/length-unit";
import { raw } from "@/lib/store/sql";
import { numberOrNull, textOrNull } from "./sql-values";

// What names and sizes a run wherever the views list runs (a leaderboard row, a curves series,
// a self-conditioning sweep): the columns they read and the one mapping of them, so the views
// cannot drift apart. Read as SQL through the store's driver (lib/store/reader.ts) over
// RUN_FROM: the run as `r`, its model as `m`, its variant as `v`.

/** A run with its model and variant. */
export const RUN_FROM = raw(`"Run" r JOIN "Model" m ON m."id" = r."modelId" JOIN "Variant" v ON v."id" = r."variantId"`);

const MODEL_COLUMNS = `m."id" AS "modelId", m."name" AS "modelName", m."family" AS "modelFamily", m."paramsB" AS "modelParamsB", m."thinking" AS "modelThinking"`;

/** The model columns every view that draws a run reads (its name, colour and size). */
export const MODEL_FIELDS_SQL = raw(MODEL_COLUMNS);

export interface ModelFields {
  model: string;
  /** the model's store id: its colour and marker in every chart (components/charts/palette.ts) */
  modelId: number;
  family: string | null;
  paramsB: number | null;
  thinking: boolean | null;
}

/** A row read with MODEL_FIELDS_SQL as the fields views show. */
export function modelFieldsOf(r: Record<string, unknown>): ModelFields {
  return {
    model: String(r.modelName),
    modelId: Number(r.modelId),
    family: textOrNull(r.modelFamily),
    paramsB: numberOrNull(r.modelParamsB),
    thinking: r.modelThinking === null || r.modelThinking === undefined ? null : Boolean(r.modelThinking),
  };
}

/** The columns every run listing reads (with MODEL_FIELDS_SQL's). */
export const RUN_FIELDS_SQL = raw(
  `r."key", r."benchmark", r."itemCount", r."generationCount", r."maxLength", r."source", r."hasSteps", v."name" AS "variantName", ${MODEL_COLUMNS}`,
);

export interface RunFields extends ModelFields {
  key: string;
  benchmark: string;
  variant: string;
  items: number;
  generations: number;
  maxLength: number;
  /** what lengths count (METR runs: human minutes) */
  lengthUnit: LengthUnit;
  hasSteps: boolean;
}

/** A row read with RUN_FIELDS_SQL as the fields every run listing shows. */
export function runFieldsOf(r: Record<string, unknown>): RunFields {
  return {
    key: String(r.key),
    ...modelFieldsOf(r),
    benchmark: String(r.benchmark),
    variant: String(r.variantName),
    items: Number(r.itemCount),
    generations: Number(r.generationCount),
    maxLength: Number(r.maxLength),
    lengthUnit: lengthUnitOfJson(String(r.source)),
    hasSteps: Boolean(r.hasSteps),
  };
}
