import "server-only";
import type { Metadata } from "next";
import { checkRunAccess, readContext } from "../auth/server";
import { resolveRunPieces } from "../queries/run-options";
import { comparePreviewPath, generationPreviewPath, runPreviewPath } from "../url/preview";
import { loadPreviewGeneration, loadPreviewRun } from "./load";
import { previewMetadata, SITE_METADATA } from "./metadata";
import { comparePreviewText, generationPreviewText, runPreviewText, runVersion, type PreviewRun } from "./text";

// generateMetadata of the run, generation and compare pages. Each checks access exactly as its
// page does (the same cached RunAccess.check on the request's read context) and falls back to the site's card,
// so a refused visitor's HTML carries nothing of the run, not even in its <head>.

export async function runPageMetadata(key: string): Promise<Metadata> {
  const { ctx, r } = await checkRunAccess(key);
  const run = r.ok ? await loadPreviewRun(ctx, r.run) : null;
  if (!run) return SITE_METADATA;
  return { title: key, ...previewMetadata(runPreviewText(run), runPreviewPath(key, runVersion([run]))) };
}

export async function generationPageMetadata(key: string, itemId: string, epoch: number): Promise<Metadata> {
  const { ctx, r } = await checkRunAccess(key);
  const data = r.ok ? await loadPreviewGeneration(ctx, r.run, itemId, epoch) : null;
  if (!data) return SITE_METADATA;
  return {
    title: `${itemId} · ${key}`,
    ...previewMetadata(generationPreviewText(data.run, data.g), generationPreviewPath(key, itemId, epoch, runVersion([data.run]))),
  };
}

export async function comparePageMetadata(pieces: string[]): Promise<Metadata> {
  const ctx = await readContext();
  const { keys } = await resolveRunPieces(ctx, pieces);
  const runs: PreviewRun[] = [];
  for (const key of keys.slice(0, 4)) {
    const { r } = await checkRunAccess(key);
    const run = r.ok ? await loadPreviewRun(ctx, r.run) : null;
    if (!run) return { title: "Compare", ...SITE_METADATA };
    runs.push(run);
  }
  if (runs.length < 2) return { title: "Compare", ...SITE_METADATA };
  return { title: "Compare", ...previewMetadata(comparePreviewText(runs), comparePreviewPath(keys, runVersion(runs))) };
}
