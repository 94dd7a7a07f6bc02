#!/usr/bin/env bash
# Coverage-guided fuzzing of every reader with libFuzzer and AddressSanitizer (the Fuzz/ package).
#   scripts/fuzz.sh [TARGET|all] [SECONDS]    default: all, 60 s a target
# Builds the targets once, runs each on a scratch copy of its committed seed corpus
# (Fuzz/Corpus/TARGET, so the committed one stays small), prints executions, executions per second
# and coverage, and saves a crashing, leaking or hanging input to Fuzz/Crashes/TARGET/. Exit status 1
# when any target found one (a crash, a sanitizer report, a hang over 10 s, or a differential mismatch,
# which the targets turn into a crash).
set -uo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
seconds=${2:-60}
targets=(FuzzCSVRows FuzzNDJSONRows FuzzGzip FuzzDataset FuzzSQLite FuzzScenario FuzzResultJSON FuzzBaselineJSON)
[ "$which" = all ] || targets=("$which")

mkdir -p Fuzz/.build
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address > .build/fuzz-build.log 2>&1) \
  || { tail -30 Fuzz/.build/fuzz-build.log; echo "fuzz: the targets did not build"; exit 1; }
bin=Fuzz/.build/release
status=0
total=0
for target in "${targets[@]}"; do
  [ -x "$bin/$target" ] || { echo "fuzz: no target $target"; exit 64; }
  corpus=$(mktemp -d)
  cp -r "Fuzz/Corpus/$target/." "$corpus/" 2>/dev/null
  crashes="Fuzz/Crashes/$target"
  mkdir -p "$crashes"
  log=$(mktemp)
  ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/" -print_final_stats=1 > "$log" 2>&1
  result=$?
  runs=$(grep -ao "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$")
  rate=$(grep -ao "stat::average_exec_per_sec: *[0-9]*" "$log" | grep -o "[0-9]*$")
  coverage=$(grep -aoE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)
  total=$((total + ${runs:-0}))
  if [ "$result" -eq 0 ]; then
    echo "fuzz: $target: ${runs:-?} executions, ${rate:-?}/s, ${coverage:-no coverage line}, no crash"
  else
    echo "fuzz: FAIL: $target exited $result; the input is in $crashes/:"
    grep -aE "ERROR|SUMMARY|Fatal error|Precondition failed|differential mismatch|timeout" "$log" | head -8
    status=1
  fi
  rmdir "$crashes" 2>/dev/null
  rm -rf "$corpus" "$log"
done
echo "fuzz: $total executions in all"
exit $status
