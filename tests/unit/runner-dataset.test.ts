// Datasets for `stepwise run`: what is accepted (outputs ignored, epochs collapsed) and what is
// refused before any request is made, with file:line field errors.
import { describe, expect, it } from "vitest";
import { generateDataset } from "../../lib/generate/dataset";
import { DatasetError, readDataset } from "../../lib/runner/dataset";
import { runCliSchema } from "../../lib/runner/options";
import { runHeader } from "../../lib/runner/run";

const lines = (o: Parameters<typeof generateDataset>[0]) => [...generateDataset(o)];

describe("runner datasets", () => {
  it("reads items without outputs; simulated outputs and extra epochs are ignored", async () => {
    const ds = await readDataset(
      "sim.jsonl",
      lines({ benchmark: "dict-sum", lengths: [4, 9], itemsPerLength: 3, seed: 1, k: 2, simulateP: 0.9, epochs: 2 }).join("\n"),
    );
    expect(ds.items).toHaveLength(6);
    expect(ds.items.every((i) => i.output === null && i.epoch === 0)).toBe(true);
    expect(ds.items.map((i) => i.length)).toEqual([4, 4, 4, 9, 9, 9]);
  });

  it("refuses two run lines, generic runs, and broken items, naming file, line and field", async () => {
    const arith = lines({ benchmark: "procedural-arith", lengths: [5], itemsPerLength: 2, seed: 2 });
    await expect(readDataset("two.jsonl", [...arith, ...arith].join("\n"))).rejects.toThrow(
      /two.jsonl:4 type: a dataset for `stepwise run` holds one run line/,
    );
    const broken = JSON.parse(arith[1]);
    broken.input.steps[0].a = 99;
    const e = await readDataset("bad.jsonl", [arith[0], JSON.stringify(broken), "{oops"].join("\n")).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DatasetError);
    expect((e as DatasetError).errors.map((x) => [x.line, x.field.split(".")[0]])).toEqual([
      [2, "input"],
      [3, "-"],
    ]);
    const generic =
      '{"type":"run","key":"g","model":{"name":"m"},"benchmark":"generic","variant":{"name":"v"}}\n{"type":"item","id":"a","reference":[1],"steps":[1],"answer":1}';
    await expect(readDataset("g.jsonl", generic)).rejects.toThrow(/generic items carry no procedure/);
    await expect(readDataset("empty.jsonl", "")).rejects.toThrow(/empty/);
  });

  it("records the prompt version, temperature and epochs in the run's config", async () => {
    const ds = await readDataset("a.jsonl", lines({ benchmark: "procedural-arith", lengths: [5], itemsPerLength: 1, seed: 3 }).join("\n"));
    const opts = runCliSchema.parse({
      dataset: "a.jsonl",
      endpoint: "http://user:pw@127.0.0.1:9/v1?x=1",
      model: "m",
      runKey: "k",
      epochs: "3",
      temperature: "0.7",
    });
    const h = runHeader(opts, ds);
    expect(h.config).toMatchObject({ prompt_version: "stepwise-prompts-v1", temperature: 0.7, epochs: 3 });
    expect(h.source).toMatchObject({ runner: "stepwise run", endpoint: "http://127.0.0.1:9/v1" }); // no credentials, no query
    expect(h.model).toEqual({ name: "m" });
  });
});
