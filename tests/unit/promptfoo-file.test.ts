import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writePromptfooExport } from "../../scripts/bench/promptfoo-file";

const run = (key: string) =>
  JSON.stringify({ type: "run", key, model: { name: "M" }, benchmark: "procedural-arith", variant: { name: "lb3", lookback: 3 } });
const input = { x: 3.5, y: 2, steps: [{ op: "+", a: 1, b: 2 }] };
const item = (id: string, answer: string, extra = {}) =>
  JSON.stringify({
    type: "item",
    id,
    length: 3,
    input,
    output: `S1 = 3.5\nS2 = 2\nS3 = S1 + S2 = 5.5\n<answer>${answer}</answer>`,
    ...extra,
  });

describe("promptfoo-file (bench: native file → promptfoo export JSON)", () => {
  it("writes one graded result per generation, a prompt column per run, and totals that match", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pf-file-"));
    const native = path.join(dir, "in.jsonl");
    fs.writeFileSync(
      native,
      [
        run("r1"),
        item("a", "5.5", { usage: { prompt_tokens: 10, completion_tokens: 4 }, latency_ms: 20 }),
        item("b", "6"),
        run("r2"),
        item("a", "5.5"),
      ].join("\n") + "\n",
    );
    const out = path.join(dir, "out.json");
    expect(await writePromptfooExport(native, out)).toEqual({ results: 3, passed: 2 });
    const doc = JSON.parse(fs.readFileSync(out, "utf8"));
    fs.rmSync(dir, { recursive: true });
    expect(doc.results.version).toBe(3);
    const rs = doc.results.results;
    expect(rs.map((r: { success: boolean; promptIdx: number; testIdx: number }) => [r.success, r.promptIdx, r.testIdx])).toEqual([
      [true, 0, 0],
      [false, 0, 1],
      [true, 1, 0],
    ]);
    expect(rs[0].testCase.vars).toEqual({ item: "a", length: 3, ...input });
    expect(doc.vars).toEqual(["item", "length", "x", "y", "steps"]);
    expect(rs[0].response.tokenUsage).toMatchObject({ prompt: 10, completion: 4, total: 14 });
    expect(rs[0].latencyMs).toBe(20);
    expect(rs[1].failureReason).toBe(1);
    expect(doc.results.prompts.map((p: { metrics: { testPassCount: number } }) => p.metrics.testPassCount)).toEqual([1, 1]);
    expect(doc.results.stats).toMatchObject({ successes: 2, failures: 1 });
  });
});
