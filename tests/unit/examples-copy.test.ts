import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { EXAMPLES } from "../helpers/fixtures";
import { describeSharedExamples, SHARED_EXAMPLES } from "../helpers/shared-data";

// tests/fixtures/examples is the repository's copy of the shared examples (the contract's
// example runs and expected metrics, located by tests/helpers/shared-data.ts); where the
// source is present the two must not drift.

const listFiles = (dir: string, sub = ""): string[] =>
  fs
    .readdirSync(path.join(dir, sub), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(dir, path.join(sub, e.name)) : [path.join(sub, e.name)]))
    .sort();

describeSharedExamples("the example fixtures equal the shared examples", () => {
  it("holds the same files", () => {
    expect(listFiles(EXAMPLES)).toEqual(listFiles(SHARED_EXAMPLES));
  });

  it("holds the same bytes in each", () => {
    for (const f of listFiles(SHARED_EXAMPLES))
      expect(fs.readFileSync(path.join(EXAMPLES, f)).equals(fs.readFileSync(path.join(SHARED_EXAMPLES, f))), f).toBe(true);
  });
});
