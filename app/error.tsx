"use client";

import { Link } from "@/components/ui/link";

// Shown when a page's data layer fails (e.g. the store is unreachable). The message of a
// server error is hidden by Next in production; the digest ties it to the server log.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-lg py-16 text-center" role="alert">
      <p className="text-sm font-semibold text-red-700">Error</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-neutral-900">This page could not be shown</h1>
      <p className="mt-2 text-neutral-600">
        Something went wrong while reading the results. Try again; if it keeps failing, check the server log.
      </p>
      {error.digest ? <p className="mt-2 font-mono text-xs text-neutral-500">reference {error.digest}</p> : null}
      <div className="mt-6 flex justify-center gap-3">
        <button
          type="button"
          onClick={reset}
          className="rounded-md bg-neutral-900 px-3 py-2 text-sm font-medium text-white hover:bg-neutral-700"
        >
          Try again
        </button>
        <Link
          href="/"
          className="rounded-md border border-neutral-300 bg-white px-3 py-2 text-sm font-medium text-neutral-700 hover:bg-neutral-50"
        >
          Leaderboard
        </Link>
      </div>
    </div>
  );
}
