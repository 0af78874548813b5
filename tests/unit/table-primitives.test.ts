import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every table of the app is built from components/table (one look, scope and caption
// everywhere); a hand-written <table>, <th> or <td> elsewhere would drift from it.
function tsxFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsxFiles(p) : p.endsWith(".tsx") ? [p] : [];
  });
}

describe("table primitives", () => {
  it("no component outside components/table writes a raw table element", () => {
    const raw = ["app", "components"]
      .flatMap(tsxFiles)
      .filter((f) => !f.startsWith(path.join("components", "table")))
      .flatMap((f) =>
        fs
          .readFileSync(f, "utf8")
          .split("\n")
          .flatMap((line, i) => (/<(table|thead|tbody|tr|th|td)[\s>/]/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(raw).toEqual([]);
  });
});
