import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { cancelJob, getJob, jobForReader } from "@/lib/runner/jobs";
import { authorizeRead, authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export async function GET(req: NextRequest, { params }: Ctx) {
  try {
    const store = await getStore();
    const gate = await authorizeRead(store.prisma, req);
    if (!gate.ok) return gate.response;
    const job = await getJob(store, (await params).id);
    return job ? NextResponse.json(jobForReader(job, gate.principal.kind !== "anonymous")) : jsonError(404, "no such job");
  } catch (e) {
    return unavailable(e);
  }
}

/**
 * Cancels a job: a queued one at once (200); a running one is flagged and its server stops it
 * within a heartbeat (202; poll GET until the status is "cancelled"). What it stored stays, and a
 * new job with the same run key resumes the run.
 */
export async function DELETE(req: NextRequest, { params }: Ctx) {
  const access = await gatedStore((prisma) => authorizeWrite(prisma, req, "cancelling a job"), req);
  if (!access.ok) return access.response;
  const id = (await params).id;
  const outcome = await cancelJob(access.store, id);
  if (outcome === "missing") return jsonError(404, "no such job");
  if (outcome === "not-live") return jsonError(409, "the job has already ended");
  return NextResponse.json(
    { id, status: outcome === "cancelled" ? "cancelled" : "cancelling" },
    { status: outcome === "cancelled" ? 200 : 202 },
  );
}
