import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { modeRules } from "../../lib/analysis/mode-rules";
import { FAILURE_MODES } from "../../lib/analysis/types";

// The Failures tab says "does not apply" where a benchmark never sets a mode: the examples'
// expected metrics (the contract) must hold 0 there, for every kind of run they cover.
const dir = path.join(__dirname, "../fixtures/examples/expected");
const runs = fs
  .readdirSync(dir)
  .filter((f) => /^sim-.*__\d{4}-\d\d-\d\d\.json$/.test(f))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")));

describe("failure-mode rules per benchmark", () => {
  it("covers step-traced, multi-turn, single-turn and self-conditioning runs", () => {
    const kinds = new Set(runs.map((r) => `${r.benchmark}${r.self_conditioning ? " (self-conditioning)" : ""}`));
    expect([...kinds].sort()).toEqual(["dict-sum", "dict-sum (self-conditioning)", "generic", "procedural-arith"]);
  });

  it("a mode that does not apply is 0 in every expected run of that kind; every mode applies to step-traced runs", () => {
    for (const r of runs) {
      const rules = modeRules(r.benchmark, r.self_conditioning !== null);
      for (const mode of FAILURE_MODES) if (rules[mode] === null) expect(r.failure_modes[mode], `${r.run}: ${mode}`).toBe(0);
    }
    for (const b of ["procedural-arith", "generic"]) expect(Object.values(modeRules(b, false)).every((v) => v !== null)).toBe(true);
    // and the turn rules name turns
    expect(modeRules("dict-sum", false)["missing-answer"]).toContain("turn");
    expect(modeRules("dict-sum", true)["slip"]).toContain("target turn");
  });
});
