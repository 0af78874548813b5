import "server-only";
import type { RunAccess } from "../auth/run-access";
import { canWrite } from "../auth/policy";
import { listShareLinks, shareLinkJson, type ShareLinkJson } from "../auth/share-links";
import type { ReadContext } from "../read-context";

/** A run's share links for the share panel, or null when the viewer may not manage them. */
export async function getShareLinksFor(ctx: ReadContext, run: RunAccess): Promise<ShareLinkJson[] | null> {
  if (!canWrite(ctx.principal)) return null;
  return (await listShareLinks(ctx.store.prisma, run.key)).map((l) => shareLinkJson(l));
}
