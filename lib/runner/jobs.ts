// Runs launched from the dashboard or POST /api/v1/jobs: the same executeRun as the CLI, started
// in the server process. Job state lives in this process's memory (on globalThis, so it survives
// dev hot reloads); the run itself lives in the store with its status, so a server restart loses
// only the job records: launching the same run key again resumes the run.
import { randomUUID } from "node:crypto";
import type { Store } from "../db";
import { readDataset } from "./dataset";
import type { JobRequest } from "./options";
import { executeRun, type RunProgress } from "./run";

export type JobStatus = "running" | "complete" | "incomplete" | "failed" | "cancelled";

export interface JobView {
  id: string;
  runKey: string;
  model: string;
  endpoint: string;
  datasetName: string;
  items: number;
  createdAt: string;
  finishedAt: string | null;
  status: JobStatus;
  done: number;
  total: number;
  added: number;
  skipped: number;
  failed: number;
  retries: number;
  inFlight: number;
  errors: string[];
  /** why the job stopped, when it did not complete */
  message: string | null;
}

interface Job extends JobView {
  controller: AbortController;
}

const registry = globalThis as unknown as { __stepwiseJobs?: Map<string, Job> };
const jobs = (registry.__stepwiseJobs ??= new Map<string, Job>());
const KEEP_FINISHED = 100;

export class JobInputError extends Error {}

const view = ({ controller: _c, ...rest }: Job): JobView => ({ ...rest, errors: [...rest.errors] });

export function listJobs(): JobView[] {
  return [...jobs.values()].map(view).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export function getJob(id: string): JobView | null {
  const j = jobs.get(id);
  return j ? view(j) : null;
}

export function cancelJob(id: string): boolean {
  const j = jobs.get(id);
  if (!j || j.status !== "running") return false;
  j.controller.abort(new Error("cancelled from the dashboard"));
  return true;
}

/** Validates the dataset and settings, then starts the run in the background. */
export async function startJob(store: Store, req: JobRequest, env: NodeJS.ProcessEnv = process.env): Promise<JobView> {
  for (const j of jobs.values()) {
    if (j.runKey === req.runKey && j.status === "running") throw new JobInputError(`run ${req.runKey} is already running as job ${j.id}`);
  }
  let apiKey: string | null = null;
  if (req.apiKeyEnv) {
    apiKey = env[req.apiKeyEnv] ?? null;
    if (!apiKey) throw new JobInputError(`apiKeyEnv: environment variable ${req.apiKeyEnv} is not set on the server`);
  }
  let dataset;
  try {
    dataset = await readDataset(req.datasetName, req.dataset);
  } catch (e) {
    throw new JobInputError((e as Error).message);
  }
  const job: Job = {
    id: randomUUID(),
    runKey: req.runKey,
    model: req.model,
    endpoint: req.endpoint,
    datasetName: req.datasetName,
    items: dataset.items.length,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    status: "running",
    done: 0,
    total: dataset.items.length * req.epochs,
    added: 0,
    skipped: 0,
    failed: 0,
    retries: 0,
    inFlight: 0,
    errors: [],
    message: null,
    controller: new AbortController(),
  };
  jobs.set(job.id, job);
  prune();
  const copy = (p: RunProgress) => {
    Object.assign(job, {
      done: p.done,
      total: p.total,
      added: p.added,
      skipped: p.skipped,
      failed: p.failed,
      retries: p.retries,
      inFlight: p.inFlight,
    });
    job.errors = p.errors;
  };
  void executeRun(store, { settings: req, dataset, apiKey, signal: job.controller.signal, onProgress: copy })
    .then((p) => {
      copy(p);
      job.status =
        job.controller.signal.aborted && p.status !== "complete" ? "cancelled" : p.status === "running" ? "incomplete" : p.status;
      if (job.status !== "complete")
        job.message = p.failed
          ? `${p.failed} generation(s) failed; launch again with the same run key to retry them`
          : "stopped before the end";
    })
    .catch((e: unknown) => {
      job.status = "failed";
      job.message = (e as Error).message;
    })
    .finally(() => {
      job.finishedAt = new Date().toISOString();
      job.inFlight = 0;
    });
  return view(job);
}

function prune() {
  const finished = [...jobs.values()].filter((j) => j.status !== "running");
  for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) jobs.delete(j.id);
}
