// Job rows in the store (migration 0013): what POST /api/v1/jobs queued, who did, how far it got
// and which server process runs it; their columns, their view, and the one-statement transaction
// every change runs in. The queue (job-queue.ts) and the lease (job-lease.ts) write them. Times
// are epoch milliseconds of the server clocks (docs/runner.md: processes on several machines need
// synchronised clocks).
import type { Store } from "../db";
import type { RawTx } from "../store/raw";
import type { RunSettings } from "./options";

export type JobStatus = "queued" | "running" | "complete" | "incomplete" | "failed" | "cancelled";

export interface JobView {
  id: string;
  runKey: string;
  model: string;
  /** without credentials or query (the full URL stays in the settings, which are never shown) */
  endpoint: string;
  datasetName: string;
  items: number;
  /** "token <name>" or a user's email; null when shown to someone not signed in */
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  status: JobStatus;
  done: number;
  total: number;
  /** generations stored by this job (over all its sessions) */
  added: number;
  /** generations that were already stored when the job first started */
  skipped: number;
  /** generations that failed in the job's last session */
  failed: number;
  retries: number;
  inFlight: number;
  /** server sessions that ran it: more than 1 after a restart or a takeover */
  attempts: number;
  errors: string[];
  /** why the job stopped, when it did not complete */
  message: string | null;
  cancelRequested: boolean;
  /** the process holding the job's lease while it runs ("host:pid:random") */
  leaseOwner: string | null;
}

/** A job its caller now holds the lease of, with what it needs to run it. */
export interface ClaimedJob {
  view: JobView;
  settings: RunSettings;
  datasetText: string;
  leaseUntil: number;
}

export interface JobProgress {
  done: number;
  total: number;
  added: number;
  skipped: number;
  failed: number;
  retries: number;
  inFlight: number;
  errors: string[];
}

export const COLUMNS =
  '"id", "runKey", "model", "endpoint", "datasetName", "items", "createdBy", "createdAt", "startedAt", "finishedAt", "status", "done", "total", "added", "skipped", "failed", "retries", "inFlight", "attempts", "errors", "message", "cancelRequested", "leaseOwner"';
const MAX_ERRORS = 20;

export type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());

export function toView(r: Row): JobView {
  let errors: string[] = [];
  try {
    errors = JSON.parse(String(r.errors ?? "[]"));
  } catch {
    // a hand-edited row: show no errors rather than fail the page
  }
  return {
    id: String(r.id),
    runKey: String(r.runKey),
    model: String(r.model),
    endpoint: String(r.endpoint),
    datasetName: String(r.datasetName),
    items: Number(r.items),
    createdBy: String(r.createdBy),
    createdAt: iso(r.createdAt)!,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    status: String(r.status) as JobStatus,
    done: Number(r.done),
    total: Number(r.total),
    added: Number(r.added),
    skipped: Number(r.skipped),
    failed: Number(r.failed),
    retries: Number(r.retries),
    inFlight: Number(r.inFlight),
    attempts: Number(r.attempts),
    errors,
    message: r.message === null || r.message === undefined ? null : String(r.message),
    cancelRequested: Boolean(r.cancelRequested),
    leaseOwner: r.leaseOwner === null || r.leaseOwner === undefined ? null : String(r.leaseOwner),
  };
}

/** One statement in its own short transaction (SQLite's write lock, or a PostgreSQL connection). */
export function tx<T>(store: Store, fn: (t: RawTx) => Promise<T>): Promise<T> {
  return store.raw.transaction(fn);
}

export const progressColumns = (p: JobProgress, first: number) => ({
  sql: `"done" = $${first}, "total" = $${first + 1}, "added" = $${first + 2}, "skipped" = $${first + 3}, "failed" = $${first + 4}, "retries" = $${first + 5}, "inFlight" = $${first + 6}, "errors" = $${first + 7}`,
  params: [p.done, p.total, p.added, p.skipped, p.failed, p.retries, p.inFlight, JSON.stringify(p.errors.slice(0, MAX_ERRORS))],
});

/** What a reader sees: who started a job and which process runs it only for the signed in (or token holders). */
export function jobForReader(job: JobView, signedIn: boolean): JobView {
  return signedIn ? job : { ...job, createdBy: null, leaseOwner: null };
}
