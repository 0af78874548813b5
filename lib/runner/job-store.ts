// Job rows in the store (migration 0013): what POST /api/v1/jobs queued, who did, how far it got
// and which server process runs it. Every state change is one conditional UPDATE, so two server
// processes on one store can race freely: a job is taken only while its lease is free or expired,
// renewed only by its owner, and finished only by its owner. Times are epoch milliseconds of the
// server clocks (docs/runner.md: processes on several machines need synchronised clocks).
import type { Store } from "../db";
import type { RawTx } from "../store/raw";
import type { RunSettings } from "./options";
import { redact } from "./run";

export type JobStatus = "queued" | "running" | "complete" | "incomplete" | "failed" | "cancelled";
export const LIVE_STATUSES: readonly JobStatus[] = ["queued", "running"];

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

export class JobInputError extends Error {}

const COLUMNS =
  '"id", "runKey", "model", "endpoint", "datasetName", "items", "createdBy", "createdAt", "startedAt", "finishedAt", "status", "done", "total", "added", "skipped", "failed", "retries", "inFlight", "attempts", "errors", "message", "cancelRequested", "leaseOwner"';
const MAX_ERRORS = 20;

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());

function toView(r: Row): JobView {
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
function tx<T>(store: Store, fn: (t: RawTx) => Promise<T>): Promise<T> {
  return store.raw.transaction(fn);
}

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; message?: string };
  return err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(err.message ?? "");
};

export interface NewJob {
  id: string;
  settings: RunSettings;
  datasetName: string;
  datasetText: string;
  items: number;
  createdBy: string;
}

/** Queues a job. One live (queued or running) job per run key, enforced by a partial unique index. */
export async function insertJob(store: Store, job: NewJob, now = Date.now()): Promise<JobView> {
  const s = job.settings;
  try {
    await tx(store, async (t) => {
      await t.exec(
        `INSERT INTO "Job" ("id", "runKey", "model", "endpoint", "datasetName", "items", "settings", "status", "createdBy", "createdAt", "total")
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $10)`,
        [
          job.id,
          s.runKey,
          s.model,
          redact(s.endpoint),
          job.datasetName,
          job.items,
          JSON.stringify(s),
          job.createdBy,
          now,
          job.items * s.epochs,
        ],
      );
      await t.exec('INSERT INTO "JobDataset" ("jobId", "text") VALUES ($1, $2)', [job.id, job.datasetText]);
    });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const live = await tx(store, (t) =>
      t.query<{ id: string; status: string }>(
        `SELECT "id", "status" FROM "Job" WHERE "runKey" = $1 AND "status" IN ('queued', 'running')`,
        [s.runKey],
      ),
    );
    throw new JobInputError(
      live[0] ? `run ${s.runKey} is already ${live[0].status} as job ${live[0].id}` : `run ${s.runKey} already has a live job`,
    );
  }
  return (await getJob(store, job.id))!;
}

export async function getJob(store: Store, id: string): Promise<JobView | null> {
  const rows = await tx(store, (t) => t.query<Row>(`SELECT ${COLUMNS} FROM "Job" WHERE "id" = $1`, [id]));
  return rows[0] ? toView(rows[0]) : null;
}

