#!/usr/bin/env node
// `npx stepwise …` inside the checkout: runs the CLI from a bundle of lib/ kept up to date
// (bin/bundle.mjs); through tsx when the bundle cannot be built (STEPWISE_TSX=1 forces it).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
let dir = null;
if (process.env.STEPWISE_TSX !== "1") {
  try {
    const { bundled } = await import("./bundle.mjs");
    dir = await bundled("cli", { main: "lib/cli/main.ts", "analysis-thread": "lib/store/analysis-thread.ts" });
  } catch (e) {
    if (process.env.STEPWISE_DEBUG) console.error("stepwise: bundle failed, running through tsx:", e);
  }
}
if (dir) {
  process.setSourceMapsEnabled(true); // stack traces name lib/*.ts lines
  await import(pathToFileURL(path.join(dir, "main.mjs")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(root, "lib/cli/main.ts")).href);
}
