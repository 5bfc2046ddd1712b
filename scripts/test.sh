#!/usr/bin/env bash
# `npm test`: type-check, lint, build the client, then run every suite.
# The typecheck and the lint (one core each, neither writes a file) run beside the build;
# vitest also writes a JSON report to test-results/, from which `.ci/run` prints the slowest
# files (scripts/slowest-tests.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
npx tsc --noEmit -p tsconfig.json > "$logs/tsc.log" 2>&1 & typecheck=$!
npx eslint --max-warnings 0 . > "$logs/eslint.log" 2>&1 & lint=$!
build_status=0
npm run build || build_status=$?
typecheck_status=0; wait "$typecheck" || typecheck_status=$?
lint_status=0; wait "$lint" || lint_status=$?
cat "$logs/tsc.log" "$logs/eslint.log"
if [ "$typecheck_status$lint_status$build_status" != 000 ]; then
  echo "typecheck exit $typecheck_status, lint exit $lint_status, build exit $build_status" >&2
  exit 1
fi
mkdir -p test-results
exec npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest-report.json "$@"
