import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The type-level tests (tests/types/*.ts) are checked by `tsc --noEmit`. This makes sure tsc
// sees them, and that each `@ts-expect-error` there marks a real error: with the directives
// taken out, every marked line must fail to compile (an expectation that no longer holds would
// otherwise only show up as an unused directive, or not at all if the file left tsc's view).

const root = path.resolve(__dirname, "../..");
const FILE = path.join(root, "tests/types/run-access.ts");

function project() {
  const cfg = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(cfg.config, ts.sys, root);
}

describe("type-level tests", () => {
  it("are part of the tsc project", () => {
    expect(project().fileNames.map((f) => path.resolve(f))).toContain(FILE);
  });

  it("each @ts-expect-error in tests/types/run-access.ts marks a real error", () => {
    const text = fs.readFileSync(FILE, "utf8");
    const lines = text.split("\n");
    const marked = lines.flatMap((l, i) => (/^\s*\/\/ @ts-expect-error/.test(l) ? [i + 1] : []));
    expect(marked.length).toBeGreaterThanOrEqual(8);
    // The same file without the directives (blank lines keep the line numbers).
    const stripped = lines.map((l) => (/^\s*\/\/ @ts-expect-error/.test(l) ? "" : l)).join("\n");
    const { options } = project();
    const host = ts.createCompilerHost({ ...options, incremental: false });
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, onError, create) =>
      path.resolve(name) === FILE ? ts.createSourceFile(name, stripped, lang) : read(name, lang, onError, create);
    const program = ts.createProgram({ rootNames: [FILE], options: { ...options, incremental: false, noEmit: true }, host });
    const source = program.getSourceFile(FILE)!;
    const errorLines = new Set(program.getSemanticDiagnostics(source).map((d) => source.getLineAndCharacterOfPosition(d.start!).line + 1));
    for (const line of marked) expect(errorLines.has(line + 1), `line ${line + 1}: ${lines[line].trim()}`).toBe(true);
    // And nothing else in the file is an error.
    expect([...errorLines].filter((l) => !marked.includes(l - 1))).toEqual([]);
  });
});
