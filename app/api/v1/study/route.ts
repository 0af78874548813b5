import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { authorizeRead } from "@/lib/auth/request";
import { getStore } from "@/lib/db";
import { getStudy, studyJson } from "@/lib/queries/study";
import { parseStudyParams } from "@/lib/url/study";

export const dynamic = "force-dynamic";

/** The study view as JSON (docs/study.md): the page's URL parameters, the page's query. */
export const GET = apiRoute(async (req: NextRequest) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  const result = await getStudy(gate.ctx, parseStudyParams(req.nextUrl.searchParams));
  if (result.problem) return jsonError(400, result.problem, { benchmark: result.benchmark, x: result.x, metric: result.metric });
  return NextResponse.json(studyJson(result));
});
