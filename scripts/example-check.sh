#!/usr/bin/env bash
# The README's walk-through, end to end: builds Examples/CustomAnalyzer (a package that depends on
# SimHarness by path), runs its correct analyzer (exit 0, no mismatches) and its analyzer with a planted
# bug (exit 1, the mismatching field named) on the example's CI scenario.
set -uo pipefail
cd "$(dirname "$0")/../Examples/CustomAnalyzer"
(swift build > .build-example.log 2>&1) || { tail -30 .build-example.log; echo "example: the package did not build"; exit 1; }
rm -f .build-example.log
bin=$(swift build --show-bin-path)
out=$(mktemp)
"$bin/load-window" run --scenario Scenarios/ci.yaml > "$out" 2>&1
status=$?
grep -a "checked fasting" "$out"
if [ "$status" -ne 0 ] || ! grep -aq "0 mismatches" "$out"; then
  cat "$out"; echo "example: the correct analyzer did not pass (exit $status)"; exit 1
fi
"$bin/load-window-buggy" run --scenario Scenarios/ci.yaml > "$out" 2>&1
status=$?
grep -a "checked fasting" "$out"
if [ "$status" -ne 1 ] || ! grep -aq "FAIL  mismatches == 0" "$out" || ! grep -aq "fasting_daily.fasts_ended" "$out"; then
  cat "$out"; echo "example: the planted bug was not caught and named (exit $status)"; exit 1
fi
rm -f "$out"
echo "example: the correct analyzer passed, the planted bug was caught and named"
