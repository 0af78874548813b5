// The job queue: a job is queued by one INSERT (one live job per run key, a partial unique
// index), read, listed, and cancelled by conditional UPDATEs, so any server process may do any
// of it at any time.
import type { Store } from "../db";
import { COLUMNS, toView, tx, type JobView, type Row } from "./job-rows";
import type { RunSettings } from "./options";
import { redact } from "./run";

export class JobInputError extends Error {}

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
