import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeDemoFile } from "../../generate/demo";
import { formatLineError } from "../../store/load-errors";
import { loadNative } from "../../store/load";
import { progressBar } from "../progress";
import { withStore } from "../store";

/** Loads the simulated demo runs (deterministic), or does nothing on a store with runs. */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { "if-empty": { type: "boolean" } } });
  return withStore(async (store) => {
    if (values["if-empty"] && (await store.prisma.run.count()) > 0) {
      console.log("store already holds runs; demo not loaded");
      return 0;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-demo-"));
    const file = path.join(dir, "demo.jsonl");
    try {
      await writeDemoFile(file);
      const bar = progressBar("demo", "generations");
      const report = await loadNative(store, file, fs.createReadStream(file), {
        demo: true,
        onProgress: (p) => bar.update(p.generations, null),
      });
      bar.done();
      if (!report.ok) {
        for (const e of report.errors.slice(0, 20)) console.error(formatLineError(e));
        return 1;
      }
      console.log(`demo loaded: ${report.runs.length} runs, ${report.generations} generations, ${report.steps} steps`);
      return 0;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
