import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/** The trivial route: the baseline the page benchmarks compare against. */
export function GET() {
  return NextResponse.json({ ok: true });
}
