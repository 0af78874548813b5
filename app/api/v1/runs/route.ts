import { NextResponse, type NextRequest } from "next/server";
import { declaredOver, decodedBody, mbToBytes, tooLarge } from "@/lib/api/body-limit";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { authorizeRead, authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import { loadNative } from "@/lib/store/load";
import { PARALLEL_FROM_BYTES } from "@/lib/store/analysis-thread-start";
import { threadedNativeSource } from "@/lib/store/parallel-source";
import { serverThreadEntry } from "@/lib/store/server-thread";
import { listRuns } from "@/lib/store/read";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (req: NextRequest) => {
  const gate = await authorizeRead(await getStore(), req);
  if (!gate.ok) return gate.response;
  return NextResponse.json(await listRuns(gate.ctx));
});

/** Native JSONL body, streamed into the same loader as `stepwise ingest`. */
export const POST = apiRoute(async (req: NextRequest) => {
  const access = await gatedStore((store) => authorizeWrite(store, req, "POST /api/v1/runs"), req);
  if (!access.ok) return access.response;
  const { store } = access;
  const max = mbToBytes(env.STEPWISE_MAX_BODY_MB);
  if (declaredOver(req.headers, max)) return tooLarge(max);
  if (!req.body) return jsonError(400, "empty body: send native JSONL (SPEC §5)");
  const name = req.nextUrl.searchParams.get("name") ?? "request body";
  // gzip on the wire is decoded here, the limit counting the decompressed bytes too
  const body = decodedBody(req, max);
  if (!body.ok) return body.response;
  // Two threads as `stepwise ingest` uses them, unless the body says it is small: a pushed file
  // streams compressed, with no length.
  const declared = Number(req.headers.get("content-length") ?? NaN);
  const small = declared <= PARALLEL_FROM_BYTES && !req.headers.get("content-encoding");
  const entry = small ? null : await serverThreadEntry();
  // A body cut off at the limit rolls the load's transaction back: nothing is written.
  const source = entry ? threadedNativeSource(entry) : undefined;
  const report = await loadNative(store, name, body.stream, { source }).catch((e: unknown) => {
    if (body.exceeded() || body.corrupt()) return null;
    throw e;
  });
  if (body.corrupt()) return jsonError(400, `${body.corrupt()}; nothing was loaded`);
  if (!report || body.exceeded()) return tooLarge(max);
  // content that does not validate: 422 (the request itself was well-formed), errors as file:line: field
  if (!report.ok) return jsonError(422, `${report.errors.length} error(s); nothing was loaded`, { errors: report.errors });
  return NextResponse.json({ runs: report.runs, generations: report.generations, steps: report.steps }, { status: 201 });
});
