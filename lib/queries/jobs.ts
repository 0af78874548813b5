import "server-only";
import { currentCanWrite, currentPrincipal, requireReader } from "../auth/server";
import { getStore } from "../db";
import { getJob, jobForReader, listJobs, type JobView } from "../runner/jobs";

// Jobs (rows in the store) joined with their runs: the jobs pages read only this module.

export interface JobRow extends JobView {
  /** the run in the store, when it exists: status and counts as the run page shows them */
  run: { status: string; generations: number; expectedItems: number | null; updatedAt: string } | null;
}

async function withRuns(jobs: JobView[]): Promise<JobRow[]> {
  if (jobs.length === 0) return [];
  const { prisma } = await getStore();
  const runs = await prisma.run.findMany({
    where: { key: { in: [...new Set(jobs.map((j) => j.runKey))] } },
    select: { key: true, status: true, generationCount: true, expectedItems: true, loadedAt: true },
  });
  const byKey = new Map(runs.map((r) => [r.key, r]));
  const signedIn = (await currentPrincipal()).kind !== "anonymous";
  return jobs.map((j) => {
    const r = byKey.get(j.runKey);
    return {
      ...jobForReader(j, signedIn),
      run: r
        ? { status: r.status, generations: r.generationCount, expectedItems: r.expectedItems, updatedAt: r.loadedAt.toISOString() }
        : null,
    };
  });
}

export async function getJobRows(): Promise<JobRow[]> {
  await requireReader();
  return withRuns(await listJobs(await getStore()));
}

export async function getJobRow(id: string): Promise<JobRow | null> {
  await requireReader();
  const job = await getJob(await getStore(), id);
  return job ? (await withRuns([job]))[0] : null;
}

/** Whether the viewer can cancel from the page without typing a token (a signed-in editor). */
export const viewerCanWrite = currentCanWrite;
