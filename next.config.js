/** @type {import('next').NextConfig} */

// Security headers for every response; pages add their nonce CSP in proxy.ts. Kept in step with
// lib/security/headers.ts (tests/unit/auth-headers.test.ts compares them). Plain JS here because
// next.config.js is loaded before TypeScript is set up.
const STATIC_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
const HSTS = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

// Metadata in <head> (not streamed after the page) for chat clients and crawlers: Next's own list
// of such bots, and any client that does not call itself a browser (Mattermost, Zulip, curl …).
const HTML_LIMITED_BOTS =
  /[\w-]+-Google|Google-[\w-]+|Chrome-Lighthouse|Slurp|DuckDuckBot|baiduspider|yandex|sogou|bitlybot|tumblr|vkShare|quora link preview|redditbot|ia_archiver|Bingbot|BingPreview|applebot|facebookexternalhit|facebookcatalog|Twitterbot|LinkedInBot|Slackbot|Discordbot|WhatsApp|SkypeUriPreview|Yeti|googleweblight|TelegramBot|Mattermost|Zulip|Rocket\.Chat|^(?!.*Mozilla\/5\.0)/i;

const nextConfig = {
  htmlLimitedBots: HTML_LIMITED_BOTS,
  // Native and driver packages must be loaded by Node at run time, not bundled (better-sqlite3
  // and zstd-napi load their compiled .node file from beside their own code).
  serverExternalPackages: ["better-sqlite3", "pg", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "zstd-napi"],
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: STATIC_HEADERS },
      { source: "/:path*", has: [{ type: "header", key: "x-forwarded-proto", value: "https" }], headers: [HSTS] },
      // Pages get their CSP (with a nonce) from proxy.ts; data routes get a locked-down one.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
      { source: "/export/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
      // preview images are embedded by chat clients on other origins
      {
        source: "/og/:path*",
        headers: [
          { key: "Content-Security-Policy", value: API_CSP },
          { key: "Cross-Origin-Resource-Policy", value: "cross-origin" },
        ],
      },
    ];
  },
};
export default nextConfig;
