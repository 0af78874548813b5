import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { importFile } from "../../lib/import";
import { importThreadStarter } from "../../lib/import/parallel";
import { parseImportOptions } from "../../lib/import/options";
import { loadNative } from "../../lib/store/load";
import { threadedNativeSource } from "../../lib/store/parallel-source";
import { twoStores } from "../helpers/load-rows";
import { STORE_KINDS } from "../helpers/stores";

// The server's uploads (POST /api/v1/runs, /api/v1/import) load on a second thread whose entry
// is bundled at run time (lib/store/server-thread.ts): that entry must build, and a load and an
// import through it must give what they give in-thread.
const FIX = path.join(import.meta.dirname, "../fixtures");

describe.each(STORE_KINDS)("the server's analysis thread on $name", (kind) => {
  const stores = twoStores(kind);

  it("is built from bin/bundle.mjs and loads and imports as the in-thread path does", async () => {
    const { serverThreadEntry } = await import("../../lib/store/server-thread");
    const entry = await serverThreadEntry();
    expect(entry?.href).toMatch(/node_modules\/\.cache\/stepwise\/server-thread-[0-9a-f]{16}\/analysis-thread\.mjs$/);
    for (const name of ["arith-small.jsonl", "invalid.jsonl"]) {
      const bytes = fs.readFileSync(path.join(FIX, "examples", name));
      const a = await loadNative(stores.a, name, [bytes]);
      const b = await loadNative(stores.b, name, [bytes], { source: threadedNativeSource(entry!) });
      expect(b, name).toEqual(a);
    }
    const log = path.join(FIX, "import/inspect/2025-09-01T12-00-00_arith-exec_zstd-attachments.eval");
    const opts = parseImportOptions({});
    if (!opts.ok) throw new Error(opts.error);
    const a = await importFile(stores.a, log, log, opts.options);
    const b = await importFile(stores.b, log, log, opts.options, undefined, importThreadStarter(entry!));
    expect(b).toEqual(a);
    expect(a.ok).toBe(true);
  }, 120_000);
});

describe("STEPWISE_LOAD_THREADS=1", () => {
  it("keeps the server's loads on one thread", async () => {
    vi.resetModules();
    vi.stubEnv("STEPWISE_LOAD_THREADS", "1");
    try {
      const { serverThreadEntry } = await import("../../lib/store/server-thread");
      expect(await serverThreadEntry()).toBeNull();
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
