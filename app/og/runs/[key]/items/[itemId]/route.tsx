import type { NextRequest } from "next/server";
import { GenerationCard } from "@/components/preview/cards";
import { apiRoute } from "@/lib/api/errors";
import { runKeyParam } from "@/lib/api/params";
import { requestReadContext } from "@/lib/auth/request";
import { RunAccess } from "@/lib/auth/run-access";
import { getStore } from "@/lib/db";
import { loadPreviewGeneration } from "@/lib/preview/load";
import { genericImage, previewCache, previewImage } from "@/lib/preview/respond";
import { runVersion } from "@/lib/preview/text";
import { parseGenerationParams } from "@/lib/url/generation";
import { parsePreviewParams } from "@/lib/url/preview";
import { routeParam } from "@/lib/url/shared";

export const dynamic = "force-dynamic";

/** A generation's preview image: its trace strip with the first divergence marked. */
export const GET = apiRoute(async (req: NextRequest, { params }: { params: Promise<{ key: string; itemId: string }> }) => {
  const p = await params;
  const key = runKeyParam(p.key);
  if (!key.ok) return genericImage();
  const { ctx } = await requestReadContext(await getStore(), req);
  const access = await RunAccess.check(ctx, key.key);
  const { epoch } = parseGenerationParams(req.nextUrl.searchParams);
  const data = access.ok ? await loadPreviewGeneration(ctx, access.run, routeParam(p.itemId), epoch) : null;
  if (!data) return genericImage();
  const cache = previewCache(ctx.mode, parsePreviewParams(req.nextUrl.searchParams).v, runVersion([data.run]));
  return previewImage(<GenerationCard run={data.run} g={data.g} />, cache);
});
