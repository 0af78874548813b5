import path from "node:path";
import { fileURLToPath } from "node:url";

// Where the repository's own test data lives. Nothing here imports vitest, so the browser tests
// (Playwright) use it too. ../shared is read only through ./shared-data.ts.

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The example runs and their expected metrics: a copy of ../shared/examples that the repository owns. */
export const EXAMPLES = path.join(REPO, "tests", "fixtures", "examples");
