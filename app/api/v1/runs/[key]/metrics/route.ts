import { NextResponse } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { db } from "@/lib/db";
import { getRunMetrics } from "@/lib/store/read";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ key: string }> }) {
  const { key } = await ctx.params;
  try {
    const metrics = await getRunMetrics(await db(), decodeURIComponent(key));
    return metrics ? NextResponse.json(metrics) : jsonError(404, `no run with key '${decodeURIComponent(key)}'`);
  } catch (e) {
    return unavailable(e);
  }
}
