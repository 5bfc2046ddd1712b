#!/usr/bin/env bash
# `npm test`: build the client, then run every suite, with the typecheck and the lint beside them.
# The typecheck and the lint (one core each, neither writes a file) run at the lowest CPU priority
# while the suites run: they take the core the suites leave idle (their global setup, the gaps
# between files, the last files running one at a time), which on a 2-core machine came to
# some 300 s of a core in a 14-minute run, instead of a minute of their own before the suites
# (issue 26 item 9). Their output comes after the suites'; any of the three failing fails the run.
# vitest also writes a JSON report to test-results/, from which `.ci/run` prints the slowest
# files (scripts/slowest-tests.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
build_status=0
npm run build || build_status=$?
nice -n 19 npx tsc --noEmit -p tsconfig.json > "$logs/tsc.log" 2>&1 & typecheck=$!
nice -n 19 npx eslint --max-warnings 0 . > "$logs/eslint.log" 2>&1 & lint=$!
tests_status=0
if [ "$build_status" = 0 ]; then
  mkdir -p test-results
  npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest-report.json "$@" || tests_status=$?
fi
typecheck_status=0; wait "$typecheck" || typecheck_status=$?
lint_status=0; wait "$lint" || lint_status=$?
cat "$logs/tsc.log" "$logs/eslint.log"
if [ "$typecheck_status$lint_status$build_status" != 000 ]; then
  echo "typecheck exit $typecheck_status, lint exit $lint_status, build exit $build_status" >&2
  exit 1
fi
exit "$tests_status"
