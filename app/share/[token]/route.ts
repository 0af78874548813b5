import { NextResponse, type NextRequest } from "next/server";
import { cookieOptions, isSecureRequest } from "@/lib/auth/cookies";
import { addShareSecret, resolveShareLink, SHARE_COOKIE } from "@/lib/auth/share-links";
import { apiRoute } from "@/lib/api/errors";
import { getStore } from "@/lib/db";

export const dynamic = "force-dynamic";

// Opening a share link: the secret moves from the URL into an HTTP-only cookie (so the run's
// own links, tabs and the metrics API work without it in every URL), then on to the run page.
const SHARE_COOKIE_DAYS = 30;

export const GET = apiRoute(async (req: NextRequest, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const runKey = await resolveShareLink((await getStore()).prisma, token);
  if (!runKey) {
    return new NextResponse("This share link is not valid: it may have expired or been revoked.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  // A relative Location: behind `next start` req.url names the server's own host, not the one
  // the browser used, and the cookie is only sent back to the latter.
  const res = new NextResponse(null, { status: 303, headers: { Location: `/runs/${encodeURIComponent(runKey)}` } });
  const expires = new Date(Date.now() + SHARE_COOKIE_DAYS * 86_400_000);
  res.cookies.set(
    SHARE_COOKIE,
    addShareSecret(req.cookies.get(SHARE_COOKIE)?.value, token),
    cookieOptions(isSecureRequest(req.headers, req.url), expires),
  );
  res.headers.set("cache-control", "no-store");
  return res;
});
