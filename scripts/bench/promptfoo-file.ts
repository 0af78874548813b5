// `tsx scripts/bench/promptfoo-file.ts IN.jsonl OUT.json`: one native JSONL file (SPEC §5) as
// the JSON `promptfoo eval -o out.json` / `promptfoo export eval` writes (a version-3 results
// file), for `promptfoo import` (scripts/bench/compare-promptfoo.ts). One result per
// generation: the item's id, length and input as vars, its output text as the response output,
// pass/fail as our loader grades the final answer, latency, token usage and cost when the line
// has them. Each run is one prompt column (promptIdx); testIdx counts items within the run.
// Lean: a result's `vars` and `tokenUsage`, which promptfoo's own export repeats from
// testCase.vars and response.tokenUsage, are left out (the import stores neither; the eval's
// var names go in the top-level `vars`). With them, 100,000 of our results make a 579 MB
// file, past V8's longest string (537 M characters): `promptfoo import` reads the file into
// one string and fails ("Invalid string length").
// The prompt is a template, not the text sent: the native file does not hold that text, so
// neither store gets it. Written as it is read; only the per-run totals are kept.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { tryAnalyseItem } from "../../lib/analysis/analyse";
import type { RunHeader } from "../../lib/analysis/types";
import { parseItemLine, parseRunLine } from "../../lib/native/schema";
import { readLines } from "../../lib/store/read-lines";

