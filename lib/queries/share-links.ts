import "server-only";
import { canWrite } from "../auth/policy";
import { currentPrincipal } from "../auth/server";
import { listShareLinks, shareLinkJson, type ShareLinkJson } from "../auth/share-links";
import { db } from "../db";

/** A run's share links for the share panel, or null when the viewer may not manage them. */
export async function getShareLinksFor(runKey: string): Promise<ShareLinkJson[] | null> {
  if (!canWrite(await currentPrincipal())) return null;
  return (await listShareLinks(await db(), runKey)).map((l) => shareLinkJson(l));
}
