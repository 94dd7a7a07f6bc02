#!/usr/bin/env bash
# The coverage gate: runs the tests with coverage (the CLI tests' child `simharness` processes write
# their profiles too, as they inherit LLVM_PROFILE_FILE), reports line coverage with the toolchain's
# own llvm-cov (Debian's is too old for its profiles), and fails below the floors:
#   COVERAGE_MIN (default 85) % of lines overall, and 100 % of the core algorithm files
#   (COVERAGE_CORE_EXTRA adds files to that list: CI uses both variables to show the gate bites).
# Usage: scripts/coverage.sh [--no-test]   (--no-test: report on the last coverage run)
set -euo pipefail
cd "$(dirname "$0")/.."
minimum=${COVERAGE_MIN:-85}
core=(HealthCore/Fasting.swift HealthCore/Steps.swift HealthCore/StepTables.swift PaymentsCore/PaymentProcessor.swift PaymentsCore/PaymentRules.swift PaymentsCore/PaymentStore.swift SpecKernel/UserKernel.swift
      ${COVERAGE_CORE_EXTRA:-})

# The counters update atomically (`-instrprof-atomic-counter-update-all`, passed on the command line:
# an `unsafeFlags` setting in Package.swift would stop SwiftPM from accepting SimHarness as a versioned
# dependency): tests run in parallel, and a region's count may be derived from counters that other tests
# increment at the same time (lost updates made a covered line read 0 once). Profiles of earlier runs are removed first, so the report
# is this run's alone. The test command is the README's, so CI runs the tests once and then `--no-test`.
if [ "${1:-}" != "--no-test" ]; then
  rm -rf "$(swift build --show-bin-path)/codecov"
  swift test --enable-code-coverage -Xswiftc -Xllvm -Xswiftc -instrprof-atomic-counter-update-all > .build/coverage-tests.log 2>&1 \
    || { crash=$(grep -n -m1 "Program crashed" .build/coverage-tests.log | cut -d: -f1)
         # A crash report is long: its crashed thread's frames say more than the log's last lines.
         if [ -n "$crash" ]; then sed -n "$((crash > 20 ? crash - 20 : 1)),$((crash + 80))p" .build/coverage-tests.log
         else tail -30 .build/coverage-tests.log; fi
         echo "coverage: the tests failed"; exit 1; }
fi
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
llvm_cov="$toolchain/llvm-cov"
[ -x "$llvm_cov" ] || { echo "coverage: no llvm-cov beside $(command -v swift)"; exit 1; }
bin=$(swift build --show-bin-path)
report=$("$llvm_cov" report "$bin/SimHarnessPackageTests.xctest" -object "$bin/simharness" \
  -instr-profile "$bin/codecov/default.profdata" -ignore-filename-regex='(\.build|Tests/|Benchmarks/)')

# Columns: file, regions, missed, cover, functions, missed, executed, lines, missed lines, cover, ...
status=0
total=$(echo "$report" | awk '$1 == "TOTAL" { sub("%", "", $10); print $10 }')
echo "coverage: ${total} % of lines in all (floor ${minimum} %)"
awk -v t="$total" -v m="$minimum" 'BEGIN { exit !(t + 0 >= m + 0) }' || { echo "coverage: FAIL: below ${minimum} %"; status=1; }
for file in "${core[@]}"; do
  line=$(echo "$report" | awk -v f="$file" '$1 ~ f"$" { sub("%", "", $10); print $10, $9 }')
  [ -n "$line" ] || { echo "coverage: FAIL: $file is not in the report"; status=1; continue; }
  set -- $line
  echo "coverage: $file ${1} % (${2} lines missed)"
  [ "$2" = "0" ] || { echo "coverage: FAIL: $file must be covered to the line"; status=1; }
done
exit $status
