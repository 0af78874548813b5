import { NextResponse, type NextRequest } from "next/server";
import { mbToBytes, readJsonLimited, tooLarge } from "@/lib/api/body-limit";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import { listJobViews } from "@/lib/queries/jobs";
import { JobInputError, startedBy, submitJob } from "@/lib/runner/jobs";
import { describeIssues, jobRequestSchema } from "@/lib/runner/options";
import { authorizeRead, authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";

// Jobs: `stepwise run` queued in the store and run by a server process's worker
// (lib/runner/jobs.ts). Launching one is a write (and makes the server send requests to the given
// endpoint), so it needs an editor's API token or session (lib/auth/request.ts).
export const dynamic = "force-dynamic";

export const GET = apiRoute(async (req: NextRequest) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  return NextResponse.json(await listJobViews(gate.ctx));
});

/** JSON body: the options of `stepwise run` (lib/runner/options.ts) with `dataset` as JSONL text. */
export const POST = apiRoute(async (req: NextRequest) => {
  const access = await gatedStore((store) => authorizeWrite(store, req, "POST /api/v1/jobs"), req);
  if (!access.ok) return access.response;
  const { store } = access;
  const max = mbToBytes(env.STEPWISE_MAX_BODY_MB);
  const body = await readJsonLimited(req, max);
  if (!body.ok) return body.reason === "too-large" ? tooLarge(max) : jsonError(400, "the body must be JSON");
  const parsed = jobRequestSchema.safeParse(body.value);
  if (!parsed.success) return jsonError(400, "invalid job", { errors: describeIssues(parsed.error) });
  try {
    const job = await submitJob(store, parsed.data, await startedBy(store.prisma, access.principal));
    return NextResponse.json({ ...job, url: `/jobs/${job.id}` }, { status: 202, headers: { Location: `/api/v1/jobs/${job.id}` } });
  } catch (e) {
    if (e instanceof JobInputError) return jsonError(400, e.message);
    throw e;
  }
});
