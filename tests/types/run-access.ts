// Type-level tests, checked by `tsc --noEmit` (tsconfig includes every .ts file) and by
// tests/unit/type-tests.test.ts, which also checks that each `@ts-expect-error` below marks a
// real error: remove the RunAccess brand or a read's RunAccess parameter and tsc fails here.
// Never run: the functions below only have to type-check.
import { RunAccess } from "@/lib/auth/run-access";
import { getGeneration } from "@/lib/queries/generation";
import { getAllRunItems, getRunItems } from "@/lib/queries/items";
import { getRunSummary } from "@/lib/queries/runs";
import { getComparison } from "@/lib/queries/compare";
import { getShareLinksFor } from "@/lib/queries/share-links";
import type { ReadContext } from "@/lib/read-context";
import { getRunMetrics } from "@/lib/store/read";
import { parseCompareParams } from "@/lib/url/compare";
import { parseRunParams } from "@/lib/url/run";

export async function runScopedReadsNeedTheProof(ctx: ReadContext) {
  const forged = { id: 1, key: "run", status: "complete", loadedAt: new Date() };
  const p = parseRunParams({});

  // @ts-expect-error a run-scoped read without RunAccess: a look-alike object is not the proof
  await getRunSummary(ctx, forged);
  // @ts-expect-error a run key is not the proof
  await getRunItems(ctx, "run", p);
  // @ts-expect-error the proof is not optional
  await getAllRunItems(ctx, undefined, p, 10);
  // @ts-expect-error a run id is not the proof
  await getGeneration(ctx, 1, "item", 0);
  // @ts-expect-error the metrics of a run need the proof
  await getRunMetrics(ctx, forged);
  // @ts-expect-error a comparison needs a proof for every run
  await getComparison(ctx, [forged], parseCompareParams({}));
  // @ts-expect-error share links of a run need the proof
  await getShareLinksFor(ctx, forged);
  // @ts-expect-error only the access check makes one: the constructor is private
  new RunAccess(1, "run", "complete", new Date());

  // The one way to a run's data: the check, then the reads with its proof.
  const r = await RunAccess.check(ctx, "run");
  if (r.ok) await getRunSummary(ctx, r.run);
}
