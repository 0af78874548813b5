import "server-only";
import { requireReader, currentPrincipal } from "@/lib/auth/server";
import { ANONYMOUS } from "@/lib/auth/policy";
import { getStore } from "@/lib/db";
import { env } from "@/lib/env";
import type { StudyReadContext } from "@/lib/queries/study";

/** The request's read context for the study query: readers of everything only (others sign in). */
export async function studyReadContext(): Promise<StudyReadContext> {
  await requireReader();
  const mode = env.STEPWISE_ACCESS;
  // open mode: everyone reads, so no principal lookup (requireReader did none either)
  return { store: await getStore(), principal: mode === "open" ? ANONYMOUS : await currentPrincipal(), mode };
}
