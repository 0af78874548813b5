import "server-only";
import { requireReader } from "../auth/server";
import { db } from "@/lib/db";

// The list of runs the curves and compare pickers offer (small: one row per run).

export interface RunOption {
  key: string;
  model: string;
  benchmark: string;
  variant: string;
  items: number;
  hasSteps: boolean;
  selfConditioning: boolean;
}

export async function listRunOptions(): Promise<RunOption[]> {
  await requireReader();
  const prisma = await db();
  const runs = await prisma.run.findMany({
    select: {
      key: true,
      benchmark: true,
      itemCount: true,
      hasSteps: true,
      selfConditioning: true,
      model: { select: { name: true } },
      variant: { select: { name: true } },
    },
  });
  return runs
    .map((r) => ({
      key: r.key,
      model: r.model.name,
      benchmark: r.benchmark,
      variant: r.variant.name,
      items: r.itemCount,
      hasSteps: r.hasSteps,
      selfConditioning: r.selfConditioning,
    }))
    .sort(
      (a, b) =>
        a.benchmark.localeCompare(b.benchmark) ||
        a.variant.localeCompare(b.variant) ||
        a.model.localeCompare(b.model) ||
        a.key.localeCompare(b.key),
    );
}

/** Display labels for selected runs: the model name, plus the variant when that is ambiguous. */
export function runLabels(runs: { key: string; model: string; variant: string }[]): Map<string, string> {
  const models = runs.map((r) => r.model);
  const variants = new Set(runs.map((r) => r.variant));
  const out = new Map<string, string>();
  for (const r of runs) {
    const dupModel = models.filter((m) => m === r.model).length > 1;
    let label = variants.size > 1 || dupModel ? `${r.model} · ${r.variant}` : r.model;
    if (dupModel && runs.filter((x) => x.model === r.model && x.variant === r.variant).length > 1) label += ` (${r.key})`;
    out.set(r.key, label);
  }
  return out;
}

/** Groups of runs on the same benchmark variant (two or more), for "pick these" shortcuts. */
export function variantGroups(options: RunOption[]): { benchmark: string; variant: string; keys: string[] }[] {
  const groups = new Map<string, { benchmark: string; variant: string; keys: string[] }>();
  for (const o of options) {
    if (o.selfConditioning) continue;
    const id = `${o.benchmark}\u0000${o.variant}`;
    const g = groups.get(id) ?? { benchmark: o.benchmark, variant: o.variant, keys: [] };
    g.keys.push(o.key);
    groups.set(id, g);
  }
  return [...groups.values()].filter((g) => g.keys.length >= 2);
}
