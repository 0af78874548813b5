import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { JobInputError, listJobs, startJob } from "@/lib/runner/jobs";
import { describeIssues, jobRequestSchema } from "@/lib/runner/options";
import { RunConflictError } from "@/lib/store/incremental";
import { verifyBearer } from "@/lib/store/tokens";

// Jobs: `stepwise run` started in the server process (lib/runner/jobs.ts). Launching one is a
// write (and makes the server send requests to the given endpoint), so it needs an API token.
export const dynamic = "force-dynamic";

export async function GET() {
  return NextResponse.json(listJobs());
}

/** JSON body: the options of `stepwise run` (lib/runner/options.ts) with `dataset` as JSONL text. */
export async function POST(req: NextRequest) {
  let store;
  try {
    store = await getStore();
  } catch (e) {
    return unavailable(e);
  }
  if ((await verifyBearer(store.prisma, req.headers.get("authorization"))) === null) {
    return jsonError(401, "a valid API token is required (Authorization: Bearer <token>; create one with `stepwise token create`)", {}, { "WWW-Authenticate": "Bearer" });
  }
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return jsonError(400, "the body must be JSON");
  }
  const parsed = jobRequestSchema.safeParse(body);
  if (!parsed.success) return jsonError(400, "invalid job", { errors: describeIssues(parsed.error) });
  try {
    const job = await startJob(store, parsed.data);
    return NextResponse.json({ ...job, url: `/jobs/${job.id}` }, { status: 202, headers: { Location: `/api/v1/jobs/${job.id}` } });
  } catch (e) {
    if (e instanceof JobInputError || e instanceof RunConflictError) return jsonError(400, e.message);
    throw e;
  }
}
