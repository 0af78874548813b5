import type { Metadata } from "next";
import { headers } from "next/headers";
import { Link } from "@/components/ui/link";
import { AuthNav } from "@/components/auth/auth-nav";
import { ShortcutsHelp } from "@/components/ui/shortcuts-help";
import { SiteNav } from "@/components/ui/site-nav";
import { requestOrigin } from "@/lib/auth/request";
import { env } from "@/lib/env";
import { SITE_METADATA } from "@/lib/preview/metadata";
import { glossaryHref } from "@/lib/url/glossary";
import "./globals.css";

// Every page's link preview defaults to the site's card; run, generation and compare pages set
// their own (lib/preview/page-metadata.ts). Preview URLs are made absolute against the public
// origin: STEPWISE_PUBLIC_URL, else the origin the request came to.
export async function generateMetadata(): Promise<Metadata> {
  const origin = env.STEPWISE_PUBLIC_URL ?? requestOrigin(await headers(), `http://localhost:${process.env.PORT ?? 3000}`);
  return {
    ...SITE_METADATA,
    metadataBase: new URL(origin),
    title: { default: "Stepwise", template: "%s · Stepwise" },
    description: "Explore how faithfully language models execute long step-by-step procedures.",
  };
}

const NAV = [
  { href: "/", label: "Leaderboard" },
  { href: "/curves", label: "Curves" },
  { href: "/compare", label: "Compare" },
  { href: "/self-conditioning", label: "Self-conditioning" },
  { href: "/study", label: "Study" },
  { href: "/jobs", label: "Jobs" },
  { href: glossaryHref(), label: "Glossary" },
  { href: "/about", label: "About" },
] as const;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <header className="sticky top-0 z-30 border-b border-neutral-200 bg-white/95 backdrop-blur">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5">
            <Link href="/" prefetch={false} className="flex items-center gap-2 text-base font-semibold tracking-tight text-neutral-900">
              <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-gradient-to-br from-sky-500 to-indigo-600" />
              Stepwise
            </Link>
            <SiteNav links={NAV} />
            <AuthNav />
            <ShortcutsHelp />
          </div>
        </header>
        <main id="main" className="mx-auto max-w-7xl px-4 py-6">
          {children}
        </main>
      </body>
    </html>
  );
}
