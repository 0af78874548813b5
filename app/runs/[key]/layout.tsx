import { notFound } from "next/navigation";
import { runExists } from "@/lib/queries/runs";
import { routeParam } from "@/lib/url/shared";

// Checked here, outside the page's loading boundary, so an unknown run answers HTTP 404
// rather than a streamed 200 that only shows the not-found page.
export default async function RunLayout({ children, params }: { children: React.ReactNode; params: Promise<{ key: string }> }) {
  if (!(await runExists(routeParam((await params).key)))) notFound();
  return children;
}
