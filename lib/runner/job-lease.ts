// Job leases: which server process runs a job. Every state change is one conditional UPDATE, so
// two server processes on one store can race freely: a job is taken only while its lease is free
// or expired, renewed only by its owner, and finished only by its owner.
import type { Store } from "../db";
import { COLUMNS, progressColumns, toView, tx, type ClaimedJob, type JobProgress, type JobStatus, type Row } from "./job-rows";
import type { RunSettings } from "./options";

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
      // a released lease (leaseUntil 0, releaseJob) is not renewed by a heartbeat that was already on its way
      `UPDATE "Job" SET "leaseUntil" = $3, ${p.sql} WHERE "id" = $1 AND "leaseOwner" = $2 AND "status" = 'running' AND ("leaseUntil" IS NULL OR "leaseUntil" <> 0) RETURNING "cancelRequested"`,
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
