import path from "node:path";
import { pathToFileURL } from "node:url";
import { env } from "../env";

// The server's loads and imports on a second thread, as `stepwise ingest` and `stepwise import`
// run them: the analysis thread's entry is TypeScript, which the server's own bundle does not
// hold, so it is bundled beside the CLI's (bin/bundle.mjs) the first time a load needs it.
// Without it (node_modules not writable, esbuild missing), or with STEPWISE_LOAD_THREADS=1, loads
// keep to one thread.

let entry: Promise<URL | null> | null = null;

/** The analysis thread's entry for this server process, or null for loads on one thread. */
export function serverThreadEntry(): Promise<URL | null> {
  entry ??= env.STEPWISE_LOAD_THREADS === "1" ? Promise.resolve(null) : buildEntry();
  return entry;
}

async function buildEntry(): Promise<URL | null> {
  try {
    const bundler = pathToFileURL(path.join(process.cwd(), "bin/bundle.mjs")).href;
    const { bundled } = (await import(
      /* turbopackIgnore: true */ /* webpackIgnore: true */ bundler
    )) as typeof import("../../bin/bundle.mjs");
    const dir = await bundled("server-thread", { "analysis-thread": "lib/store/analysis-thread.ts" });
    return pathToFileURL(path.join(dir, "analysis-thread.mjs"));
  } catch (e) {
    console.error(`stepwise: uploads load on one thread: the analysis thread could not be built (${(e as Error).message})`);
    return null;
  }
}
