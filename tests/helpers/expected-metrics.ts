import fs from "node:fs";
import path from "node:path";
import { EXAMPLES } from "./fixtures";

// Compares a run's §6 JSON with tests/fixtures/examples/expected/ under the tolerances of
// examples/README.md: exact counts, 1e-6 accuracies, p ±1e-4, predicted horizon ±0.05,
// l50/l80 within 1%, bootstrap intervals within 15% of the expected interval's width.
// `ignoreBootstrap` leaves the bootstrap intervals out: the store tests check those by exact
// equality with the pure computation, and tests/unit/analysis-examples.test.ts checks the pure
// computation against the expected intervals (with its Monte Carlo allowance).
export interface ExpectedRun {
  run: string;
  metrics: string;
  detail: string;
  file: string;
}

export function expectedRuns(): ExpectedRun[] {
  return JSON.parse(fs.readFileSync(path.join(EXAMPLES, "expected/index.json"), "utf8")).runs;
}

export function expectedMetrics(run: ExpectedRun): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(EXAMPLES, "expected", run.metrics), "utf8"));
}

type J = unknown;
const isObj = (v: J): v is Record<string, J> => typeof v === "object" && v !== null && !Array.isArray(v);

function tolerance(pathKey: string): ((a: number, e: number, width: number) => boolean) | "ci" {
  if (/(^|\.)(ci|l50_ci|l80_ci)\[\d\]$/.test(pathKey) && !/first_ci|last_ci/.test(pathKey)) return "ci";
  if (/\.p$/.test(pathKey)) return (a, e) => Math.abs(a - e) <= 1e-4;
  if (/predicted_horizon$/.test(pathKey)) return (a, e) => Math.abs(a - e) <= 0.05;
  if (/\.(l50|l80)$/.test(pathKey)) return (a, e) => Math.abs(a - e) <= 0.01 * Math.abs(e);
  if (/slope$/.test(pathKey)) return (a, e) => Math.abs(a - e) <= 1e-4;
  if (/(accuracy|_ci\[\d\])$/.test(pathKey)) return (a, e) => Math.abs(a - e) <= 1e-6;
  return (a, e) => a === e;
}

export function diffMetrics(actual: J, expected: J, at = "", ignoreBootstrap = false): string[] {
  const out: string[] = [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    if (actual.length !== expected.length) out.push(`${at}: length ${actual.length} ≠ ${expected.length}`);
    const isInterval = expected.length === 2 && expected.every((x) => typeof x === "number");
    expected.forEach((e, i) => {
      const key = `${at}[${i}]`;
      const a = actual[i];
      if (isInterval && tolerance(key) === "ci") {
        if (ignoreBootstrap) return;
        const width = Math.abs((expected[1] as number) - (expected[0] as number));
        if (typeof a !== "number" || Math.abs(a - (e as number)) > 0.15 * width + 1e-9) out.push(`${key}: ${a} vs ${e} (±15% of ${width})`);
      } else out.push(...diffMetrics(a, e, key, ignoreBootstrap));
    });
    return out;
  }
  if (isObj(expected)) {
    if (!isObj(actual)) return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    for (const k of Object.keys(expected)) {
      if (!(k in actual)) out.push(`${at}.${k}: missing`);
      else out.push(...diffMetrics(actual[k], expected[k], at ? `${at}.${k}` : k, ignoreBootstrap));
    }
    return out;
  }
  if (typeof expected === "number" && typeof actual === "number") {
    const t = tolerance(at);
    if (t !== "ci" && !t(actual, expected, 0)) out.push(`${at}: ${actual} vs ${expected}`);
    return out;
  }
  if (actual !== expected) out.push(`${at}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
  return out;
}
