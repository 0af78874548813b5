import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/store/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Store tests open real databases; keep files from fighting over one machine's 2 cores.
    maxWorkers: 2,
  },
});
