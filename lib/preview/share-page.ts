import type { PreviewText } from "./text";

// What /share/{secret} answers a client that is not a browser navigating (a chat client fetching
// the link for its preview follows redirects without keeping cookies, so the run page it would
// land on is the sign-in page in private mode): a small HTML page carrying the run's preview tags
// and a refresh to the run page. Every value is escaped: model names are untrusted text.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export function sharePreviewHtml(p: { text: PreviewText; image: string; url: string; location: string }): string {
  const meta = (attr: "property" | "name", key: string, value: string) => `<meta ${attr}="${key}" content="${esc(value)}">`;
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(p.text.title)} · Stepwise</title>`,
    meta("name", "description", p.text.description),
    meta("property", "og:type", "website"),
    meta("property", "og:site_name", "Stepwise"),
    meta("property", "og:title", p.text.title),
    meta("property", "og:description", p.text.description),
    meta("property", "og:url", p.url),
    meta("property", "og:image", p.image),
    meta("property", "og:image:width", "1200"),
    meta("property", "og:image:height", "630"),
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", p.text.title),
    meta("name", "twitter:description", p.text.description),
    meta("name", "twitter:image", p.image),
    `<meta http-equiv="refresh" content="0;url=${esc(p.location)}">`,
    `</head><body><p><a href="${esc(p.location)}">${esc(p.text.title)}</a></p></body></html>`,
  ].join("\n");
}

/** A browser navigating to the link (Fetch Metadata) gets the redirect; anything else the preview page. */
export function isBrowserNavigation(headers: Headers): boolean {
  return headers.get("sec-fetch-mode") === "navigate" && headers.get("sec-fetch-dest") === "document";
}
