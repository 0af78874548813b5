// What `stepwise push` sends: a file (native JSONL to POST /api/v1/runs, anything else to the
// importer), stdin, or a run of the local store exported on the fly. Each can be opened again
// for a retry, except stdin.
import fs from "node:fs";
import { Readable } from "node:stream";
import type { Db } from "../../db";
import { exportRun } from "../../store/export";
import { UsageError } from "../usage-error";

export /** One thing to push: where it goes on the server and how to read it (again, for a retry). */
interface Source {
  label: string;
  route: "/api/v1/runs" | "/api/v1/import";
  /** bytes of the source, when known (progress) */
  size: number | null;
  open(): Readable;
  /** stdin cannot be read twice */
  retryable: boolean;
}

/** Native JSONL when the first non-empty line is a JSON object of type run or item; anything else goes to the importer. */
function isNative(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(1 << 16);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const first = head
      .subarray(0, n)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\n")
      .find((l) => l.trim() !== "");
    if (!first) return true; // empty: the server says so
    try {
      const type = (JSON.parse(first) as { type?: unknown })?.type;
      return type === "run" || type === "item"; // as the importer tells native files (lib/import/detect.ts)
    } catch {
      return false;
    }
  } finally {
    fs.closeSync(fd);
  }
}

export function fileSource(file: string): Source {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    throw new UsageError(`${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  if (!st.isFile()) throw new UsageError(`${file}: not a file`);
  return {
    label: file,
    route: isNative(file) ? "/api/v1/runs" : "/api/v1/import",
    size: st.size,
    open: () => fs.createReadStream(file),
    retryable: true,
  };
}

export function stdinSource(): Source {
  return { label: "stdin", route: "/api/v1/runs", size: null, open: () => process.stdin, retryable: false };
}

export function runSource(prisma: Db, key: string): Source {
  return {
    label: `run ${key}`,
    route: "/api/v1/runs",
    size: null,
    open: () =>
      Readable.from(
        (async function* () {
          for await (const line of exportRun(prisma, key)) yield line + "\n";
        })(),
      ),
    retryable: true,
  };
}
