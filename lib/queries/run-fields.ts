import { lengthUnitOfJson, type LengthUnit } from "../analysis/length-unit";
import type { Prisma } from "@/lib/generated/sqlite/client";

// What names and sizes a run wherever the views list runs (a leaderboard row, a curves series):
// the columns they read and the one mapping of them, so the views cannot drift apart.

/** The model columns every view that draws a run reads (its name, colour and size). */
export const MODEL_FIELDS_SELECT = {
  select: { id: true, name: true, family: true, paramsB: true, thinking: true },
} satisfies Prisma.RunSelect["model"];

export interface ModelFields {
  model: string;
  /** the model's store id: its colour and marker in every chart (components/charts/palette.ts) */
  modelId: number;
  family: string | null;
  paramsB: number | null;
  thinking: boolean | null;
}

/** A stored run's model (MODEL_FIELDS_SELECT) as the fields views show. */
export function modelFieldsOf(m: Prisma.ModelGetPayload<typeof MODEL_FIELDS_SELECT>): ModelFields {
  return { model: m.name, modelId: m.id, family: m.family, paramsB: m.paramsB, thinking: m.thinking };
}

export const RUN_FIELDS_SELECT = {
  key: true,
  benchmark: true,
  itemCount: true,
  generationCount: true,
  maxLength: true,
  source: true,
  hasSteps: true,
  model: MODEL_FIELDS_SELECT,
  variant: { select: { name: true } },
} satisfies Prisma.RunSelect;

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

/** A stored run (RUN_FIELDS_SELECT) as the fields every run listing shows. */
export function runFieldsOf(r: Prisma.RunGetPayload<{ select: typeof RUN_FIELDS_SELECT }>): RunFields {
  return {
    key: r.key,
    ...modelFieldsOf(r.model),
    benchmark: r.benchmark,
    variant: r.variant.name,
    items: r.itemCount,
    generations: r.generationCount,
    maxLength: r.maxLength,
    lengthUnit: lengthUnitOfJson(r.source),
    hasSteps: r.hasSteps,
  };
}
