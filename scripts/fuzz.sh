#!/usr/bin/env bash
# Coverage-guided fuzzing of every reader with libFuzzer and AddressSanitizer (the Fuzz/ package).
#   scripts/fuzz.sh [TARGET|all] [SECONDS]    default: all, 60 s a target
#   CONFIG=debug scripts/fuzz.sh ...          a debug build (CI's): compiles in less than half the time and
#                                             keeps assert()s, at 1-5x fewer executions a second
# Builds the targets once, runs each (JOBS at a time, default 2) on a scratch copy of its committed seed corpus
# (Fuzz/Corpus/TARGET, so the committed one stays small), prints executions, executions per second
# and coverage, and saves a crashing, leaking or hanging input to Fuzz/Crashes/TARGET/. Exit status 1
# when any target found one (a crash, a sanitizer report, a hang over 10 s, or a differential mismatch,
# which the targets turn into a crash). Fuzz/Dictionaries/values.dict (magnitudes at the ends of the SPEC
# grammar, Int64's extremes, -0, tiny fractions) is every target's libFuzzer dictionary. A differential target
# with a planted defect (FuzzTypedParquet, SIMHARNESS_FUZZ_PLANT=typed-kcal) must crash with "differential
# mismatch" on its seed corpus: the check that it bites runs whenever the target is fuzzed.
set -uo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
seconds=${2:-60}
targets=(FuzzCSVRows FuzzNDJSONRows FuzzGzip FuzzDataset FuzzSQLite FuzzParquet FuzzTypedParquet FuzzAlgorithms FuzzScenario FuzzResultJSON FuzzBaselineJSON FuzzStoreLoading)
[ "$which" = all ] || targets=("$which")

config=${CONFIG:-release}
case $config in release|debug) ;; *) echo "fuzz: CONFIG must be release or debug, not '$config'"; exit 64 ;; esac

mkdir -p Fuzz/.build
(cd Fuzz && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address > .build/fuzz-build.log 2>&1) \
  || { tail -30 Fuzz/.build/fuzz-build.log; echo "fuzz: the targets did not build"; exit 1; }
bin=Fuzz/.build/$config
for target in "${targets[@]}"; do [ -x "$bin/$target" ] || { echo "fuzz: no target $target"; exit 64; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fuzzes $1 for $seconds on a scratch copy of its corpus; its report lines go to $work/$1.out, its
# execution count to $work/$1.runs, and $work/$1.failed marks a finding. Swift's backtracer is off: libFuzzer
# and AddressSanitizer print the stack, and under ASan the backtracer of a crashed target never exits.
fuzz_target() {
  local target=$1 corpus="$work/$1.corpus" crashes="Fuzz/Crashes/$1" log="$work/$1.log" result runs rate coverage
  mkdir -p "$corpus" "$crashes"
  cp -r "Fuzz/Corpus/$target/." "$corpus/" 2>/dev/null
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict=Fuzz/Dictionaries/values.dict \
    -artifact_prefix="$crashes/" -print_final_stats=1 > "$log" 2>&1
  result=$?
  runs=$(grep -ao "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$")
  rate=$(grep -ao "stat::average_exec_per_sec: *[0-9]*" "$log" | grep -o "[0-9]*$")
  coverage=$(grep -aoE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)
  echo "${runs:-0}" > "$work/$target.runs"
  if [ "$result" -eq 0 ]; then
    echo "fuzz: $target: ${runs:-?} executions, ${rate:-?}/s, ${coverage:-no coverage line}, no crash"
  else
    echo "fuzz: FAIL: $target exited $result; the input is in $crashes/:"
    grep -aE "ERROR|SUMMARY|Fatal error|Precondition failed|differential mismatch|timeout" "$log" | head -8
    touch "$work/$target.failed"
  fi
  rmdir "$crashes" 2>/dev/null
  rm -rf "$corpus" "$log"
  bites "$target"
}

# The planted disagreement of a differential target: its seed corpus, run once with the defect planted,
# must end in a "differential mismatch" crash, else the target is marked failed.
planted=(FuzzTypedParquet:typed-kcal)
bites() {
  local target=$1 entry plant log="$work/$1.bites.log"
  for entry in "${planted[@]}"; do
    [ "${entry%%:*}" = "$target" ] || continue
    plant=${entry#*:}
    SIMHARNESS_FUZZ_PLANT=$plant SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" \
      Fuzz/Corpus/"$target"/* -artifact_prefix="$work/" > "$log" 2>&1
    if grep -aq "differential mismatch" "$log"; then
      echo "fuzz: $target bites: the planted $plant disagreement was caught (differential mismatch)"
    else
      echo "fuzz: FAIL: $target did not catch the planted $plant disagreement"
      tail -5 "$log"
      touch "$work/$target.failed"
    fi
    rm -f "$log"
  done
}

# JOBS targets at a time (default 2, one a core: each fuzzer is a single process).
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "${JOBS:-2}" ]; then wait -n; running=$((running - 1)); fi
  fuzz_target "$target" > "$work/$target.out" &
  running=$((running + 1))
done
wait
status=0
total=0
for target in "${targets[@]}"; do
  cat "$work/$target.out"
  total=$((total + $(cat "$work/$target.runs")))
  [ ! -e "$work/$target.failed" ] || status=1
done
echo "fuzz: $total executions in all"
exit $status
