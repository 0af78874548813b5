import { NextResponse, type NextRequest } from "next/server";
import { MB, readJsonLimited, tooLarge } from "@/lib/api/body-limit";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { authorizeEditorRead, authorizeWrite, requestOrigin } from "@/lib/auth/request";
import { issuesText, shareCreateSchema } from "@/lib/auth/schemas";
import { createShareLink, listShareLinks, shareLinkJson } from "@/lib/auth/share-links";
import { getStore } from "@/lib/db";

export const dynamic = "force-dynamic";

// Share links of a run: editors (token or same-origin session) mint, list and revoke them.
// POST {run, expiresInDays?, label?} → 201 {id, run, path, url, expires_at}; the secret is
// shown once. GET ?run=KEY → the run's links (never their secrets).
export const POST = apiRoute(async (req: NextRequest) => {
  const store = await getStore();
  const gate = await authorizeWrite(store, req, "creating a share link");
  if (!gate.ok) return gate.response;
  const body = await readJsonLimited(req, MB);
  if (!body.ok) return body.reason === "too-large" ? tooLarge(MB) : jsonError(400, "the body must be JSON");
  const parsed = shareCreateSchema.safeParse(body.value);
  if (!parsed.success) return jsonError(400, issuesText(parsed.error));
  const { run, expiresInDays, label } = parsed.data;
  if (!(await store.prisma.run.findUnique({ where: { key: run }, select: { id: true } })))
    return jsonError(404, `no run with key '${run}'`);
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
  const p = gate.principal;
  const createdById = p.kind === "user" ? p.userId : p.kind === "token" ? p.userId : null;
  const link = await createShareLink(store.prisma, { runKey: run, createdById, expiresAt, label });
  const url = requestOrigin(req.headers, req.nextUrl.origin) + link.path;
  return NextResponse.json(
    { id: link.id, run, path: link.path, url, expires_at: expiresAt?.toISOString() ?? null },
    { status: 201, headers: { "cache-control": "no-store" } },
  );
});

export const GET = apiRoute(async (req: NextRequest) => {
  const store = await getStore();
  const gate = await authorizeEditorRead(store, req, "listing share links");
  if (!gate.ok) return gate.response;
  const run = req.nextUrl.searchParams.get("run");
  if (!run) return jsonError(400, "run: required (?run=KEY)");
  return NextResponse.json((await listShareLinks(store.prisma, run)).map((l) => shareLinkJson(l)));
});
