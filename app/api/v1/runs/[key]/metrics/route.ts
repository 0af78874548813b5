import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { runKeyParam } from "@/lib/api/params";
import { jsonError } from "@/lib/api/responses";
import { authorizeRunRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getRunMetrics } from "@/lib/store/read";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (req: NextRequest, ctx: { params: Promise<{ key: string }> }) => {
  const param = runKeyParam((await ctx.params).key);
  if (!param.ok) return param.response;
  // Readable by a share link for this run, too (private mode).
  const gate = await authorizeRunRead(await getStore(), req, param.key);
  if (!gate.ok) return gate.response;
  const metrics = await getRunMetrics(gate.ctx, gate.run);
  return metrics ? NextResponse.json(metrics) : jsonError(404, `no run with key '${param.key}'`);
});
