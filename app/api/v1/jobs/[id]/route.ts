import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { cancelJob, getJob } from "@/lib/runner/jobs";
import { verifyBearer } from "@/lib/store/tokens";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export async function GET(_req: NextRequest, { params }: Ctx) {
  const job = getJob((await params).id);
  return job ? NextResponse.json(job) : jsonError(404, "no such job (jobs are kept in the server's memory until it restarts)");
}

/** Cancels a running job; what it stored stays, and launching the same run key resumes it. */
export async function DELETE(req: NextRequest, { params }: Ctx) {
  let store;
  try {
    store = await getStore();
  } catch (e) {
    return unavailable(e);
  }
  if ((await verifyBearer(store.prisma, req.headers.get("authorization"))) === null) {
    return jsonError(401, "a valid API token is required", {}, { "WWW-Authenticate": "Bearer" });
  }
  const id = (await params).id;
  if (!getJob(id)) return jsonError(404, "no such job");
  return cancelJob(id) ? NextResponse.json({ cancelled: id }) : jsonError(409, "the job is not running");
}
