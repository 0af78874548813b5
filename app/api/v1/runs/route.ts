import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { loadNative } from "@/lib/store/load";
import { listRuns } from "@/lib/store/read";
import { verifyBearer } from "@/lib/store/tokens";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const store = await getStore();
    return NextResponse.json(await listRuns(store.prisma));
  } catch (e) {
    return unavailable(e);
  }
}

/** Native JSONL body, streamed into the same loader as `stepwise ingest`. */
export async function POST(req: NextRequest) {
  let store;
  try {
    store = await getStore();
  } catch (e) {
    return unavailable(e);
  }
  if ((await verifyBearer(store.prisma, req.headers.get("authorization"))) === null) {
    return jsonError(401, "a valid API token is required (Authorization: Bearer <token>)", {}, { "WWW-Authenticate": "Bearer" });
  }
  if (!req.body) return jsonError(400, "empty body: send native JSONL (SPEC §5)");
  const name = req.nextUrl.searchParams.get("name") ?? "request body";
  const report = await loadNative(store, name, Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>));
  if (!report.ok) return jsonError(400, `${report.errors.length} error(s); nothing was loaded`, { errors: report.errors });
  return NextResponse.json({ runs: report.runs, generations: report.generations, steps: report.steps }, { status: 201 });
}