/** The newest jobs first (live ones are always listed). */
export async function listJobs(store: Store, limit = 200): Promise<JobView[]> {
  const rows = await tx(store, (t) =>
    t.query<Row>(
      `SELECT ${COLUMNS} FROM "Job" WHERE "status" IN ('queued', 'running')
       UNION SELECT * FROM (SELECT ${COLUMNS} FROM "Job" ORDER BY "createdAt" DESC, "id" LIMIT $1) recent`,
      [limit],
    ),
  );
  return rows.map(toView).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

export type CancelOutcome = "cancelled" | "requested" | "not-live" | "missing";

/**
 * A queued job is cancelled at once; a running one is flagged, and its owner's next heartbeat
 * stops it (or, if the owner is dead, the process that takes the lease over ends it instead).
 */
export async function cancelJob(store: Store, id: string, now = Date.now()): Promise<CancelOutcome> {
  return tx(store, async (t) => {
    const queued = await t.exec(
      `UPDATE "Job" SET "status" = 'cancelled', "finishedAt" = $2, "message" = 'cancelled before it started' WHERE "id" = $1 AND "status" = 'queued'`,
      [id, now],
    );
    if (queued) {
      await t.exec('DELETE FROM "JobDataset" WHERE "jobId" = $1', [id]);
      return "cancelled";
    }
    const running = await t.exec(`UPDATE "Job" SET "cancelRequested" = $2 WHERE "id" = $1 AND "status" = 'running'`, [id, true]);
    if (running) return "requested";
    const exists = await t.query('SELECT 1 AS "x" FROM "Job" WHERE "id" = $1', [id]);
    return exists.length ? "not-live" : "missing";
  });
}

export interface ClaimOptions {
  owner: string;
  /** at most this many jobs hold live leases in the whole store (STEPWISE_MAX_JOBS) */
  maxJobs: number;
  leaseMs: number;
  now?: number;
}

/**
 * Takes the lease of the oldest runnable job: a running job whose lease has expired (its process
 * died) before any queued one. Null when none is runnable or maxJobs live leases exist. The count
 * and the take are serialised across processes (SQLite's write lock; a PostgreSQL advisory lock),
 * and the take itself is a conditional UPDATE that only succeeds on a free or expired lease.
 */
export async function claimJob(store: Store, o: ClaimOptions): Promise<ClaimedJob | null> {
  const now = o.now ?? Date.now();
  const until = now + o.leaseMs;
  for (;;) {
    const outcome = await tx(store, async (t) => {
      if (t.provider === "postgres") await t.exec("SELECT pg_advisory_xact_lock(7150314)");
      const [{ live }] = await t.query<{ live: unknown }>(
        `SELECT COUNT(*) AS "live" FROM "Job" WHERE "status" = 'running' AND "leaseUntil" > $1`,
        [now],
      );
      if (Number(live) >= o.maxJobs) return null;
      const candidates = await t.query<{ id: string; cancelRequested: unknown }>(
        `SELECT "id", "cancelRequested" FROM "Job"
         WHERE "status" = 'queued' OR ("status" = 'running' AND ("leaseUntil" IS NULL OR "leaseUntil" <= $1))
         ORDER BY CASE WHEN "status" = 'running' THEN 0 ELSE 1 END, "createdAt", "id" LIMIT 1`,
        [now],
      );
      const c = candidates[0];
      if (!c) return null;
      if (Boolean(c.cancelRequested)) {
        // its owner died after a cancel was asked for: end it here instead of running it again
        await t.exec(
          `UPDATE "Job" SET "status" = 'cancelled', "finishedAt" = $2, "leaseOwner" = NULL, "leaseUntil" = NULL, "inFlight" = 0,
           "message" = 'cancelled (the server running it had stopped)' WHERE "id" = $1 AND "status" = 'running'`,
          [c.id, now],
        );
        await t.exec('DELETE FROM "JobDataset" WHERE "jobId" = $1', [c.id]);
        return "again" as const;
      }
      const taken = await t.exec(
        `UPDATE "Job" SET "status" = 'running', "leaseOwner" = $2, "leaseUntil" = $3, "attempts" = "attempts" + 1,
         "startedAt" = COALESCE("startedAt", $4), "inFlight" = 0
         WHERE "id" = $1 AND ("status" = 'queued' OR ("status" = 'running' AND ("leaseUntil" IS NULL OR "leaseUntil" <= $4)))`,
        [c.id, o.owner, until, now],
      );
      if (!taken) return "again" as const;
      const [row] = await t.query<Row>(
        `SELECT ${COLUMNS}, "settings", (SELECT "text" FROM "JobDataset" d WHERE d."jobId" = "Job"."id") AS "datasetText" FROM "Job" WHERE "id" = $1`,
        [c.id],
      );
      return row;
    });
    if (outcome === "again") continue;
    if (!outcome) return null;
    return {
      view: toView(outcome),
      settings: JSON.parse(String(outcome.settings)) as RunSettings,
      datasetText: outcome.datasetText === null || outcome.datasetText === undefined ? "" : String(outcome.datasetText),
      leaseUntil: until,
    };
  }
}

const progressColumns = (p: JobProgress, first: number) => ({
  sql: `"done" = $${first}, "total" = $${first + 1}, "added" = $${first + 2}, "skipped" = $${first + 3}, "failed" = $${first + 4}, "retries" = $${first + 5}, "inFlight" = $${first + 6}, "errors" = $${first + 7}`,
  params: [p.done, p.total, p.added, p.skipped, p.failed, p.retries, p.inFlight, JSON.stringify(p.errors.slice(0, MAX_ERRORS))],
});

export interface Heartbeat {
  /** false: the lease is no longer ours (taken over after it expired, or the job ended); stop */
  held: boolean;
  cancelRequested: boolean;
  leaseUntil: number;
}

/** Renews the owner's lease and records progress, in one conditional UPDATE. */
export async function heartbeat(
  store: Store,
  owner: string,
  id: string,
  progress: JobProgress,
  leaseMs: number,
  now = Date.now(),
): Promise<Heartbeat> {
  const until = now + leaseMs;
  const p = progressColumns(progress, 4);
  const rows = await tx(store, (t) =>
    t.query<{ cancelRequested: unknown }>(
      `UPDATE "Job" SET "leaseUntil" = $3, ${p.sql} WHERE "id" = $1 AND "leaseOwner" = $2 AND "status" = 'running' RETURNING "cancelRequested"`,
      [id, owner, until, ...p.params],
    ),
  );
  return rows[0]
    ? { held: true, cancelRequested: Boolean(rows[0].cancelRequested), leaseUntil: until }
    : { held: false, cancelRequested: false, leaseUntil: 0 };
}

/** Ends a job its caller holds; false when the lease was lost (the new owner finishes it). */
export async function finishJob(
  store: Store,
  owner: string,
  id: string,
  end: { status: Exclude<JobStatus, "queued" | "running">; message: string | null; progress: JobProgress },
  now = Date.now(),
): Promise<boolean> {
  const p = progressColumns({ ...end.progress, inFlight: 0 }, 6);
  return tx(store, async (t) => {
    const n = await t.exec(
      `UPDATE "Job" SET "status" = $3, "message" = $4, "finishedAt" = $5, "leaseOwner" = NULL, "leaseUntil" = NULL, ${p.sql}
       WHERE "id" = $1 AND "leaseOwner" = $2 AND "status" = 'running'`,
      [id, owner, end.status, end.message, now, ...p.params],
    );
    if (n) await t.exec('DELETE FROM "JobDataset" WHERE "jobId" = $1', [id]);
    return n > 0;
  });
}

/** Lets go of a running job without ending it (a server shutting down): any process may take it at once. */
export async function releaseJob(store: Store, owner: string, id: string, progress: JobProgress): Promise<boolean> {
  const p = progressColumns({ ...progress, inFlight: 0 }, 3);
  const n = await tx(store, (t) =>
    t.exec(`UPDATE "Job" SET "leaseUntil" = 0, ${p.sql} WHERE "id" = $1 AND "leaseOwner" = $2 AND "status" = 'running'`, [
      id,
      owner,
      ...p.params,
    ]),
  );
  return n > 0;
}

/** What a reader sees: who started a job and which process runs it only for the signed in (or token holders). */
export function jobForReader(job: JobView, signedIn: boolean): JobView {
  return signedIn ? job : { ...job, createdBy: null, leaseOwner: null };
}
