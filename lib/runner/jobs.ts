// Runs launched from the dashboard or POST /api/v1/jobs: the same executeRun as the CLI, run by a
// worker inside each server process. Jobs are rows in the store (lib/runner/job-rows.ts, job-queue.ts, job-lease.ts); a
// worker takes a job's lease, renews it with a heartbeat that also records progress and picks up
// cancel requests, and ends the row when the run ends. A process that dies (kill -9, a crash, a
// restart) stops renewing; once the lease expires another worker, or the restarted one, takes the
// job over and executeRun resumes the run, skipping every generation already stored.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import type { Principal } from "../auth/policy";
import type { Db, Store } from "../db";
import { env as appEnv, providerOf, sqlitePath } from "../env";
import type { ChatClientOptions } from "./client";
import { readDataset } from "./dataset";
import { claimJob, finishJob, heartbeat, releaseJob } from "./job-lease";
import { insertJob, JobInputError } from "./job-queue";
import type { ClaimedJob, JobProgress, JobStatus, JobView } from "./job-rows";
import { runSettingsSchema, type JobRequest, type RunSettings } from "./options";
import { executeRun, type RunProgress } from "./run";

export { cancelJob, getJob, JobInputError, listJobs } from "./job-queue";
export { jobForReader, type JobView } from "./job-rows";

/** Who started a job, as its row records it: the token's name or the user's email. */
export async function startedBy(prisma: Db, p: Principal): Promise<string> {
  if (p.kind === "user") return p.email;
  if (p.kind === "token") {
    const t = await prisma.apiToken.findUnique({ where: { id: p.tokenId }, select: { name: true } });
    return `token ${t?.name ?? `#${p.tokenId}`}`;
  }
  return p.kind === "local" ? "local admin" : "anonymous";
}

/**
 * Checks what can be checked before queueing (the dataset reads, the API key variable is set on
 * this server) and queues the job; a worker starts it (at once when one has room).
 */
export async function submitJob(store: Store, req: JobRequest, createdBy: string, env: NodeJS.ProcessEnv = process.env): Promise<JobView> {
  if (req.apiKeyEnv && !env[req.apiKeyEnv])
    throw new JobInputError(`apiKeyEnv: environment variable ${req.apiKeyEnv} is not set on the server`);
  let items: number;
  try {
    items = (await readDataset(req.datasetName, req.dataset)).items.length;
  } catch (e) {
    throw new JobInputError((e as Error).message);
  }
  const { dataset, datasetName, ...settings } = req;
  const job = await insertJob(store, { id: randomUUID(), settings, datasetName, datasetText: dataset, items, createdBy });
  globalWorker()?.kick();
  return job;
}

export interface WorkerOptions {
  /** this process's name in lease rows; unique per process */
  owner?: string;
  /** most jobs running at once in the whole store (STEPWISE_MAX_JOBS) */
  maxJobs: number;
  /** a lease not renewed for this long is free to take (STEPWISE_JOB_LEASE_SECONDS) */
  leaseMs: number;
  heartbeatMs: number;
  /** how often an idle worker looks for queued or abandoned jobs */
  pollMs: number;
  env?: NodeJS.ProcessEnv;
  /** tests: shorten the HTTP client's back-off */
  clientOptions?: Partial<ChatClientOptions>;
  log?: (message: string) => void;
}

interface LocalJob {
  id: string;
  controller: AbortController;
  progress: JobProgress;
  leaseUntil: number;
  /** the lease is (or may be) someone else's now: write nothing more */
  lost: boolean;
  /** stopping because this process stops: hand the job back instead of ending it */
  releasing: boolean;
  cancelled: boolean;
  done: Promise<void>;
}

export class JobWorker {
  readonly owner: string;
  private readonly local = new Map<string, LocalJob>();
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | null = null;
  private beating = false;
  private stopped = false;
  private lastError = "";

