#!/usr/bin/env bash
# `npm test`: type check, lint, unit and integration tests (vitest, real PostgreSQL), then
# browser tests (Playwright + Chromium) against a fresh production build. Every stage runs
# even if an earlier one fails; the last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .test-reports && rm -f .test-reports/*
status=0
step() { echo; echo "== $*"; }

step "chromium"; bash scripts/ensure-chromium.sh || status=1
step "pandas"; bash scripts/ensure-pandas.sh || status=1
step "static analyzers"; bash scripts/ensure-analyzers.sh || status=1
step "prisma client"; node scripts/prisma.mjs generate >/dev/null || status=1
step "typecheck"; npx tsc --noEmit -p . && echo "types ok" || { status=1; echo "typecheck failed" > .test-reports/typecheck.failed; }
step "lint"; npx eslint . && echo "lint ok" || { status=1; echo "lint failed" > .test-reports/lint.failed; }
rm -f .test-reports/vitest.json .test-reports/playwright.json
step "unit and integration tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-reports/vitest.json || status=1
step "production build"
NEXT_TELEMETRY_DISABLED=1 npx next build >.test-reports/next-build.log 2>&1 && echo "build ok" || { status=1; tail -40 .test-reports/next-build.log; }
step "browser tests"
PLAYWRIGHT_JSON_OUTPUT_NAME=.test-reports/playwright.json npx playwright test || status=1

node scripts/test-summary.mjs || status=1
exit $status
