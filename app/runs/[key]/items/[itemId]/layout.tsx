import { notFound } from "next/navigation";
import { itemExists } from "@/lib/queries/runs";
import { routeParam } from "@/lib/url/shared";

// As in the run layout: an unknown item answers HTTP 404 before the page streams.
export default async function ItemLayout({ children, params }: { children: React.ReactNode; params: Promise<{ key: string; itemId: string }> }) {
  const { key, itemId } = await params;
  if (!(await itemExists(routeParam(key), routeParam(itemId)))) notFound();
  return children;
}
