import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Next's recommended rules (core web vitals, react, react-hooks, jsx-a11y, import) and its
// TypeScript rules; formatting is Prettier's (`npm run format`), not ESLint's.
const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "lib/generated/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "tests/output/**",
      "bench/out/**",
      "next-env.d.ts",
    ],
  },
];

export default config;
