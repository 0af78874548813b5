import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { authorizeRunRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getRunMetrics } from "@/lib/store/read";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, ctx: { params: Promise<{ key: string }> }) {
  const key = decodeURIComponent((await ctx.params).key);
  try {
    const store = await getStore();
    // Readable by a share link for this run, too (private mode).
    const gate = await authorizeRunRead(store.prisma, req, key);
    if (!gate.ok) return gate.response;
    const metrics = await getRunMetrics(store.prisma, key);
    return metrics ? NextResponse.json(metrics) : jsonError(404, `no run with key '${key}'`);
  } catch (e) {
    return unavailable(e);
  }
}
