import type { LineError } from "../analysis/types";

/** Raised inside a load transaction so that it rolls back; carries every error found. */
export class LoadRejected extends Error {
  constructor(public readonly errors: LineError[]) {
    super(`${errors.length} error(s) in ${errors[0]?.file ?? "input"}; nothing was loaded`);
  }
}

export function formatLineError(e: LineError): string {
  return `${e.file}:${e.line}: ${e.field}: ${e.message}`;
}

/**
 * A load that lost a race with another load of the same run key, as a report entry rather than
 * a crash: PostgreSQL refuses the second insert of a key with a unique violation (23505) when
 * the two loads did not queue on a shared row, or picks a deadlock victim (40P01) when two
 * multi-run files lock the same runs in opposite orders; SQLite gives up after its busy
 * timeout. Nothing of the losing file is written (its transaction rolled back).
 */
export function concurrentLoadError(e: unknown, file: string, key: string | null): LineError | null {
  const code = (e as { code?: unknown })?.code;
  const run = key === null ? "a run in this file" : `run key '${key}'`;
  if (code === "23505" || code === "40P01" || code === "40001") {
    return {
      file,
      line: 0,
      field: "key",
      message: `${run} was being loaded concurrently by another load; nothing from this file was loaded; retry`,
    };
  }
  if (code === "SQLITE_BUSY") {
    return {
      file,
      line: 0,
      field: "-",
      message: `the store stayed locked by another load for 30 s; nothing from this file was loaded; retry`,
    };
  }
  return null;
}
