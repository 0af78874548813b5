import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The one place that says where test data lives. Nothing here imports vitest, so the browser
// tests (Playwright) use it too.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The example runs and their expected metrics: a copy of ../shared/examples that the repository owns. */
export const EXAMPLES = path.join(REPO, "tests", "fixtures", "examples");

/**
 * The shared folder beside the checkout (SPEC, examples, real third-party outputs). A fresh clone
 * has none; STEPWISE_SHARED points elsewhere.
 */
export const SHARED = path.resolve(process.env.STEPWISE_SHARED ?? path.join(REPO, "..", "shared"));

/** ../shared/examples, the source the repository's copy must equal. */
export const SHARED_EXAMPLES = path.join(SHARED, "examples");
export const sharedExamplesAvailable = fs.existsSync(SHARED_EXAMPLES);

/**
 * Real outputs of third-party tools with no licence to copy: read in place, never committed.
 * Tests of them run where the folder exists (CI, our machines) and are skipped elsewhere.
 */
export const REALDATA = path.join(SHARED, "realdata");
export const realdataAvailable = fs.existsSync(REALDATA);
// CI (.ci/run) must run them: there a missing folder fails the test files instead of skipping.
if (process.env.STEPWISE_REQUIRE_REALDATA && !realdataAvailable)
  throw new Error(`STEPWISE_REQUIRE_REALDATA is set but ${REALDATA} is absent`);
