// `stepwise ingest` turns V8's helper threads off on a machine of two cores (lib/cli/heap.ts):
// which flags, when, and that a load with them off (forced, whatever this machine's cores)
// exits cleanly with the same run as with them on, on two threads.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { v8HelperFlags } from "../../lib/cli/heap";
import { stepwise, writeRun } from "../helpers/faults";

describe("V8's helper threads for a load", () => {
  it("are off on two cores or fewer, on with more, and the setting overrides either way", () => {
    const off = v8HelperFlags(2, undefined);
    expect(off).toContain("--no-parallel-scavenge");
    expect(off).toContain("--no-concurrent-marking");
    expect(off.every((f) => f.startsWith("--no-"))).toBe(true);
    expect(v8HelperFlags(1, undefined)).toEqual(off);
    expect(v8HelperFlags(4, undefined)).toEqual([]);
    expect(v8HelperFlags(2, "on")).toEqual([]);
    expect(v8HelperFlags(16, "off")).toEqual(off);
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stepwise-v8-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("load the same run with them off as on", { timeout: 180_000 }, async () => {
    const file = path.join(dir, "run.jsonl");
    writeRun(file, { runKey: "v8-helpers", lengths: [5, 25, 45, 65, 85], itemsPerLength: 300, seed: 58 });
    const metrics: Record<string, unknown> = {};
    for (const setting of ["on", "off"]) {
      const url = `file:${path.join(dir, `${setting}.db`)}`;
      const run = (args: string[]) => stepwise(url, args, { STEPWISE_V8_HELPERS: setting }).done;
      expect((await run(["migrate"])).code).toBe(0);
      const loaded = await run(["ingest", "--threads", "2", file]);
      expect(loaded, loaded.out).toMatchObject({ code: 0, signal: null });
      const shown = await run(["metrics", "--run", "v8-helpers", "--json"]);
      expect(shown.code, shown.out).toBe(0);
      metrics[setting] = JSON.parse(shown.out);
    }
    expect(metrics.off).toEqual(metrics.on);
  });
});
