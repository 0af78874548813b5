import "server-only";
import { requireReader } from "../auth/server";
import { db } from "../db";
import { getJob, listJobs, type JobView } from "../runner/jobs";

// Jobs (server memory) joined with their runs (store): the jobs pages read only this module.

export interface JobRow extends JobView {
  /** the run in the store, when it exists: status and counts as the run page shows them */
  run: { status: string; generations: number; expectedItems: number | null; updatedAt: string } | null;
}

async function withRuns(jobs: JobView[]): Promise<JobRow[]> {
  if (jobs.length === 0) return [];
  const prisma = await db();
  const runs = await prisma.run.findMany({
    where: { key: { in: [...new Set(jobs.map((j) => j.runKey))] } },
    select: { key: true, status: true, generationCount: true, expectedItems: true, loadedAt: true },
  });
  const byKey = new Map(runs.map((r) => [r.key, r]));
  return jobs.map((j) => {
    const r = byKey.get(j.runKey);
    return {
      ...j,
      run: r
        ? { status: r.status, generations: r.generationCount, expectedItems: r.expectedItems, updatedAt: r.loadedAt.toISOString() }
        : null,
    };
  });
}

export async function getJobRows(): Promise<JobRow[]> {
  await requireReader();
  return withRuns(listJobs());
}

export async function getJobRow(id: string): Promise<JobRow | null> {
  await requireReader();
  const job = getJob(id);
  return job ? (await withRuns([job]))[0] : null;
}
