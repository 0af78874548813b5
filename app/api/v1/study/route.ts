import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { authorizeRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import { getStudy, studyJson } from "@/lib/queries/study";
import { parseStudyParams } from "@/lib/url/study";

export const dynamic = "force-dynamic";

/** The study view as JSON (docs/study.md): the page's URL parameters, the page's query. */
export async function GET(req: NextRequest) {
  try {
    const store = await getStore();
    const gate = await authorizeRead(store.prisma, req);
    if (!gate.ok) return gate.response;
    const result = await getStudy(
      { store, principal: gate.principal, mode: env.STEPWISE_ACCESS },
      parseStudyParams(req.nextUrl.searchParams),
    );
    if (result.problem) return jsonError(400, result.problem, { benchmark: result.benchmark, x: result.x, metric: result.metric });
    return NextResponse.json(studyJson(result));
  } catch (e) {
    return unavailable(e);
  }
}
