import { NextResponse } from "next/server";

// JSON errors of the API: one shape everywhere, {"error": message, ...details}.
export function jsonError(status: number, error: string, details: Record<string, unknown> = {}, headers?: HeadersInit) {
  return NextResponse.json({ error, ...details }, { status, headers });
}
