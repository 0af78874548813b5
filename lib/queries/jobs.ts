import "server-only";
import { visibleRunKeys } from "../auth/policy";
import { visibleRunsWhere, type ReadContext } from "../read-context";
import { getJob, jobForReader, listJobs, type JobView } from "../runner/jobs";

// Jobs (rows in the store) joined with their runs: the jobs pages and the jobs API read only this module.

export interface JobRow extends JobView {
  /** the run in the store, when it exists: status and counts as the run page shows them */
  run: { status: string; generations: number; expectedItems: number | null; updatedAt: string } | null;
}

/** The jobs of runs `ctx`'s principal may see (all of them for readers of everything), with who started them only for the signed in. */
function visibleJobs(ctx: ReadContext, all: JobView[]): JobView[] {
  const visible = visibleRunKeys(ctx.principal, ctx.mode);
  const signedIn = ctx.principal.kind !== "anonymous";
  return (visible === null ? all : all.filter((j) => visible.includes(j.runKey))).map((j) => jobForReader(j, signedIn));
}

export async function listJobViews(ctx: ReadContext): Promise<JobView[]> {
  return visibleJobs(ctx, await listJobs(ctx.store));
}

export async function getJobView(ctx: ReadContext, id: string): Promise<JobView | null> {
  const job = await getJob(ctx.store, id);
  return job ? (visibleJobs(ctx, [job])[0] ?? null) : null;
}

async function withRuns(ctx: ReadContext, all: JobView[]): Promise<JobRow[]> {
  const jobs = visibleJobs(ctx, all);
  if (jobs.length === 0) return [];
  const runs = await ctx.store.prisma.run.findMany({
    where: { AND: [visibleRunsWhere(ctx), { key: { in: [...new Set(jobs.map((j) => j.runKey))] } }] },
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

export async function getJobRows(ctx: ReadContext): Promise<JobRow[]> {
  return withRuns(ctx, await listJobs(ctx.store));
}

export async function getJobRow(ctx: ReadContext, id: string): Promise<JobRow | null> {
  const job = await getJob(ctx.store, id);
  return job ? ((await withRuns(ctx, [job]))[0] ?? null) : null;
}
