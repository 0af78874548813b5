import "server-only";
import type { RunAccess } from "../auth/run-access";
import { getGeneration } from "../queries/generation";
import { getRunSummary } from "../queries/runs";
import type { ReadContext } from "../read-context";
import type { PreviewGeneration, PreviewRun } from "./text";

// What the previews read, behind the same RunAccess as the pages: a run's stored summary, or one
// generation's stored step statuses. Nothing is recomputed.

export async function loadPreviewRun(ctx: ReadContext, access: RunAccess): Promise<PreviewRun | null> {
  return getRunSummary(ctx, access);
}

export interface PreviewGenerationData extends PreviewGeneration {
  statuses: string[];
}

export async function loadPreviewGeneration(
  ctx: ReadContext,
  access: RunAccess,
  itemId: string,
  epoch: number,
): Promise<{ run: PreviewRun; g: PreviewGenerationData } | null> {
  const [run, d] = await Promise.all([getRunSummary(ctx, access), getGeneration(ctx, access, itemId, epoch)]);
  if (!run || !d) return null;
  return {
    run,
    g: {
      itemId: d.item.id,
      length: d.item.length,
      firstDivergence: d.firstDivergence,
      divergenceKind: d.divergenceKind,
      firstCorrect: d.firstCorrect,
      steps: d.steps.length,
      statuses: d.steps.map((s) => s.status),
    },
  };
}
