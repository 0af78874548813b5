import path from "node:path";
import { fileURLToPath } from "node:url";

// Where the repository's own test data lives. Nothing here imports vitest, so the browser tests
// (Playwright) use it too. The shared folder beside the checkout is read only through
// ./shared-data.ts.

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The example runs and their expected metrics: the repository's own copy of the shared examples (./shared-data.ts). */
export const EXAMPLES = path.join(REPO, "tests", "fixtures", "examples");
