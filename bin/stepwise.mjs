#!/usr/bin/env node
// `npx stepwise …` inside the checkout: runs the TypeScript CLI through tsx.
import { register } from "tsx/esm/api";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

register();
const main = path.join(path.dirname(fileURLToPath(import.meta.url)), "../lib/cli/main.ts");
await import(pathToFileURL(main).href);
