import { z } from "zod";
import { generationPath, intParam, parseFields, toQuery, type RawSearchParams } from "./shared";
import { stepAnchor } from "./step-anchor";

// URL state of a generation page (`/runs/{key}/items/{itemId}?epoch=N#step-J`). The step
// anchor lives in the hash: the server never sees it, the browser scrolls to it.

const schema = z.object({
  epoch: intParam(0, 0, 100_000),
});

export type GenerationParams = z.infer<typeof schema>;

export function parseGenerationParams(raw: RawSearchParams): GenerationParams {
  return parseFields(schema, raw);
}

export { stepAnchor } from "./step-anchor";

export function generationHref(runKey: string, itemId: string, p: Partial<GenerationParams> = {}, step?: number): string {
  return generationPath(runKey, itemId) + toQuery({ epoch: p.epoch }, { epoch: 0 }) + (step ? "#" + stepAnchor(step) : "");
}
