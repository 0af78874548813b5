import "server-only";
import { visibleRunsSql, type ReadContext } from "@/lib/read-context";
import { join, sql } from "@/lib/store/sql";
import { RUN_FROM } from "./run-fields";
import { resolveRunKeys } from "@/lib/url/run-list";

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

/** The runs `ctx`'s principal may see, for the pickers. */
export async function listRunOptions(ctx: ReadContext): Promise<RunOption[]> {
  const runs = await ctx.store.read(sql`
    SELECT r."key", r."benchmark", r."itemCount", r."hasSteps", r."selfConditioning", m."name" AS "model", v."name" AS "variant"
    FROM ${RUN_FROM} WHERE ${visibleRunsSql(ctx)}`);
  return runs
    .map((r) => ({
      key: String(r.key),
      model: String(r.model),
      benchmark: String(r.benchmark),
      variant: String(r.variant),
      items: Number(r.itemCount),
      hasSteps: Boolean(r.hasSteps),
      selfConditioning: Boolean(r.selfConditioning),
    }))
    .sort(
      (a, b) =>
        a.benchmark.localeCompare(b.benchmark) ||
        a.variant.localeCompare(b.variant) ||
        a.model.localeCompare(b.model) ||
        a.key.localeCompare(b.key),
    );
}

/**
 * The run keys of a `runs` URL parameter (lib/url/run-list.ts) among the runs `ctx`'s principal
 * may see; the rest are `unknown` whether they exist or not.
 */
export async function resolveRunPieces(ctx: ReadContext, pieces: string[]): Promise<{ keys: string[]; unknown: string[] }> {
  if (pieces.length === 0) return { keys: [], unknown: [] };
  // Candidate keys: every piece and every join of neighbouring pieces (keys with commas).
  const candidates = new Set<string>();
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j <= Math.min(pieces.length, i + 4); j++) candidates.add(pieces.slice(i, j).join(","));
  const found = await ctx.store.read<{ key: string }>(
    sql`SELECT r."key" FROM "Run" r WHERE ${visibleRunsSql(ctx)} AND r."key" IN (${join([...candidates])})`,
  );
  return resolveRunKeys(pieces, new Set(found.map((r) => r.key)));
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
