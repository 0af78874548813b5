import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePyLiteral, PyLiteralError } from "../../lib/import/pylit";
import { sniffHead, detectDocument } from "../../lib/import/detect";
import { parseImportOptions } from "../../lib/import/options";
import { modelFromFileName } from "../../lib/import/selfcond";
import { taskFromFileName } from "../../lib/import/lmeval-files";

describe("Python literal parser", () => {
  it("reads what str() writes", () => {
    expect(parsePyLiteral("['<NoOp>', 5]")).toEqual(["<NoOp>", 5]);
    expect(parsePyLiteral("[1.0, 0.98, -3e-05, inf]")).toEqual([1, 0.98, -3e-5, Infinity]);
    expect(parsePyLiteral("[True, False, None]")).toEqual([true, false, null]);
    expect(parsePyLiteral(`["it's", 'say "hi"', 'a\\nb\\x1fc\\u00e9\\\\']`)).toEqual(["it's", 'say "hi"', "a\nb\x1fc\u00e9\\"]);
    expect(parsePyLiteral("{'input': ['apple', 'kiwi'], 'output': [5, 7], 3: (1, 2)}")).toEqual({
      input: ["apple", "kiwi"],
      output: [5, 7],
      3: [1, 2],
    });
    expect(parsePyLiteral("[np.int64(5), np.float64(0.5)]")).toEqual([5, 0.5]);
    expect(parsePyLiteral("[]")).toEqual([]);
    expect(parsePyLiteral(" [ 1 , 2 , ] ")).toEqual([1, 2]);
  });

  it("refuses anything that is not a literal, saying where", () => {
    for (const bad of ["[1, 2", "__import__('os')", "[1] + [2]", "['a]", "[1 2]", "{1: }", "os.system('x')", "lambda: 1", "[1, 2] [3]"]) {
      expect(() => parsePyLiteral(bad), bad).toThrow(PyLiteralError);
    }
    expect(() => parsePyLiteral("[".repeat(5000))).toThrow(/too deep/);
  });

  it("never throws anything but a PyLiteralError, on any text (fuzz)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[[\]{}()'",:\\ 0-9a-zTFN.eE+-]*$/)), (s) => {
        try {
          parsePyLiteral(s);
        } catch (e) {
          expect(e).toBeInstanceOf(PyLiteralError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("round-trips JSON-like values written the Python way", () => {
    const py = (v: unknown): string =>
      v === null
        ? "None"
        : v === true
          ? "True"
          : v === false
            ? "False"
            : typeof v === "string"
              ? `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`
              : Array.isArray(v)
                ? `[${v.map(py).join(", ")}]`
                : String(v);
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, fc.integer(), fc.boolean(), fc.constant(null), fc.string(), fc.array(tie("v"), { maxLength: 4 })),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        expect(parsePyLiteral(py(v))).toEqual(v);
      }),
      { numRuns: 500 },
    );
  });
});

describe("format detection and names", () => {
  const b = (s: string) => new TextEncoder().encode(s);
  it("sniffs by content", () => {
    expect(sniffHead(Uint8Array.from([0x50, 0x4b, 3, 4, 0]))).toEqual({ kind: "zip" });
    expect(sniffHead(b('{"doc_id": 0, "resps": [], "filtered_resps": [], "filter": "none"}\n{"doc_id": 1}\n'))).toEqual({
      kind: "jsonl",
      format: "lm-eval",
    });
    expect(sniffHead(b('{"task_id": "a", "human_minutes": 3, "score_binarized": 1}\n'))).toEqual({ kind: "jsonl", format: "metr" });
    expect(sniffHead(b('{\n  "experiment": "self_conditioning"'))).toEqual({ kind: "json" });
    expect(sniffHead(b('{"type":"run","key":"k"}\n{"type":"item"}\n'))).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/stepwise ingest/),
    });
    expect(sniffHead(b(""))).toMatchObject({ kind: "unknown" });
    expect(detectDocument({ experiment: "self_conditioning" })).toEqual({ format: "selfcond" });
    expect(detectDocument({ step_logs: [] })).toEqual({ format: "eval-steps" });
    expect(detectDocument({ run_info: {}, detailed_experiment_outputs: {} })).toEqual({ format: "experiment-results" });
    expect(detectDocument({ experiment: "standard" })).toMatchObject({ format: null });
  });

  it("names the reproduction's models from the file name", () => {
    expect(modelFromFileName("x/self_conditioning_27B_3Q.json")?.name).toBe("Qwen3.5-27B-Q3");
    expect(modelFromFileName("self_conditioning_80B_3A_5Q.json")?.name).toBe("Qwen3-Coder-Next-80B");
    expect(modelFromFileName("self_conditioning_35B_3A_8Q.json")?.name).toBe("Qwen3.5-35B-A3B-Q8");
    expect(modelFromFileName("self_conditioning_122B_10A_3Q.json")?.name).toBe("Qwen3.5-122B-A10B-Q3");
    expect(modelFromFileName("results.json")).toBeNull();
    expect(taskFromFileName("out/samples_gsm8k_cot_2024-05-20T10-11-12.123456.jsonl")).toEqual({
      task: "gsm8k_cot",
      stamp: "2024-05-20T10-11-12.123456",
    });
  });

  it("shares one option schema between CLI and API", () => {
    expect(parseImportOptions({})).toMatchObject({ ok: true, options: { format: "auto", weighting: "invsqrt_task_weight" } });
    expect(parseImportOptions({ maxErrors: "5" })).toMatchObject({ ok: true, options: { maxErrors: 5 } });
    expect(parseImportOptions({ format: "csv" })).toMatchObject({ ok: false, error: expect.stringMatching(/format must be one of/) });
    expect(parseImportOptions({ colour: "red" })).toMatchObject({ ok: false, error: expect.stringMatching(/unknown option/) });
  });
});
