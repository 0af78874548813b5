import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Seeds the e2e store from scratch: the demo data, the example files, and one run whose
// output is hostile markup (it must show up as text, never run).

const root = path.resolve(".");
const dbFile = path.join(root, "data", "e2e.db");
// ../shared sits beside the checkout (here and in CI's fresh clone).
const EXAMPLES = ["arith-small", "dictsum-small", "selfcond-small", "generic-small"].map((n) => path.resolve(root, "..", "shared", "examples", `${n}.jsonl`));

export default async function globalSetup() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(dbFile + suffix, { force: true });
  fs.mkdirSync(path.join(root, "tests", "output"), { recursive: true });
  const env = { ...process.env, DATABASE_URL: "file:" + dbFile, NEXT_TELEMETRY_DISABLED: "1" };
  const cli = (...args: string[]) => execFileSync("node", ["bin/stepwise.mjs", ...args], { cwd: root, env, stdio: "inherit" });
  cli("demo");
  cli("ingest", ...EXAMPLES, path.join(root, "tests", "e2e", "fixtures", "hostile.jsonl"));
}
