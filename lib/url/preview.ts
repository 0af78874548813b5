import { z } from "zod";
import { compareHref } from "./compare";
import { generationPath, parseFields, runPath, type RawSearchParams } from "./shared";

// Paths of the link-preview images (app/og/**). Each carries the version of the runs it draws
// (lib/preview/text.ts runVersion), so a run loaded again gets a new image URL and an old one
// can be cached for good where no access check could change it.

export const SITE_PREVIEW_PATH = "/og/site";

const schema = z.object({
  v: z
    .string()
    .regex(/^[0-9a-z.]{1,200}$/)
    .optional()
    .catch(undefined),
});
export type PreviewParams = z.infer<typeof schema>;

export function parsePreviewParams(raw: RawSearchParams): PreviewParams {
  return parseFields(schema, raw);
}

const withQuery = (path: string, q: Record<string, string | number | undefined>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) sp.set(k, String(v));
  const s = sp.toString();
  return s ? `${path}${path.includes("?") ? "&" : "?"}${s}` : path;
};

export function runPreviewPath(key: string, version: string): string {
  return withQuery("/og" + runPath(key), { v: version });
}

export function generationPreviewPath(key: string, itemId: string, epoch: number, version: string): string {
  return withQuery("/og" + generationPath(key, itemId), { epoch: epoch || undefined, v: version });
}

export function comparePreviewPath(keys: string[], version: string): string {
  return withQuery("/og" + compareHref({ runs: keys }), { v: version });
}

export function sharePreviewPath(secret: string, version: string): string {
  return withQuery("/og/share/" + encodeURIComponent(secret), { v: version });
}
