import { NextResponse, type NextRequest } from "next/server";
import { apiRoute } from "@/lib/api/errors";
import { jsonError } from "@/lib/api/responses";
import { authorizeWrite } from "@/lib/auth/request";
import { shareRevokeSchema } from "@/lib/auth/schemas";
import { revokeShareLink } from "@/lib/auth/share-links";
import { getStore } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Revokes a share link: it stops working at once, also for browsers that opened it before. */
export const DELETE = apiRoute(async (req: NextRequest, { params }: { params: Promise<{ id: string }> }) => {
  const store = await getStore();
  const gate = await authorizeWrite(store, req, "revoking a share link");
  if (!gate.ok) return gate.response;
  const parsed = shareRevokeSchema.safeParse({ id: (await params).id });
  if (!parsed.success) return jsonError(400, "id: a share link id");
  const r = await revokeShareLink(store.prisma, parsed.data.id);
  return r ? NextResponse.json({ revoked: parsed.data.id, run: r.runKey }) : jsonError(404, "no such share link");
});
