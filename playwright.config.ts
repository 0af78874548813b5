import path from "node:path";
import { defineConfig } from "@playwright/test";

// Browser tests in Debian's Chromium against a production server (`next build` runs
// before, in scripts/test.sh). The store is a fresh SQLite file seeded by global-setup.

const root = path.resolve(".");
export const E2E_DATABASE_URL = "file:" + path.join(root, "data", "e2e.db");
// E2E_PORT moves both servers (PORT, PORT + 1) so two checkouts can run the browser tests at once.
const PORT = Number(process.env.E2E_PORT ?? 3100);
// A second server in private mode with its own store and tight limits, for the security specs
// (tests/e2e/security-*.spec.ts): everything needs a signed-in user or a share link; bodies over
// 64 kB get 413; a token or user may write 8 times, then once a minute.
export const E2E_PRIVATE_DATABASE_URL = "file:" + path.join(root, "data", "e2e-private.db");
export const PRIVATE_PORT = PORT + 1;
export const PRIVATE_BASE_URL = `http://127.0.0.1:${PRIVATE_PORT}`;
export const PRIVATE_LIMITS = { maxBodyMb: 0.0625, burst: 8, ratePerMin: 1 };

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  globalSetup: "./tests/e2e/global-setup.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 900 },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: `npx --no-install next start -p ${PORT}`,
      // Readiness by port only: no request may open the store before global-setup recreates it.
      port: PORT,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { DATABASE_URL: E2E_DATABASE_URL, NEXT_TELEMETRY_DISABLED: "1" },
    },
    {
      command: `npx --no-install next start -p ${PRIVATE_PORT}`,
      port: PRIVATE_PORT,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        DATABASE_URL: E2E_PRIVATE_DATABASE_URL,
        NEXT_TELEMETRY_DISABLED: "1",
        STEPWISE_ACCESS: "private",
        STEPWISE_MAX_BODY_MB: String(PRIVATE_LIMITS.maxBodyMb),
        STEPWISE_WRITE_BURST: String(PRIVATE_LIMITS.burst),
        STEPWISE_WRITE_RATE_PER_MIN: String(PRIVATE_LIMITS.ratePerMin),
      },
    },
  ],
});
