// The import, ingest and export commands as a user runs them (bin/stepwise.mjs in a child
// process against a real store): `skipped N errored samples`, `replaced run KEY` for every
// format, `--max-errors N` lists N errors, an unreadable file named with its reason, `export … | head`
// ends quietly (issue 16, points 1, 3, 10).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lmEvalResults, lmEvalSamples, LM_STAMP, LM_TASK, writeLmTask, writeTemp } from "../fixtures/import/generate";
import { sampleError, writeInspectLog } from "../fixtures/import/inspect-logs";
import { EXAMPLES } from "../helpers/fixtures";
import { STORE_KINDS } from "../helpers/stores";

const ROOT = path.resolve(__dirname, "../..");

describe.each(STORE_KINDS)("stepwise import / ingest / export on $name", (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await kind.create()); // migrated; the CLI opens it by URL
  });
  afterAll(async () => drop?.());

  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, ["bin/stepwise.mjs", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 120_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it("prints skipped errored samples, and `replaced run KEY` on a second import or ingest", { timeout: 240_000 }, () => {
    // Inspect log: samples 2 and 4 raised ({"error": {...}, "scores": {}})
    const log = writeInspectLog({
      status: "error",
      evalId: "cli1",
      samples: [1, 2, 3, 4].map((i) =>
        i % 2 === 0
          ? { id: i, error: sampleError("RuntimeError: sandbox died") }
          : { id: i, completion: "7", scores: { match: { value: "C", answer: "7" } } },
      ),
    });
    const first = cli("import", log);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("skipped 2 errored samples (ids 2, 4)");
    expect(first.out).not.toContain("replaced run");
    const second = cli("import", log);
    expect(second.out).toMatch(/^replaced run inspect__anthropic-sim-claude__stepwise-arith_exec__cli1$/m);

    const lm = writeLmTask(LM_TASK, LM_STAMP, lmEvalSamples(4), lmEvalResults());
    cli("import", lm);
    expect(cli("import", lm).out).toMatch(/^replaced run lm-eval__.*__2025-08-01t10-20-30\.123456$/m);

    const native = writeTemp(
      "native.jsonl",
      [
        { type: "run", key: "cli__native", model: "m", benchmark: "generic", variant: "v" },
        { type: "item", id: "a", length: 2, input: {}, output: "1 2", reference: [1, 2], steps: [1, 2], answer: 2 },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n",
    );
    expect(cli("ingest", native).out).not.toContain("replaced run");
    expect(cli("ingest", native).out).toMatch(/^replaced run cli__native$/m);
  });

  it("--max-errors 3 lists exactly 3 errors and says there are more (import and ingest)", { timeout: 240_000 }, () => {
    const bad = lmEvalSamples(8)
      .trimEnd()
      .split("\n")
      .map((l) => l.replace(/"exact_match":\d(\.\d+)?/, '"exact_match":"yes"'))
      .join("\n");
    const file = writeLmTask(LM_TASK, LM_STAMP, bad + "\n", lmEvalResults());
    const r = cli("import", file, "--metric", "exact_match", "--max-errors", "3");
    expect(r.code).toBe(1);
    const errorLines = r.err.split("\n").filter((l) => l.includes("exact_match"));
    expect(errorLines).toHaveLength(3);
    expect(r.err).toMatch(/3 error\(s\) \(stopped after 3; there are more\); nothing from this file was imported/);

    const native = writeTemp("bad.jsonl", Array.from({ length: 6 }, (_, i) => `{"type":"item","id":"x${i}"}`).join("\n") + "\n");
    const n = cli("ingest", native, "--max-errors", "3");
    expect(n.code).toBe(1);
    expect(n.err).toMatch(/: 3 error\(s\) \(stopped after 3; there are more\)/);
    expect(n.err).not.toMatch(/too many errors/);
  });

  it("on two threads loads every file, the first (stdin too) on the thread started before the store opened", { timeout: 240_000 }, () => {
    const files = ["arith-small.jsonl", "dictsum-small.jsonl"].map((f) => path.join(EXAMPLES, f));
    const r = cli("ingest", "--threads", "2", ...files);
    expect(r.code, r.err).toBe(0);
    for (const f of files)
      expect(
        r.out.split("\n").some((l) => l.startsWith(`${f}: `) && l.includes(" run(s), ")),
        f,
      ).toBe(true);
    const stdin = spawnSync(process.execPath, ["bin/stepwise.mjs", "ingest", "--threads", "2", "-"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, NO_COLOR: "1" },
      encoding: "utf8",
      input: fs.readFileSync(files[0], "utf8"),
      timeout: 120_000,
    });
    expect(stdin.status, stdin.stderr).toBe(0);
    expect(stdin.stdout).toMatch(/^<stdin>: 2 run\(s\), 40 generations/m);
    // a refused first file: its thread's errors, and the next file still loads
    const r2 = cli("ingest", "--threads", "2", path.join(EXAMPLES, "invalid.jsonl"), files[1]);
    expect(r2.code).toBe(1);
    expect(r2.err).toContain("invalid.jsonl:");
    // the bundled thread loads the schemas when a line needs them (lib/native/line-reader.ts): the run line's field error comes from them
    expect(r2.err).toMatch(/invalid\.jsonl:9: model\.name: model name is required$/m);
    expect(r2.out).toMatch(/dictsum-small\.jsonl: \d+ run\(s\)/);
    // `stepwise import` the same way: the first file on the thread started ahead, the next on its own
    const logs = ["ahead1", "ahead2"].map((evalId) =>
      writeInspectLog({
        status: "success",
        evalId,
        samples: [1, 2].map((id) => ({ id, completion: "7", scores: { match: { value: "C", answer: "7" } } })),
      }),
    );
    const imported = cli("import", "--threads", "2", ...logs);
    expect(imported.code, imported.err).toBe(0);
    for (const id of ["ahead1", "ahead2"]) expect(imported.out).toMatch(new RegExp(`^imported inspect__.*__${id}: `, "m"));
    // a first file that is no import: its thread's refusal, and the next file still imports
    const refused = cli("import", "--threads", "2", path.join(EXAMPLES, "invalid.jsonl"), logs[1]);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toContain("invalid.jsonl");
    expect(refused.out).toMatch(/^replaced run inspect__.*__ahead2$/m);
    // options are parsed after the thread started: a usage error still stops it (the command ends)
    const usage = cli("import", "--threads", "2", "--format", "bogus", logs[0]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("format must be one of");
  });

  it("says why a file it cannot read was not loaded: missing, a directory (it printed nothing before)", { timeout: 120_000 }, () => {
    const dir = path.dirname(writeTemp("unused.jsonl", ""));
    const missing = path.join(dir, "missing.jsonl");
    const r = cli("ingest", dir, missing);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${dir}:0: -: is a directory, not a file`);
    expect(r.err).toContain(`${missing}:0: -: no such file`);
    expect(r.err).toContain(`${missing}: 1 error(s); nothing from this file was loaded`);
    // `import` of a harness's run directory names the file in it to import (it threw EISDIR before)
    const runDir = path.join(dir, "run-dir");
    fs.mkdirSync(runDir, { recursive: true });
    fs.writeFileSync(path.join(runDir, "notes.txt"), "");
    fs.writeFileSync(path.join(runDir, "eval_step_results.json"), "{}");
    const imported = cli("import", runDir);
    expect(imported.code).toBe(1);
    expect(imported.err).toContain(
      `${runDir}:0: -: is a directory, not a file: import the files in it, e.g. ${path.join(runDir, "eval_step_results.json")}`,
    );
    expect(imported.err).not.toContain("EISDIR");
  });

  it("`stepwise export --run KEY | head -n 1` exits quietly", { timeout: 240_000 }, async () => {
    const many = writeTemp(
      "many.jsonl",
      [
        JSON.stringify({ type: "run", key: "cli__many", model: "m", benchmark: "generic", variant: "v" }),
        ...Array.from({ length: 3000 }, (_, i) =>
          JSON.stringify({
            type: "item",
            id: `i${i}`,
            length: 2,
            input: { pad: "x".repeat(200) },
            output: "1 2",
            reference: [1, 2],
            steps: [1, 2],
            answer: 2,
          }),
        ),
      ].join("\n") + "\n",
    );
    expect(cli("ingest", many).code).toBe(0);
    const out = execFileSync("bash", ["-c", `set -o pipefail; node bin/stepwise.mjs export --run cli__many | head -n 1; echo "exit=$?"`], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toMatch(/^\{"type":"run","key":"cli__many"/);
    expect(out.trim().split("\n").pop()).toBe("exit=0");
    // stderr is checked separately: nothing, not "write EPIPE"
    const err = spawn("bash", ["-c", `node bin/stepwise.mjs export --run cli__many | head -n 1 >/dev/null`], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
    });
    let stderr = "";
    err.stderr.on("data", (d) => (stderr += d));
    await new Promise((r) => err.on("exit", r));
    expect(stderr).toBe("");
  });
});

describe("stepwise ingest on two threads, a store it cannot open", () => {
  it("ends the thread it started ahead and exits with the store's error", { timeout: 60_000 }, () => {
    const file = path.join(EXAMPLES, "arith-small.jsonl");
    const r = spawnSync(process.execPath, ["bin/stepwise.mjs", "ingest", "--threads", "2", file], {
      cwd: ROOT,
      // a directory cannot be made under a regular file
      env: { ...process.env, DATABASE_URL: `file:${file}/store.db`, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.signal, "killed by the timeout: the process did not exit").toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^stepwise: (EEXIST|ENOTDIR)/m);
    const log = writeInspectLog({
      status: "success",
      evalId: "ahead3",
      samples: [{ id: 1, completion: "7", scores: { match: { value: "C", answer: "7" } } }],
    });
    const i = spawnSync(process.execPath, ["bin/stepwise.mjs", "import", "--threads", "2", log], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${file}/store.db`, NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(i.signal, "killed by the timeout: the import did not exit").toBeNull();
    expect(i.status).toBe(1);
    expect(i.stderr).toMatch(/^stepwise: (EEXIST|ENOTDIR)/m);
  });
});
