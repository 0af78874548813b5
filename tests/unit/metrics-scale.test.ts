import { describe, expect, it } from "vitest";
import { computeRunMetrics } from "../../lib/analysis/metrics";
import type { GenerationSummary, RunHeader } from "../../lib/analysis/types";

// A run of 300,000 generations must go through the metrics (no spread of huge arrays into
// Math.max, which overflows the call stack around 10^5 arguments).
describe("run metrics at scale", () => {
  it("handles 300,000 generations", () => {
    const header: RunHeader = {
      key: "scale",
      model: { name: "m" },
      benchmark: "procedural-arith",
      variant: { name: "v" },
      config: {},
      source: null,
      created_at: null,
    };
    const summaries: GenerationSummary[] = Array.from({ length: 300_000 }, (_, i) => {
      const length = 5 + (i % 10) * 10;
      const fd = i % 3 === 0 ? 1 + (i % length) : null;
      return {
        itemKey: `i${i}`,
        epoch: 0,
        length,
        firstCorrect: fd === null,
        lastCorrect: fd === null,
        firstDivergence: fd,
        statuses: "c".repeat(length),
        modes: 0,
        cluster: null,
        selfConditioning: null,
        clean: fd === null,
        exactStep: true,
        promptTokens: null,
        completionTokens: null,
        latencyMs: null,
        costUsd: null,
      };
    });
    const { metrics } = computeRunMetrics(header, summaries, { resamples: 20 });
    expect(metrics.generations).toBe(300_000);
    expect(metrics.accuracy_by_length).toHaveLength(10);
  });
});
