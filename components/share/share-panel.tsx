import { getShareLinksFor } from "@/lib/queries/share-links";
import { ShareLinkForm } from "./share-link-form";

/** Share links of one run, for editors only (renders nothing for anyone else). Mount it on
 *  the run page: `<SharePanel runKey={key} />`. */
export async function SharePanel({ runKey }: { runKey: string }) {
  const links = await getShareLinksFor(runKey);
  return links ? <ShareLinkForm runKey={runKey} initialLinks={links} /> : null;
}
