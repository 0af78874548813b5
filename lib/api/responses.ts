import { NextResponse } from "next/server";

// JSON errors of the API: one shape everywhere, {"error": message, ...details}.
export function jsonError(status: number, error: string, details: Record<string, unknown> = {}, headers?: HeadersInit) {
  return NextResponse.json({ error, ...details }, { status, headers });
}

export function unavailable(e: unknown) {
  const message = e instanceof Error ? e.message : String(e);
  return jsonError(503, "the store is unavailable", { detail: message }, { "Retry-After": "5" });
}
