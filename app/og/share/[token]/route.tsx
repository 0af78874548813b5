import type { NextRequest } from "next/server";
import { RunCard } from "@/components/preview/cards";
import { apiRoute } from "@/lib/api/errors";
import { shareLinkContext } from "@/lib/auth/share-links";
import { RunAccess } from "@/lib/auth/run-access";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import { loadPreviewRun } from "@/lib/preview/load";
import { genericImage, previewImage } from "@/lib/preview/respond";

export const dynamic = "force-dynamic";

/**
 * A share link's preview image: the secret in the URL opens its own run and nothing else, as the
 * link itself does; an expired, revoked or unknown secret gets the generic card. Never cached
 * for good: the link can be revoked.
 */
export const GET = apiRoute(async (_req: NextRequest, { params }: { params: Promise<{ token: string }> }) => {
  const link = await shareLinkContext(await getStore(), (await params).token, env.STEPWISE_ACCESS);
  if (!link) return genericImage();
  const access = await RunAccess.check(link.ctx, link.runKey);
  const run = access.ok ? await loadPreviewRun(link.ctx, access.run) : null;
  if (!run) return genericImage();
  return previewImage(<RunCard run={run} />, "private");
});
