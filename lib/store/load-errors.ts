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
