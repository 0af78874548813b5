import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { NextResponse, type NextRequest } from "next/server";
import { jsonError, unavailable } from "@/lib/api/responses";
import { getStore } from "@/lib/db";
import { importFile } from "@/lib/import";
import { parseImportOptions } from "@/lib/import/options";
import { verifyBearer } from "@/lib/store/tokens";

export const dynamic = "force-dynamic";

/** Uploads larger than this are refused (the CLI has no limit). */
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * POST /api/v1/import?name=FILE&format=&filter=&metric=&model=&key=&weighting=
 * Body: the file itself (any SPEC §7 format, told from the content). The body is streamed to a
 * temporary file (a ZIP is read from its end), imported in one transaction, then deleted.
 */
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
  const q = req.nextUrl.searchParams;
  const { name: rawName, max_errors, ...rest } = Object.fromEntries(q.entries());
  const parsed = parseImportOptions({ ...rest, maxErrors: max_errors });
  if (!parsed.ok) return jsonError(400, parsed.error);
  if (!req.body) return jsonError(400, "empty body: send the file to import");
  // The name only labels errors and tells lm-eval its task / the repro its model: no path.
  const name = path.basename(rawName || "upload");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-upload-"));
  const tmp = path.join(/*turbopackIgnore: true*/ dir, name.replace(/[^\w.+-]/g, "_") || "upload");
  try {
    let bytes = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb(bytes > MAX_UPLOAD_BYTES ? new Error("too large") : null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(req.body as unknown as NodeReadableStream<Uint8Array>), limit, fs.createWriteStream(tmp));
    } catch {
      return jsonError(bytes > MAX_UPLOAD_BYTES ? 413 : 400, bytes > MAX_UPLOAD_BYTES ? `the upload is over ${MAX_UPLOAD_BYTES >> 30} GB` : "the upload was interrupted");
    }
    const report = await importFile(store, name, tmp, parsed.options);
    if (!report.ok) return jsonError(400, `${report.errors.length} error(s); nothing was imported`, { format: report.format, errors: report.errors });
    return NextResponse.json({ format: report.format, runs: report.runs, generations: report.generations }, { status: 201 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
