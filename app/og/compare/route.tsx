import type { NextRequest } from "next/server";
import { CompareCard } from "@/components/preview/cards";
import { apiRoute } from "@/lib/api/errors";
import { requestReadContext } from "@/lib/auth/request";
import { RunAccess } from "@/lib/auth/run-access";
import { getStore } from "@/lib/db";
import { loadPreviewRun } from "@/lib/preview/load";
import { genericImage, previewCache, previewImage } from "@/lib/preview/respond";
import { runVersion, type PreviewRun } from "@/lib/preview/text";
import { resolveRunPieces } from "@/lib/queries/run-options";
import { parseCompareParams } from "@/lib/url/compare";
import { parsePreviewParams } from "@/lib/url/preview";

export const dynamic = "force-dynamic";

const MAX_CURVES = 4;

/** Compare's preview image: the runs' curves together; the generic card unless every run may be read. */
export const GET = apiRoute(async (req: NextRequest) => {
  const { ctx } = await requestReadContext(await getStore(), req);
  const { keys, unknown } = await resolveRunPieces(ctx, parseCompareParams(req.nextUrl.searchParams).runs);
  if (keys.length < 2 || unknown.length) return genericImage();
  const runs: PreviewRun[] = [];
  for (const key of keys.slice(0, MAX_CURVES)) {
    const access = await RunAccess.check(ctx, key);
    const run = access.ok ? await loadPreviewRun(ctx, access.run) : null;
    if (!run) return genericImage();
    runs.push(run);
  }
  return previewImage(
    <CompareCard runs={runs} />,
    previewCache(ctx.mode, parsePreviewParams(req.nextUrl.searchParams).v, runVersion(runs)),
  );
});
