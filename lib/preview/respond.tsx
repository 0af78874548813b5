import "server-only";
import { ImageResponse } from "next/og";
import type { ReactElement } from "react";
import { GenericCard, PREVIEW_SIZE } from "@/components/preview/cards";
import type { AccessMode } from "../auth/policy";

// How preview images are answered. Cached for good only where no access check could change the
// answer: open mode (everyone may read) and the URL naming the run's current version. A preview
// that needed a session or a share link is private and revalidated (a revoked link, a signed-out
// user); the generic card is never stored, since the same URL shows a reader the real image.
export type PreviewCache = "immutable" | "private" | "none";

const CACHE_CONTROL: Record<PreviewCache, string> = {
  immutable: "public, max-age=31536000, immutable",
  private: "private, no-cache",
  none: "private, no-store",
};

export function previewCache(mode: AccessMode, requested: string | undefined, current: string): PreviewCache {
  return mode === "open" && requested === current ? "immutable" : "private";
}

export function previewImage(element: ReactElement, cache: PreviewCache): Response {
  return new ImageResponse(element, {
    ...PREVIEW_SIZE,
    headers: { "cache-control": CACHE_CONTROL[cache], vary: "Cookie, Authorization" },
  });
}

// The generic card is the same for everyone: drawn once per process, so a stranger asking for
// previews of runs it may not read costs no rendering (docs/performance.md, "Link previews").
let genericPng: Promise<ArrayBuffer> | undefined;

/** The answer to anyone who may not read what the URL names, or when it does not exist: the same image either way. */
export async function genericImage(): Promise<Response> {
  genericPng ??= new ImageResponse(<GenericCard />, PREVIEW_SIZE).arrayBuffer();
  const bytes = await genericPng.catch((e: unknown) => {
    genericPng = undefined;
    throw e;
  });
  return new Response(bytes, {
    headers: { "content-type": "image/png", "cache-control": CACHE_CONTROL.none, vary: "Cookie, Authorization" },
  });
}
