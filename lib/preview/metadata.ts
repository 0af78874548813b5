import type { Metadata } from "next";
import { SITE_PREVIEW_PATH } from "../url/preview";
import { SITE_TEXT, type PreviewText } from "./text";

// Open Graph and Twitter card tags of a page: what a chat client shows for a pasted link. Image
// paths are relative; the root layout's metadataBase (STEPWISE_PUBLIC_URL, else the request's
// origin) makes them absolute.
export function previewMetadata(text: PreviewText, imagePath: string): Metadata {
  const image = { url: imagePath, width: 1200, height: 630, alt: text.title, type: "image/png" };
  return {
    description: text.description,
    openGraph: { type: "website", siteName: "Stepwise", title: text.title, description: text.description, images: [image] },
    twitter: { card: "summary_large_image", title: text.title, description: text.description, images: [image] },
  };
}

/** Every page without a run of its own, and every refused one: nothing of any run. */
export const SITE_METADATA: Metadata = previewMetadata(SITE_TEXT, SITE_PREVIEW_PATH);