interface Column {
  header: RunHeader;
  prompt: { raw: string; label: string };
  promptId: string;
  provider: { id: string; label: string };
  items: number;
  pass: number;
  fail: number;
  latencyMs: number;
  cost: number;
  tokens: { prompt: number; completion: number; total: number; numRequests: number };
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function column(header: RunHeader): Column {
  const label = header.key;
  const version = typeof header.config?.prompt_version === "string" ? header.config.prompt_version : "prompt";
  return {
    header,
    prompt: { raw: `[${version}] ${header.benchmark} ${header.variant.name}: item {{item}} of length {{length}}`, label },
    // promptfoo's hashPrompt: sha256 of the label; Eval.create keys the prompts table with it
    promptId: createHash("sha256").update(label).digest("hex"),
    provider: { id: `stepwise:${header.model.name}`, label: header.model.name },
    items: 0,
    pass: 0,
    fail: 0,
    latencyMs: 0,
    cost: 0,
    tokens: { prompt: 0, completion: 0, total: 0, numRequests: 0 },
  };
}

/** Writes the promptfoo export of `nativeFile` to `outFile`; returns the number of results. */
export async function writePromptfooExport(nativeFile: string, outFile: string): Promise<{ results: number; passed: number }> {
  const fd = fs.openSync(outFile, "w");
  let pending = "";
  const write = (s: string) => {
    pending += s;
    if (pending.length >= 1 << 20) {
      fs.writeSync(fd, pending);
      pending = "";
    }
  };
  const columns: Column[] = [];
  let current: Column | null = null;
  let results = 0;
  let lineNo = 0;
  const varNames = new Set<string>();
  try {
    for await (const line of readLines(fs.createReadStream(nativeFile, { highWaterMark: 1 << 20 }))) {
      lineNo++;
      if (line.length === 0) continue;
      const obj = JSON.parse(line) as { type?: string };
      const fail = (errors: { field: string; message: string }[]) => {
        throw new Error(`${nativeFile}:${lineNo}: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`);
      };
      if (obj.type === "run") {
        const { header, errors } = parseRunLine(obj);
        if (!header) return fail(errors);
        if (columns.length === 0) {
          const ts = header.created_at ?? "2026-01-01T00:00:00.000Z";
          write(
            `{"evalId":${JSON.stringify(`eval-stepwise-${header.key}`.slice(0, 100))},"results":{"version":3,"timestamp":"${ts}","results":[`,
          );
        }
        current = column(header);
        columns.push(current);
        continue;
      }
      if (!current) return fail([{ field: "type", message: "an item line before any run line" }]);
      const { item, errors } = parseItemLine(obj);
      if (!item) return fail(errors);
      const r = tryAnalyseItem(current.header, item);
      if (!r.ok) return fail(r.errors);
      const a = r.analysis;
      const success = a.lastCorrect;
      const expected = a.reference.length ? a.reference[a.reference.length - 1] : null;
      const reason = success
        ? `final answer ${a.lastAnswer} is correct`
        : `final answer ${a.lastAnswer ?? "(none)"}, expected ${expected ?? "(none)"}`;
      const prompt = item.usage?.prompt_tokens ?? 0;
      const completion = item.usage?.completion_tokens ?? 0;
      const tokenUsage = { total: prompt + completion, prompt, completion, numRequests: 1 };
      const latencyMs = num(item.latency_ms);
      const cost = num(item.cost_usd);
      const c = current;
      const vars = { item: item.id, length: a.length, ...item.input };
      for (const k in vars) varNames.add(k);
      write(
        (results ? "," : "") +
          JSON.stringify({
            cost,
            error: success ? undefined : reason,
            gradingResult: { pass: success, score: success ? 1 : 0, reason },
            latencyMs,
            namedScores: {},
            prompt: c.prompt,
            promptId: c.promptId,
            promptIdx: columns.length - 1,
            provider: c.provider,
            response: { output: item.output ?? "", tokenUsage },
            score: success ? 1 : 0,
            success,
            testCase: { vars, ...(item.epoch ? { metadata: { epoch: item.epoch } } : {}) },
            testIdx: c.items,
            metadata: {},
            failureReason: success ? 0 : 1, // promptfoo's ResultFailureReason: NONE, ASSERT
          }),
      );
      results++;
      c.items++;
      if (success) c.pass++;
      else c.fail++;
      c.latencyMs += latencyMs ?? 0;
      c.cost += cost ?? 0;
      c.tokens.prompt += prompt;
      c.tokens.completion += completion;
      c.tokens.total += prompt + completion;
      c.tokens.numRequests++;
    }
    if (columns.length === 0) throw new Error(`${nativeFile}: no run line`);
    const total = (k: "pass" | "fail") => columns.reduce((t, c) => t + c[k], 0);
    const tokens = { prompt: 0, completion: 0, total: 0, numRequests: 0 };
    for (const c of columns) for (const k of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[k] += c.tokens[k];
    const prompts = columns.map((c) => ({
      ...c.prompt,
      id: c.promptId,
      provider: c.provider.id,
      metrics: {
        score: c.pass,
        testPassCount: c.pass,
        testFailCount: c.fail,
        testErrorCount: 0,
        assertPassCount: c.pass,
        assertFailCount: c.fail,
        totalLatencyMs: c.latencyMs,
        tokenUsage: c.tokens,
        namedScores: {},
        namedScoresCount: {},
        cost: c.cost,
      },
    }));
    const first = columns[0].header;
    const config = {
      description: `${first.benchmark} ${first.variant.name} (stepwise native file)`,
      prompts: columns.map((c) => c.prompt.raw),
      providers: columns.map((c) => c.provider),
      tests: "file://items.jsonl", // a dataset file, as one would point promptfoo at it
    };
    write(
      `],"prompts":${JSON.stringify(prompts)},"stats":${JSON.stringify({ successes: total("pass"), failures: total("fail"), errors: 0, tokenUsage: tokens })}},` +
        `"vars":${JSON.stringify([...varNames])},"config":${JSON.stringify(config)},"metadata":${JSON.stringify({ promptfooVersion: "0.121.20", evaluationCreatedAt: first.created_at ?? "2026-01-01T00:00:00.000Z" })}}\n`,
    );
    fs.writeSync(fd, pending);
    return { results, passed: total("pass") };
  } finally {
    fs.closeSync(fd);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [inFile, outFile] = process.argv.slice(2);
  if (!inFile || !outFile) {
    console.error("usage: tsx scripts/bench/promptfoo-file.ts IN.jsonl OUT.json");
    process.exit(2);
  }
  const r = await writePromptfooExport(inFile, outFile);
  console.log(`${outFile}: ${r.results} results (${r.passed} passed), ${(fs.statSync(outFile).size / 1e6).toFixed(1)} MB`);
}
