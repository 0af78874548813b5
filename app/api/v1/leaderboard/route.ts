import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { authorizeRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getLeaderboard } from "@/lib/queries/leaderboard";
import { parseLeaderboardParams } from "@/lib/url/leaderboard";

export const dynamic = "force-dynamic";

/** The leaderboard's rows as JSON: the same URL parameters and query as the home page. */
export const GET = apiRoute(async (req: NextRequest) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  const params = parseLeaderboardParams(Object.fromEntries(req.nextUrl.searchParams));
  return NextResponse.json(await getLeaderboard(gate.ctx, params));
});
