import { z } from "zod";
import { parseFields, type RawSearchParams } from "./shared";

// URL state of /self-conditioning: the models shown (empty = all). Model names are
// URL-encoded and comma-separated, like run keys on /curves.

const schema = z.object({
  models: z
    .string()
    .transform((s) =>
      [
        ...new Set(
          s
            .split(",")
            .map((x) => x.trim())
            .filter((x) => x !== ""),
        ),
      ].slice(0, 50),
    )
    .optional()
    .catch(undefined)
    .transform((v) => v ?? []),
});

export type SelfCondParams = z.infer<typeof schema>;

export function parseSelfCondParams(raw: RawSearchParams): SelfCondParams {
  return parseFields(schema, raw);
}

export function selfCondHref(p: { models?: string[] }): string {
  return "/self-conditioning" + (p.models && p.models.length ? "?models=" + p.models.map((m) => encodeURIComponent(m)).join(",") : "");
}
