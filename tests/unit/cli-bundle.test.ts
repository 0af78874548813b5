import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundled } from "../../bin/bundle.mjs";

// bin/bundle.mjs runs the CLI from prebuilt JavaScript; a bundle that outlived an edit to lib/
// would run stale code, so staleness is what this checks.
const dir = path.resolve("tests/output/bundle-fixture");
const name = `test-${process.pid}`;

function write(file: string, text: string) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}
const run = (bundleDir: string) => execFileSync(process.execPath, [path.join(bundleDir, "main.mjs")], { encoding: "utf8" }).trim();

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  const cache = path.resolve("node_modules/.cache/stepwise");
  for (const e of fs.readdirSync(cache)) if (e.startsWith(name)) fs.rmSync(path.join(cache, e), { recursive: true, force: true });
});

describe("CLI bundle", () => {
  it("builds once, reuses while its inputs are unchanged, rebuilds after an edit to any of them", async () => {
    write("dep.ts", `export const answer: number = 41;\n`);
    write("main.ts", `import { answer } from "./dep";\nconst later = await import("./lazy");\nconsole.log(answer + later.one);\n`);
    write("lazy.ts", `export const one = 1;\n`);
    const first = await bundled(name, { main: "tests/output/bundle-fixture/main.ts" });
    expect(run(first)).toBe("42");
    expect(await bundled(name, { main: "tests/output/bundle-fixture/main.ts" })).toBe(first);

    // same size, new content: the mtime alone must tell
    await new Promise((r) => setTimeout(r, 20));
    write("lazy.ts", `export const one = 2;\n`);
    const second = await bundled(name, { main: "tests/output/bundle-fixture/main.ts" });
    expect(second).not.toBe(first);
    expect(run(second)).toBe("43");
  });

  it("holds zod and the checkout's path aliases, and leaves other packages to node_modules", async () => {
    write(
      "pkgs.ts",
      [
        `import { z } from "zod";`,
        `import Database from "better-sqlite3";`,
        `import { FAILURE_MODES } from "@/lib/analysis/types";`,
        `console.log(z.string().parse("ok"), typeof Database, FAILURE_MODES.length > 0);`,
      ].join("\n"),
    );
    const out = await bundled(`${name}-pkgs`, { main: "tests/output/bundle-fixture/pkgs.ts" });
    expect(run(out)).toBe("ok function true");
    const code = fs
      .readdirSync(out)
      .filter((f) => f.endsWith(".mjs"))
      .map((f) => fs.readFileSync(path.join(out, f), "utf8"))
      .join("\n");
    expect(code).not.toMatch(/from "zod"/); // inside: ~65 ms to load as one chunk, ~105 as its own modules
    expect(code).not.toMatch(/from "@\//);
    expect(code).toMatch(/from "better-sqlite3"/);
    // the bundler's own file is an input: a change to how bundles are built rebuilds them
    const manifest = JSON.parse(fs.readFileSync(path.resolve(`node_modules/.cache/stepwise/${name}-pkgs.json`), "utf8"));
    expect(Object.keys(manifest.inputs)).toContain(path.resolve("bin/bundle.mjs"));
  });

  it("moves a run's item table to disk from a bundle: better-sqlite3 required from where the bundle is", async () => {
    // lib/native/item-spill.ts loads better-sqlite3 only when a run passes a million items
    write(
      "spill.ts",
      [
        `import { ItemNumbering } from "@/lib/native/item-numbering";`,
        `const items = new ItemNumbering(undefined, 2);`,
        `const seen = ["a", "b", "c", "a", "d", "c"].map((id, k) => items.see(id, k === 5 ? 1 : 0));`,
        `items.close();`,
        `console.log(JSON.stringify(seen));`,
      ].join("\n"),
    );
    const out = await bundled(`${name}-spill`, { main: "tests/output/bundle-fixture/spill.ts" });
    expect(JSON.parse(run(out))).toEqual([
      { index: 0, first: true },
      { index: 1, first: true },
      { index: 2, first: true },
      null,
      { index: 3, first: true },
      { index: 2, first: false },
    ]);
  });

  it("runs the CLI through tsx when asked to (the fallback when a bundle cannot be built)", () => {
    const out = execFileSync(process.execPath, ["bin/stepwise.mjs", "--help"], {
      encoding: "utf8",
      env: { ...process.env, STEPWISE_TSX: "1" },
    });
    expect(out).toContain("usage: stepwise COMMAND");
  });
});
