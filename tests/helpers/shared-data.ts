import fs from "node:fs";
import path from "node:path";
import { describe } from "vitest";
import { REPO } from "./fixtures";

// The one way tests read ../shared (SPEC, examples, real third-party outputs): a `describe` that
// is skipped, with one printed line saying which tests and why, where the folder is absent (a
// fresh clone has none; STEPWISE_SHARED points elsewhere), and paths into it for those tests.

const SHARED = path.resolve(process.env.STEPWISE_SHARED ?? path.join(REPO, "..", "shared"));

/** The shared examples, the source the repository's copy (tests/fixtures/examples) must equal. */
export const SHARED_EXAMPLES = path.join(SHARED, "examples");

/**
 * Real outputs of third-party tools with no licence to copy: read in place, never committed.
 * Tests of them run where the folder exists (CI, our machines) and are skipped elsewhere.
 */
export const REALDATA = path.join(SHARED, "realdata");
const realdataAvailable = fs.existsSync(REALDATA);
// CI (.ci/run) must run them: there a missing folder fails the test files instead of skipping.
if (process.env.STEPWISE_REQUIRE_REALDATA && !realdataAvailable)
  throw new Error(`STEPWISE_REQUIRE_REALDATA is set but ${REALDATA} is absent`);

const announced = new Set<string>();

function describeShared(name: string, available: boolean, why: string, body: () => void): void {
  if (!available && !announced.has(name)) {
    announced.add(name);
    console.log(`SKIPPED "${name}": ${why}`);
  }
  describe.skipIf(!available)(name, body);
}

/** `describe` for tests that read the real third-party outputs (files the repository may not hold). */
export function describeRealdata(name: string, body: () => void): void {
  describeShared(
    name,
    realdataAvailable,
    `${REALDATA} is absent (third-party files that cannot be copied into the repository; CI provides them)`,
    body,
  );
}

/** `describe` for tests that compare the repository's examples with the shared ones. */
export function describeSharedExamples(name: string, body: () => void): void {
  describeShared(name, fs.existsSync(SHARED_EXAMPLES), `${SHARED_EXAMPLES} is absent`, body);
}
