// The prompts and the parsers agree: a perfect model that reads only the prompt text and
// answers in exactly the format the prompt documents scores 100% with clean executions, for
// both families, multi- and single-turn dict-sum, and self-conditioning. The answers go through
// the runner's conversation code, so history handling (and <think> stripping) is covered too.
import { describe, expect, it } from "vitest";
import { tryAnalyseItem } from "../../lib/analysis/analyse";
import { computeRunMetrics } from "../../lib/analysis/metrics";
import { summarise } from "../../lib/analysis/analyse";
import { applyOp } from "../../lib/generate/arith";
import { generateDataset, type GenerateOptionsInput } from "../../lib/generate/dataset";
import { formatAnswer, formatNumber } from "../../lib/generate/format";
import type { ChatMessage } from "../../lib/generate/prompts";
import { runConversation, type Completer } from "../../lib/runner/conversation";
import { readDataset } from "../../lib/runner/dataset";

/** Reads the procedure from the prompt and writes the documented `S<j> = S<a> op S<b> = va op vb = v` lines. */
function arithAnswer(prompt: string): string {
  const head = prompt.split("\nRules:")[0];
  const vals: number[] = [Number(/^S1 = x = (\S+)$/m.exec(head)![1]), Number(/^S2 = y = (\S+)$/m.exec(head)![1])];
  const lines = [`S1 = ${formatNumber(vals[0])}`, `S2 = ${formatNumber(vals[1])}`];
  const operand = (v: number) => (v < 0 ? `(${formatNumber(v)})` : formatNumber(v));
  for (const m of head.matchAll(/^S(\d+) = S(\d+) ([-+*/]) S(\d+)$/gm)) {
    const [a, op, b] = [Number(m[2]), m[3], Number(m[4])];
    const v = applyOp(op, vals[a - 1], vals[b - 1]);
    vals.push(v);
    lines.push(`S${m[1]} = S${a} ${op} S${b} = ${operand(vals[a - 1])} ${op} ${operand(vals[b - 1])} = ${formatNumber(v)}`);
  }
  return [...lines, `<answer>${formatAnswer(vals[vals.length - 1])}</answer>`].join("\n");
}

const dictOf = (text: string) =>
  Object.fromEntries(
    text
      .split("Dictionary (word: value):\n")[1]
      .split("\n\n")[0]
      .split("\n")
      .map((l) => l.split(": "))
      .map(([w, v]) => [w, Number(v)]),
  );

/** Multi-turn and self-conditioning: the running sum is its own last answer plus this turn's values. */
function turnAnswer(messages: ChatMessage[], think: boolean): string {
  const dict = dictOf(messages[0].content);
  const lastOwn = [...messages].reverse().find((m) => m.role === "assistant")?.content ?? "<answer>0</answer>";
  expect(lastOwn).not.toContain("<think>"); // the runner strips thinking from the history
  const prev = Number(/<answer>(-?\d+)<\/answer>/.exec(lastOwn)![1]);
  const keys = messages[messages.length - 1].content.replace(/^Keys?: /, "").split(", ");
  const sum = prev + keys.reduce((t, k) => t + dict[k], 0);
  return `${think ? `<think>${prev} plus the values of ${keys.join(" and ")}.</think>\n` : ""}<answer>${sum}</answer>`;
}

function singleTurnAnswer(prompt: string): string {
  const dict = dictOf(prompt);
  let sum = 0;
  const sums = [...prompt.matchAll(/^Turn \d+: (.+)$/gm)].map((m) => (sum += m[1].split(", ").reduce((t, k) => t + dict[k], 0)));
  return `<answer>${sums.join(", ")}</answer>`;
}

const perfect = (think: boolean): Completer => ({
  async complete(messages) {
    const last = messages[messages.length - 1].content;
    const content = last.startsWith("Execute the following procedure")
      ? arithAnswer(last)
      : last.includes("Dictionary (word: value)")
        ? singleTurnAnswer(last)
        : turnAnswer(messages, think);
    return { content, promptTokens: 1, completionTokens: 1, latencyMs: 0, attempts: 1 };
  },
});

const cases: [string, GenerateOptionsInput, boolean][] = [
  ["arith lb3 [1,10]", { benchmark: "procedural-arith", lengths: [3, 5, 25, 60], itemsPerLength: 8, seed: 41 }, false],
  [
    "arith lb7 [0,1]",
    { benchmark: "procedural-arith", lengths: [15, 45], itemsPerLength: 8, seed: 42, lookback: 7, inputRange: [0, 1] },
    false,
  ],
  ["arith - only (negatives)", { benchmark: "procedural-arith", lengths: [20], itemsPerLength: 8, seed: 43, ops: "-" }, false],
  ["arith / only", { benchmark: "procedural-arith", lengths: [20], itemsPerLength: 8, seed: 44, ops: "/" }, false],
  ["dict-sum multi-turn K=1", { benchmark: "dict-sum", lengths: [5, 20], itemsPerLength: 6, seed: 45 }, false],
  ["dict-sum multi-turn K=3, thinking", { benchmark: "dict-sum", lengths: [7, 20], itemsPerLength: 6, seed: 46, k: 3 }, true],
  ["dict-sum single-turn K=2", { benchmark: "dict-sum", lengths: [9, 30], itemsPerLength: 6, seed: 47, singleTurn: true, k: 2 }, false],
  [
    "self-conditioning",
    { benchmark: "dict-sum", selfConditioning: true, rates: [0, 0.5, 1], targetTurn: 12, itemsPerLength: 6, seed: 48 },
    false,
  ],
];

describe("prompt round trip: a perfect model scores 100%", () => {
  it.each(cases)("%s", async (_name, opts, think) => {
    const ds = await readDataset("roundtrip.jsonl", [...generateDataset(opts)].join("\n"));
    const header = { ...ds.header, key: "roundtrip" };
    const summaries = [];
    for (const item of ds.items) {
      const conv = await runConversation(perfect(think), header, item);
      const r = tryAnalyseItem(header, { ...item, output: conv.output });
      expect(r.ok, JSON.stringify(!r.ok && r.errors)).toBe(true);
      if (!r.ok) continue;
      const a = r.analysis;
      expect({ id: item.id, modes: a.modes, clean: a.clean, first: a.firstCorrect, last: a.lastCorrect }).toEqual({
        id: item.id,
        modes: [],
        clean: true,
        first: true,
        last: true,
      });
      if (a.hasSteps) expect([a.firstDivergence, a.exactStep]).toEqual([null, true]);
      summaries.push(summarise(a, { ...item, output: conv.output }));
    }
    const { metrics, extras } = computeRunMetrics(header, summaries, { resamples: 50 });
    expect(extras.clean_executions).toBe(ds.items.length);
    for (const row of metrics.accuracy_by_length) expect([row.first_accuracy, row.last_accuracy]).toEqual([1, 1]);
    if (metrics.reliability) expect(metrics.reliability.p).toBe(1);
    if (metrics.self_conditioning) for (const pt of metrics.self_conditioning.points) expect(pt.accuracy).toBe(1);
  });
});
