import type { NextRequest } from "next/server";
import { RunCard } from "@/components/preview/cards";
import { apiRoute } from "@/lib/api/errors";
import { runKeyParam } from "@/lib/api/params";
import { requestReadContext } from "@/lib/auth/request";
import { RunAccess } from "@/lib/auth/run-access";
import { getStore } from "@/lib/db";
import { loadPreviewRun } from "@/lib/preview/load";
import { genericImage, previewCache, previewImage } from "@/lib/preview/respond";
import { runVersion } from "@/lib/preview/text";
import { parsePreviewParams } from "@/lib/url/preview";

export const dynamic = "force-dynamic";

/** A run's preview image: its curve with the CI band and its key numbers; the generic card to anyone who may not read it. */
export const GET = apiRoute(async (req: NextRequest, { params }: { params: Promise<{ key: string }> }) => {
  const key = runKeyParam((await params).key);
  if (!key.ok) return genericImage();
  const { ctx } = await requestReadContext(await getStore(), req);
  const access = await RunAccess.check(ctx, key.key);
  const run = access.ok ? await loadPreviewRun(ctx, access.run) : null;
  if (!run) return genericImage();
  return previewImage(<RunCard run={run} />, previewCache(ctx.mode, parsePreviewParams(req.nextUrl.searchParams).v, runVersion([run])));
});
