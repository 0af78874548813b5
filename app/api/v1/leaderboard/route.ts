import { NextResponse, type NextRequest } from "next/server";
import { unavailable } from "@/lib/api/responses";
import { getLeaderboard } from "@/lib/queries/leaderboard";
import { parseLeaderboardParams } from "@/lib/url/leaderboard";

export const dynamic = "force-dynamic";

/** The leaderboard's rows as JSON: the same URL parameters and query as the home page. */
export async function GET(req: NextRequest) {
  try {
    const params = parseLeaderboardParams(Object.fromEntries(req.nextUrl.searchParams));
    return NextResponse.json(await getLeaderboard(params));
  } catch (e) {
    return unavailable(e);
  }
}
