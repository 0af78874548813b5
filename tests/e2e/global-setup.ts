import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { EXAMPLES as EXAMPLES_DIR } from "../helpers/fixtures";
import { PRIVATE_USERS } from "./fixtures/private-users";

// Seeds the e2e store from scratch: the demo data, the example files, one run whose output is
// hostile markup and the XSS corpus (tests/e2e/fixtures/xss-payloads.ts; it must show up as
// text, never run). Also the private-mode store of the second server: two example runs and
// its users (tests/e2e/security-*.spec.ts).

const root = path.resolve(".");
const dbFile = path.join(root, "data", "e2e.db");
const EXAMPLES = ["arith-small", "dictsum-small", "selfcond-small", "generic-small"].map((n) => path.join(EXAMPLES_DIR, `${n}.jsonl`));

export default async function globalSetup() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(dbFile + suffix, { force: true });
  fs.mkdirSync(path.join(root, "tests", "output"), { recursive: true });
  const env = { ...process.env, DATABASE_URL: "file:" + dbFile, NEXT_TELEMETRY_DISABLED: "1" };
  const cli = (...args: string[]) => execFileSync("node", ["bin/stepwise.mjs", ...args], { cwd: root, env, stdio: "inherit" });
  cli("demo");
  cli(
    "ingest",
    ...EXAMPLES,
    path.join(root, "tests", "e2e", "fixtures", "hostile.jsonl"),
    path.join(root, "tests", "e2e", "fixtures", "xss-corpus.jsonl"),
  );
  seedPrivate();
}

function seedPrivate() {
  const file = path.join(root, "data", "e2e-private.db");
  for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(file + suffix, { force: true });
  const env = { ...process.env, DATABASE_URL: "file:" + file, NEXT_TELEMETRY_DISABLED: "1" };
  const cli = (args: string[], input?: string) =>
    execFileSync("node", ["bin/stepwise.mjs", ...args], {
      cwd: root,
      env,
      input,
      stdio: [input ? "pipe" : "ignore", "inherit", "inherit"],
    });
  cli(["ingest", EXAMPLES[0], EXAMPLES[1]]);
  for (const [role, u] of Object.entries(PRIVATE_USERS))
    cli(["user", "create", "--email", u.email, "--role", role, "--password-stdin"], u.password + "\n");
}