  constructor(
    /** null: no store yet (a SQLite file not created): nothing to run */
    private readonly store: () => Promise<Store | null>,
    private readonly o: WorkerOptions,
  ) {
    this.owner = o.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  start(): this {
    this.timers.push(setInterval(() => this.kick(), this.o.pollMs).unref());
    this.timers.push(setInterval(() => void this.beat(), this.o.heartbeatMs).unref());
    this.kick();
    return this;
  }

  /** Looks for work now (a job was just queued, or a run ended and made room). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.polling ??= this.poll().finally(() => (this.polling = null));
    return this.polling;
  }

  /** Ids of the jobs this process runs. */
  runningHere(): string[] {
    return [...this.local.keys()];
  }

  /** Stops this worker: with release, its jobs are handed back for another process to resume at once. */
  async stop({ release = true } = {}): Promise<void> {
    this.stopped = true;
    this.timers.forEach(clearInterval);
    this.timers = [];
    for (const j of this.local.values()) {
      j.releasing = release;
      if (!release) j.lost = true;
      j.controller.abort(new Error("the server is stopping"));
    }
    await Promise.all([...this.local.values()].map((j) => j.done));
  }

  /** Resolves when every job this process runs has ended. */
  async idle(): Promise<void> {
    while (this.local.size) await Promise.all([...this.local.values()].map((j) => j.done));
  }

  private report(e: unknown) {
    const m = (e as Error).message ?? String(e);
    if (m !== this.lastError) (this.o.log ?? console.error)(`stepwise jobs: ${m}`);
    this.lastError = m;
  }

  private async poll(): Promise<void> {
    try {
      const store = await this.store();
      if (!store) return;
      while (!this.stopped && this.local.size < this.o.maxJobs) {
        const claimed = await claimJob(store, { owner: this.owner, maxJobs: this.o.maxJobs, leaseMs: this.o.leaseMs });
        if (!claimed) break;
        if (this.stopped) {
          // stop() came while this claim was in flight: hand the job back rather than run it with no heartbeat
          await releaseJob(store, this.owner, claimed.view.id, progressOf(claimed.view));
          break;
        }
        this.launch(store, claimed);
      }
      this.lastError = "";
    } catch (e) {
      this.report(e);
    }
  }

  private launch(store: Store, c: ClaimedJob) {
    const v = c.view;
    const firstSession = v.attempts <= 1;
    const local: LocalJob = {
      id: v.id,
      controller: new AbortController(),
      progress: progressOf(v),
      leaseUntil: c.leaseUntil,
      lost: false,
      releasing: false,
      cancelled: false,
      done: Promise.resolve(),
    };
    const copy = (p: RunProgress) => {
      local.progress = {
        done: p.done,
        total: p.total,
        added: v.added + p.added,
        skipped: firstSession ? p.skipped : v.skipped,
        failed: p.failed,
        retries: v.retries + p.retries,
        inFlight: p.inFlight,
        errors: [...v.errors, ...p.errors].slice(0, 20),
      };
    };
    local.done = (async () => {
      let status: Exclude<JobStatus, "queued" | "running">;
      let message: string | null = null;
      try {
        const settings = runSettingsSchema.parse(c.settings) as RunSettings;
        const env = this.o.env ?? process.env;
        const apiKey = settings.apiKeyEnv ? (env[settings.apiKeyEnv] ?? null) : null;
        if (settings.apiKeyEnv && !apiKey)
          throw new Error(`apiKeyEnv: environment variable ${settings.apiKeyEnv} is not set on this server`);
        const dataset = await readDataset(v.datasetName, c.datasetText);
        const signal = local.controller.signal;
        const p = await executeRun(store, { settings, dataset, apiKey, signal, onProgress: copy, clientOptions: this.o.clientOptions });
        copy(p);
        if (p.status === "complete") status = "complete";
        else if (local.cancelled) status = "cancelled";
        else status = p.status === "failed" ? "failed" : "incomplete";
        if (status !== "complete")
          message = local.cancelled
            ? "cancelled from the dashboard; what it stored stays, and a new job with the same run key resumes it"
            : p.failed
              ? `${p.failed} generation(s) failed; launch again with the same run key to retry them`
              : "stopped before the end";
      } catch (e) {
        status = "failed";
        message = (e as Error).message;
      }
      if (local.lost) return; // whoever holds the lease now ends the job
      if (local.releasing) await releaseJob(store, this.owner, local.id, local.progress);
      else await finishJob(store, this.owner, local.id, { status, message, progress: local.progress });
    })()
      .catch((e) => this.report(e))
      .finally(() => {
        this.local.delete(local.id);
        void this.kick();
      });
    this.local.set(v.id, local);
  }

  /** Renews every lease this process holds, records progress and stops what was cancelled or lost. */
  private async beat(): Promise<void> {
    if (this.beating || this.local.size === 0) return;
    this.beating = true;
    try {
      const store = await this.store();
      if (!store) throw new Error("the store has gone away");
      for (const j of this.local.values()) {
        if (j.lost || j.releasing) continue;
        try {
          const hb = await heartbeat(store, this.owner, j.id, j.progress, this.o.leaseMs);
          if (!hb.held) {
            j.lost = true;
            j.controller.abort(new Error("another server process took this job over"));
          } else {
            j.leaseUntil = hb.leaseUntil;
            if (hb.cancelRequested && !j.cancelled) {
              j.cancelled = true;
              j.controller.abort(new Error("cancelled from the dashboard"));
            }
          }
        } catch (e) {
          this.report(e);
          this.stopIfExpiring(j);
        }
      }
    } catch (e) {
      this.report(e);
      for (const j of this.local.values()) this.stopIfExpiring(j);
    } finally {
      this.beating = false;
    }
  }

  /** A lease that could not be renewed is given up before it can expire, so no other process overlaps with this one. */
  private stopIfExpiring(j: LocalJob) {
    if (Date.now() < j.leaseUntil - this.o.leaseMs / 3) return;
    j.lost = true;
    j.controller.abort(new Error("the store did not answer; the job's lease was given up"));
  }
}

/** A claimed job's progress as stored, before this process runs any of it. */
function progressOf(v: ClaimedJob["view"]): JobProgress {
  return { done: v.done, total: v.total, added: v.added, skipped: v.skipped, failed: 0, retries: v.retries, inFlight: 0, errors: v.errors };
}

const registry = globalThis as unknown as { __stepwiseJobWorker?: JobWorker };

function globalWorker(): JobWorker | undefined {
  return registry.__stepwiseJobWorker;
}

/**
 * The server process's worker (instrumentation.ts starts it with the server; cached across dev
 * reloads). It never creates a store: while a SQLite file does not exist there are no jobs to
 * run, and a server started before its store is set up must not race the setup.
 */
export function startJobWorker(store: () => Promise<Store>): JobWorker {
  const leaseMs = appEnv.STEPWISE_JOB_LEASE_SECONDS * 1000;
  const url = appEnv.DATABASE_URL;
  const existing = () => (providerOf(url) === "sqlite" && !fs.existsSync(sqlitePath(url)) ? Promise.resolve(null) : store());
  return (registry.__stepwiseJobWorker ??= new JobWorker(existing, {
    maxJobs: appEnv.STEPWISE_MAX_JOBS,
    leaseMs,
    heartbeatMs: Math.min(1000, leaseMs / 5),
    pollMs: 2000,
  }).start());
}
