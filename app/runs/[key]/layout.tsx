import { requireRunAccess } from "@/lib/auth/server";
import { routeParam } from "@/lib/url/shared";

// Checked here, outside the page's loading boundary, so an unknown run answers HTTP 404
// rather than a streamed 200 that only shows the not-found page. Not instead of the page's own
// check: Next renders a layout and its page in parallel, so each page checks again (cached).
export default async function RunLayout({ children, params }: { children: React.ReactNode; params: Promise<{ key: string }> }) {
  await requireRunAccess(routeParam((await params).key));
  return children;
}
