import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Next's recommended rules (core web vitals, react, react-hooks, jsx-a11y, import) and its
// TypeScript rules; formatting is Prettier's (`npm run format`), not ESLint's.
const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `const { secret: _secret, ...rest } = x` is how we drop a field; a leading _ marks a name kept on purpose.
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { ignoreRestSiblings: true, argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Links prefetch on intent, not on sight (components/ui/link.tsx; docs/decisions.md, "Prefetch on intent").
    files: ["app/**", "components/**", "lib/**"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use { Link } from @/components/ui/link." }] }],
    },
  },
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
