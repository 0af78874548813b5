// The CLI as prebuilt JavaScript, kept in step with lib/. Run through tsx, every isolate pays
// for its own TypeScript loader, in the CLI's thread and again in the load's analysis thread,
// several times what a plain module costs (figures: docs/decisions.md). The bundle is
// rebuilt whenever a file it was built from changes (size or mtime), so an edit is never run
// stale; it is written to a new directory named by its content and then published by an
// atomic rename of the manifest, so concurrent CLI processes never see half a bundle.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Inside node_modules, so the bundle's imports of packages resolve as they do from lib/.
const CACHE = path.join(ROOT, "node_modules/.cache/stepwise");

function stamp(file, builtAt = Infinity) {
  try {
    const st = fs.statSync(file);
    // an input edited while the bundle was being built: the next start builds again
    return st.mtimeMs >= builtAt ? "changed" : `${st.size}:${st.mtimeMs}`;
  } catch {
    return "missing";
  }
}

function fresh(manifestFile) {
  let m;
  try {
    m = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  } catch {
    return null;
  }
  // A manifest copied with node_modules from another checkout names that checkout's files and
  // bundle: fresh there, stale here.
  if (path.dirname(m.dir) !== CACHE) return null;
  for (const [file, was] of Object.entries(m.inputs)) if (stamp(file) !== was) return null;
  return fs.existsSync(m.dir) ? m.dir : null;
}

function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

// Packages are loaded from node_modules as they are, but these go into the bundle: zod's ~100
// modules took ~105 ms to load one by one through Node's ESM loader, ~65 ms as one chunk, and
// every command's environment (lib/env.ts) loads it (docs/performance.md, "Load", stop 48).
const INSIDE = ["zod"];

/** esbuild's `packages: "external"`, except for `inside` and their subpaths. */
function packagesOutsideBut(inside) {
  return {
    name: "packages-outside-but",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("@/")) return undefined; // the checkout's own path alias (tsconfig): esbuild resolves it
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const pkg = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
        return inside.includes(pkg) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * Directory of the bundle `name` of `entries` ({ outName: path relative to the checkout }),
 * built first when missing or stale. Entry `x` is the file `x.mjs` of that directory.
 */
export async function bundled(name, entries) {
  const manifestFile = path.join(CACHE, `${name}.json`);
  const ready = fresh(manifestFile);
  if (ready) return ready;
  const { build } = await import("esbuild");
  const startedAt = Date.now();
  const out = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, path.join(ROOT, v)])),
    bundle: true,
    splitting: true, // commands stay separate chunks, loaded when run
    platform: "node",
    format: "esm",
    target: "node20",
    outExtension: { ".js": ".mjs" },
    plugins: [packagesOutsideBut(INSIDE)],
    sourcemap: "linked",
    write: false,
    outdir: path.join(CACHE, "out"), // where the files would go; only their names are used
    metafile: true,
    logLevel: "silent",
  });
  const hash = createHash("sha256");
  for (const f of out.outputFiles) hash.update(f.path).update(f.contents);
  const dir = path.join(CACHE, `${name}-${hash.digest("hex").slice(0, 16)}`);
  if (!fs.existsSync(dir)) {
    const tmp = `${dir}.${process.pid}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const f of out.outputFiles) {
      const target = path.join(tmp, path.relative(path.join(CACHE, "out"), f.path));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, f.contents);
    }
    try {
      fs.renameSync(tmp, dir);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true }); // another process published the same bundle
    }
  }
  const inputs = {};
  for (const rel of Object.keys(out.metafile.inputs)) inputs[path.resolve(ROOT, rel)] = stamp(path.resolve(ROOT, rel), startedAt);
  // and this file, whose options the bundle was built with
  inputs[fileURLToPath(import.meta.url)] = stamp(fileURLToPath(import.meta.url), startedAt);
  writeAtomically(manifestFile, JSON.stringify({ dir, inputs }));
  prune(name, dir);
  return dir;
}

/** Bundles replaced more than a day ago (a process still running one loads its chunks lazily). */
function prune(name, keep) {
  const dayAgo = Date.now() - 86_400_000;
  for (const entry of fs.readdirSync(CACHE)) {
    const p = path.join(CACHE, entry);
    if (p === keep || !entry.startsWith(`${name}-`)) continue;
    try {
      if (fs.statSync(p).mtimeMs < dayAgo) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}
