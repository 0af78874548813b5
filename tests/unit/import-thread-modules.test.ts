import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// An import's thread, ingest's analysis thread and the `stepwise import` command up to the
// thread's start load no zod: its ~90 ms start delayed the first sample of every import and the
// first line of every load (docs/performance.md, "Importers"; "Load", stop 48).
// What a module loads statically is what esbuild bundles from it with packages left outside.

const root = path.resolve(__dirname, "../..");

/** The packages and sources `entry` loads before any of its dynamic imports runs. */
async function loadedStatically(entry: string): Promise<{ packages: string[]; sources: string[] }> {
  const out = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
    outdir: path.join(root, "out"),
  });
  const outputs = out.metafile.outputs;
  const packages = new Set<string>();
  const sources = new Set<string>();
  const walk = (file: string) => {
    for (const s of Object.keys(outputs[file].inputs)) sources.add(s);
    for (const i of outputs[file].imports) {
      if (i.kind !== "import-statement") continue;
      if (i.external) packages.add(i.path);
      else if (!sources.has(i.path)) walk(i.path);
    }
  };
  walk(Object.keys(outputs).find((f) => outputs[f].entryPoint === entry)!);
  return { packages: [...packages].filter((p) => !p.startsWith("node:")), sources: [...sources] };
}

describe("modules an import loads before its first sample", () => {
  it("the import thread and its importers load no package (zstd-napi is required, not imported)", async () => {
    const thread = await loadedStatically("lib/import/thread.ts");
    expect(thread.sources).toContain("lib/import/inspect.ts");
    expect(thread.packages).toEqual([]);
    expect((await loadedStatically("lib/native/schema.ts")).packages).toContain("zod"); // the check above can fail
  });

  it("ingest's analysis thread loads no package until a line needs the schemas", async () => {
    const thread = await loadedStatically("lib/store/native-thread.ts");
    expect(thread.sources).toContain("lib/native/line-reader.ts");
    expect(thread.sources).not.toContain("lib/native/schema.ts");
    expect(thread.packages).toEqual([]);
  });

  it("the second thread's entry loads only node's modules (each kind imports its own)", async () => {
    const entry = await loadedStatically("lib/store/analysis-thread.ts");
    expect(entry.packages).toEqual([]);
    expect(entry.sources).toEqual(["lib/store/analysis-thread.ts"]);
  });

  it("the import command starts the thread before zod loads", async () => {
    const command = await loadedStatically("lib/cli/commands/import.ts");
    expect(command.packages).not.toContain("zod");
    const options = await loadedStatically("lib/import/options.ts");
    expect(options.packages).toContain("zod"); // the check above can fail
  });
});
