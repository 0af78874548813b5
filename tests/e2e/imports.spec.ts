import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL } from "../../playwright.config";
import { metrJsonl, writeTemp } from "../fixtures/import/generate";
import { sampleError, writeInspectLog } from "../fixtures/import/inspect-logs";
import { generationPath, runPath } from "../../lib/url/shared";

// Imported runs as a user sees them (issue 16): the errored samples an Inspect import left
// out, the sample's target as the reference answer, METR lengths in minutes and pass@k with
// its task count. The runs are imported into the e2e store through the CLI, as a user would.
const INSPECT_KEY = "e2e-import__inspect";

test.beforeAll(() => {
  const log = writeInspectLog({
    status: "error",
    evalId: "e2e",
    samples: [1, 2, 3, 4, 5].map((i) =>
      i === 2 || i === 4
        ? { id: `s${i}`, error: sampleError("RuntimeError: sandbox died") }
        : { id: `s${i}`, target: "42", completion: "ANSWER: 41", scores: { match: { value: "I", answer: "41" } } },
    ),
  });
  const metr = writeTemp("all_runs.jsonl", metrJsonl());
  const env = { ...process.env, DATABASE_URL: E2E_DATABASE_URL, NEXT_TELEMETRY_DISABLED: "1" };
  const cli = (...args: string[]) => execFileSync("node", ["bin/stepwise.mjs", ...args], { cwd: path.resolve("."), env, stdio: "pipe" });
  cli("import", log, "--key", INSPECT_KEY);
  cli("import", metr, "--key", "e2e-metr");
});

test("the run page says which Inspect samples errored and were left out", async ({ page }) => {
  await page.goto(runPath(INSPECT_KEY));
  await expect(page.getByTestId("import-note")).toContainText("skipped 2 errored samples (ids s2, s4)");
  await expect(page.getByTestId("run-summary")).toContainText("3 generations");
  // an imported model with no family or size: the parameters line starts with them, not with a separator
  await expect(page.getByTestId("run-params")).toHaveText(/^[^·\s]/);
});

test("the generation page shows the sample's target as the reference", async ({ page }) => {
  await page.goto(generationPath(INSPECT_KEY, "s1"));
  await expect(page.locator("#answers")).toContainText("reference: 42");
  // no step trace: the raw output promises no highlighted steps or row links
  await expect(page.locator("#output")).toContainText("no step trace");
  await expect(page.locator("#output")).not.toContainText("click one to jump");
});

test("METR lengths read in minutes, pass@k says over how many tasks", async ({ page }) => {
  await page.goto(runPath("e2e-metr__sim-agent-a"));
  const l50 = page.getByTestId("stat-l50");
  await expect(l50).toContainText(/\d min/);
  await expect(l50).not.toContainText("step");
  await expect(page.getByTestId("stat-l80")).not.toContainText("step");
  await expect(page.getByTestId("stat-pass-at-k")).toContainText(/over 13 tasks with ≥ \d runs/);
  // the accuracy-by-length chart: axis and point labels in minutes
  const chart = page.getByTestId("accuracy-by-length-chart");
  await expect(chart).toContainText("Human time (minutes)");
  await expect(chart.getByRole("link", { name: /^Sim Agent A, length 15 min: first answer 50\.0%/ }).first()).toBeVisible();
});
