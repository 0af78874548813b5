// First-load JavaScript per route, gzip, from the production build in .next: the framework
// chunks every page loads (build-manifest rootMainFiles) plus the chunks of the route's own
// segments (layout, loading, error, not-found, page), listed as entryJSFiles in the route's
// client reference manifest. Each chunk is counted once per route.
//   npx --no-install tsx scripts/bench/bundle.ts   (after `next build`)
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

export interface BundleFigure {
  route: string;
  files: number;
  gzipKb: number;
}

const gz = new Map<string, number>();
function gzipBytes(file: string): number {
  if (!gz.has(file)) gz.set(file, zlib.gzipSync(fs.readFileSync(file)).length);
  return gz.get(file)!;
}

function manifests(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? manifests(p) : e.name === "page_client-reference-manifest.js" ? [p] : [];
  });
}

export function bundleFigures(next = ".next"): BundleFigure[] {
  const build = JSON.parse(fs.readFileSync(path.join(next, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  const out: BundleFigure[] = [];
  for (const file of manifests(path.join(next, "server/app"))) {
    const sandbox = { globalThis: {} as Record<string, unknown> };
    vm.runInNewContext(fs.readFileSync(file, "utf8"), sandbox);
    const all = sandbox.globalThis.__RSC_MANIFEST as Record<string, { entryJSFiles?: Record<string, string[]> }>;
    for (const [key, m] of Object.entries(all)) {
      const files = new Set(build.rootMainFiles);
      for (const list of Object.values(m.entryJSFiles ?? {})) for (const f of list) files.add(f);
      const bytes = [...files].reduce((t, f) => t + gzipBytes(path.join(next, f.replace(/^\/_next\//, ""))), 0);
      const route = key.replace(/\/page$/, "").replace(/\/\([^)]*\)/g, "") || "/";
      out.push({ route, files: files.size, gzipKb: bytes / 1024 });
    }
  }
  return out.sort((a, b) => a.route.localeCompare(b.route));
}

export function printBundles(rows: BundleFigure[]) {
  console.log("\n## First-load JavaScript per route (gzip, from .next; target ≤ 250 kB)");
  console.log("| route | chunks | gzip kB |");
  console.log("|---|---:|---:|");
  for (const r of rows) console.log(`| ${r.route} | ${r.files} | ${r.gzipKb.toFixed(1)} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) printBundles(bundleFigures(process.argv[2]));
