import fs from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { exportRun } from "../../store/export";
import { UsageError, withStore } from "../store";

/** `stepwise export --run KEY [--out FILE]`: native JSONL on stdout or into FILE. */
export async function exportCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { run: { type: "string" }, out: { type: "string" } } });
  if (!values.run) throw new UsageError("--run KEY is required");
  const out = values.out && values.out !== "-" ? fs.createWriteStream(values.out) : process.stdout;
  await withStore(async (store) => {
    for await (const line of exportRun(store.prisma, values.run!)) {
      if (!out.write(line + "\n")) await once(out, "drain");
    }
  });
  if (out !== process.stdout)
    await new Promise<void>((resolve, reject) => (out as fs.WriteStream).end((e?: Error | null) => (e ? reject(e) : resolve())));
  return 0;
}
