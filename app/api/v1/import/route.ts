import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { NextResponse, type NextRequest } from "next/server";
import { declaredOver, decodedBody, mbToBytes, tooLarge } from "@/lib/api/body-limit";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { authorizeWrite } from "@/lib/auth/request";
import { gatedStore } from "@/lib/api/gated-store";
import { env } from "@/lib/env";
import { importFile } from "@/lib/import";
import { parseImportOptions } from "@/lib/import/options";
import { importThreadStarter } from "@/lib/import/parallel";
import { PARALLEL_FROM_BYTES } from "@/lib/store/analysis-thread-start";
import { serverThreadEntry } from "@/lib/store/server-thread";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/import?name=FILE&format=&filter=&metric=&model=&key=&weighting=
 * Body: the file itself (any SPEC §7 format, told from the content). The body is streamed to a
 * temporary file (a ZIP is read from its end), imported in one transaction, then deleted.
 */
export const POST = apiRoute(async (req: NextRequest) => {
  const access = await gatedStore((store) => authorizeWrite(store, req, "POST /api/v1/import"), req);
  if (!access.ok) return access.response;
  const { store } = access;
  // Uploads larger than STEPWISE_MAX_UPLOAD_MB are refused (the CLI has no limit): the spool
  // file would otherwise fill the server's disk.
  const max = mbToBytes(env.STEPWISE_MAX_UPLOAD_MB);
  if (declaredOver(req.headers, max)) return tooLarge(max, "the upload");
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
    // gzip on the wire is decoded here, the limit counting the decompressed bytes too
    const body = decodedBody(req, max, "the upload");
    if (!body.ok) return body.response;
    try {
      await pipeline(body.stream, fs.createWriteStream(tmp));
    } catch {
      if (body.exceeded()) return tooLarge(max, "the upload");
      return jsonError(400, body.corrupt() ?? "the upload was interrupted");
    }
    // on a second thread past 8 MB, as `stepwise import` runs
    const entry = fs.statSync(tmp).size > PARALLEL_FROM_BYTES ? await serverThreadEntry() : null;
    const report = await importFile(store, name, tmp, parsed.options, undefined, entry ? importThreadStarter(entry) : undefined);
    if (!report.ok)
      return jsonError(422, `${report.errors.length} error(s); nothing was imported`, { format: report.format, errors: report.errors });
    return NextResponse.json(
      { format: report.format, runs: report.runs, generations: report.generations, notes: report.notes },
      { status: 201 },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
