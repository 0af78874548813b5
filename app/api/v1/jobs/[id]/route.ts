import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { getJobView } from "@/lib/queries/jobs";
import { cancelJob, getJob } from "@/lib/runner/jobs";
import { authorizeRead, authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (req: NextRequest, { params }: Ctx) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  const job = getJobView(gate.ctx, (await params).id);
  return job ? NextResponse.json(job) : jsonError(404, "no such job (jobs are kept in the server's memory until it restarts)");
});

/** Cancels a running job; what it stored stays, and launching the same run key resumes it. */
export const DELETE = apiRoute(async (req: NextRequest, { params }: Ctx) => {
  const access = await gatedStore((prisma) => authorizeWrite(prisma, req, "cancelling a job"), req);
  if (!access.ok) return access.response;
  const id = (await params).id;
  if (!getJob(id)) return jsonError(404, "no such job");
  return cancelJob(id) ? NextResponse.json({ cancelled: id }) : jsonError(409, "the job is not running");
});
