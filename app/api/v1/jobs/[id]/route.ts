import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { getJobView } from "@/lib/queries/jobs";
import { cancelJob } from "@/lib/runner/jobs";
import { authorizeRead, authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (req: NextRequest, { params }: Ctx) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  const job = await getJobView(gate.ctx, (await params).id);
  return job ? NextResponse.json(job) : jsonError(404, "no such job");
});

/**
 * Cancels a job: a queued one at once (200); a running one is flagged and its server stops it
 * within a heartbeat (202; poll GET until the status is "cancelled"). What it stored stays, and a
 * new job with the same run key resumes the run.
 */
export const DELETE = apiRoute(async (req: NextRequest, { params }: Ctx) => {
  const access = await gatedStore((store) => authorizeWrite(store, req, "cancelling a job"), req);
  if (!access.ok) return access.response;
  const id = (await params).id;
  const outcome = await cancelJob(access.store, id);
  if (outcome === "missing") return jsonError(404, "no such job");
  if (outcome === "not-live") return jsonError(409, "the job has already ended");
  return NextResponse.json(
    { id, status: outcome === "cancelled" ? "cancelled" : "cancelling" },
    { status: outcome === "cancelled" ? 200 : 202 },
  );
});
