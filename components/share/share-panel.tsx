import type { RunAccess } from "@/lib/auth/run-access";
import { getShareLinksFor } from "@/lib/queries/share-links";
import type { ReadContext } from "@/lib/read-context";
import { ShareLinkForm } from "./share-link-form";

/** Share links of one run, for editors only (renders nothing for anyone else). A server
 *  component: mount it on the run page with the page's context and access proof. */
export async function SharePanel({ ctx, run }: { ctx: ReadContext; run: RunAccess }) {
  const links = await getShareLinksFor(ctx, run);
  return links ? <ShareLinkForm runKey={run.key} initialLinks={links} /> : null;
}
