import { NextResponse, type NextRequest } from "next/server";
import { cookieOptions, isSecureRequest } from "@/lib/auth/cookies";
import { requestOrigin } from "@/lib/auth/request";
import { RunAccess } from "@/lib/auth/run-access";
import { addShareSecret, SHARE_COOKIE, shareLinkContext } from "@/lib/auth/share-links";
import { apiRoute } from "@/lib/api/errors";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import { loadPreviewRun } from "@/lib/preview/load";
import { isBrowserNavigation, sharePreviewHtml } from "@/lib/preview/share-page";
import { runPreviewText, runVersion } from "@/lib/preview/text";
import { sharePreviewPath } from "@/lib/url/preview";
import { runPath } from "@/lib/url/shared";

export const dynamic = "force-dynamic";

// Opening a share link: the secret moves from the URL into an HTTP-only cookie (so the run's
// own links, tabs and the metrics API work without it in every URL), then on to the run page.
// A client that is not a browser navigating (a chat client building the link's preview) gets a
// page with the run's preview tags instead, the image URL carrying the secret (lib/preview).
const SHARE_COOKIE_DAYS = 30;

export const GET = apiRoute(async (req: NextRequest, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const link = await shareLinkContext(await getStore(), token, env.STEPWISE_ACCESS);
  if (!link) {
    return new NextResponse("This share link is not valid: it may have expired or been revoked.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const res = isBrowserNavigation(req.headers)
    ? // A relative Location: behind `next start` req.url names the server's own host, not the one
      // the browser used, and the cookie is only sent back to the latter.
      new NextResponse(null, { status: 303, headers: { Location: runPath(link.runKey) } })
    : await previewPage(req, link, token);
  const expires = new Date(Date.now() + SHARE_COOKIE_DAYS * 86_400_000);
  res.cookies.set(
    SHARE_COOKIE,
    addShareSecret(req.cookies.get(SHARE_COOKIE)?.value, token),
    cookieOptions(isSecureRequest(req.headers, req.url), expires),
  );
  res.headers.set("cache-control", "no-store");
  return res;
});

async function previewPage(req: NextRequest, link: NonNullable<Awaited<ReturnType<typeof shareLinkContext>>>, token: string) {
  const access = await RunAccess.check(link.ctx, link.runKey);
  const run = access.ok ? await loadPreviewRun(link.ctx, access.run) : null;
  if (!run) return new NextResponse(null, { status: 303, headers: { Location: runPath(link.runKey) } });
  const origin = requestOrigin(req.headers, req.url);
  const html = sharePreviewHtml({
    text: runPreviewText(run),
    image: origin + sharePreviewPath(token, runVersion([run])),
    url: origin + req.nextUrl.pathname,
    location: runPath(link.runKey),
  });
  return new NextResponse(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
}
