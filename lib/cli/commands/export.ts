import fs from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { exportRun } from "../../store/export";
import { withStore } from "../store";
import { UsageError } from "../usage-error";

/** `stepwise export --run KEY [--out FILE]`: native JSONL on stdout or into FILE. */
export async function exportCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { run: { type: "string" }, out: { type: "string" } } });
  if (!values.run) throw new UsageError("--run KEY is required");
  const out = values.out && values.out !== "-" ? fs.createWriteStream(values.out) : process.stdout;
  const sink = pipeSink(out);
  await withStore(async (store) => {
    for await (const line of exportRun(store.prisma, values.run!)) {
      if (!(await sink.write(line + "\n"))) break; // the reader went away (`| head`): stop quietly
    }
  });
  if (sink.failure) throw sink.failure;
  if (out !== process.stdout && !sink.closed)
    await new Promise<void>((resolve, reject) => (out as fs.WriteStream).end((e?: Error | null) => (e ? reject(e) : resolve())));
  return 0;
}

/**
 * Writes with back-pressure; a reader that closes the pipe (EPIPE) ends the export quietly,
 * as `head` expects of any Unix tool, instead of a "write EPIPE" error.
 */
export function pipeSink(out: Writable) {
  let gone: () => void = () => undefined;
  const closedPromise = new Promise<void>((resolve) => (gone = resolve));
  const sink = {
    closed: false,
    failure: null as Error | null,
    async write(text: string): Promise<boolean> {
      if (sink.closed) return false;
      if (!out.write(text)) await Promise.race([once(out, "drain").catch(() => undefined), closedPromise]);
      return !sink.closed;
    },
  };
  out.on("error", (e: NodeJS.ErrnoException) => {
    sink.closed = true;
    if (e.code !== "EPIPE") sink.failure = e;
    gone();
  });
  return sink;
}
