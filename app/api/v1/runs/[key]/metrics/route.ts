import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { authorizeRunRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getRunMetrics } from "@/lib/store/read";
import { routeParam } from "@/lib/url/shared";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, ctx: { params: Promise<{ key: string }> }) {
  const key = routeParam((await ctx.params).key);
  try {
    const store = await getStore();
    // Readable by a share link for this run, too (private mode).
    const gate = await authorizeRunRead(store, req, key);
    if (!gate.ok) return gate.response;
    const metrics = await getRunMetrics(gate.ctx, gate.run);
    return metrics ? NextResponse.json(metrics) : jsonError(404, `no run with key '${key}'`);
  } catch (e) {
    return unavailable(e);
  }
}
