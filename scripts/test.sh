#!/usr/bin/env bash
# The project's test command (`npm test`): lint and format check, unit and store tests (SQLite,
# and PostgreSQL when one answers), a production build, then the browser tests in Debian's
# Chromium. Tests of the real third-party outputs beside the checkout (which the repository may
# not hold; located by tests/helpers/shared-data.ts) are skipped, each with a printed line, when
# that folder is absent; .ci/run insists on it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

[ -d node_modules/next ] || npm ci --no-audit --no-fund
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
fi
if [ -z "${STEPWISE_TEST_PG:-}" ] && command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then
  export STEPWISE_TEST_PG="postgresql://postgres@127.0.0.1:5432/test"
fi

npm run --silent lint
echo "store tests: SQLite${STEPWISE_TEST_PG:+ and PostgreSQL ($STEPWISE_TEST_PG)}"
npx --no-install vitest run
npx --no-install next build
npx --no-install playwright test
