#!/usr/bin/env bash
# The instruction-count gate: the core algorithms' instructions per workload run, counted by
# `valgrind --tool=callgrind` (the same to within a few instructions in every run, whatever else the
# machine does), against Benchmarks/Instructions/baseline.txt, with the tolerance table's `gates.instructions`
# (Benchmarks/Gate/tolerances.json, or SIMHARNESS_TOLERANCES; the relative part, by workload or `*`).
#   scripts/instruction-gate.sh check          fail on a workload more than its tolerance above its baseline
#   scripts/instruction-gate.sh record         write the baseline anew
#   scripts/instruction-gate.sh bites [RUNS]   inject 5 % and 10 % more work into each workload and check that
#                                              both fail; run the unchanged build RUNS times (default 5) and count
#                                              false alarms
#   scripts/instruction-gate.sh all [RUNS]     check, then bites on the same counts (CI: one false-alarm run)
# A run's instructions are (instructions of 3 runs − instructions of 1 run) / 2 of `simharness-workloads W N`,
# so building the workload's data does not count. INSTRUCTION_WORKLOADS="fasting steps" restricts any mode to a sample. Swift's hashing is made deterministic (SWIFT_DETERMINISTIC_HASHING).
# The binary is the one the performance tests' release build makes (the PerformanceTests package, which
# also builds `simharness` for the swarm: CI builds release once); the workloads are counted JOBS
# (default 2) at a time, as a count does not depend on what else runs.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
table=${SIMHARNESS_TOLERANCES:-Benchmarks/Gate/tolerances.json}
jobs=${JOBS:-2}
baseline=Benchmarks/Instructions/baseline.txt
read -r -a workloads <<< "${INSTRUCTION_WORKLOADS:-fasting steps payments generation pipeline}"
command -v valgrind > /dev/null || { echo "instructions: valgrind is missing (apt-get install valgrind)"; exit 1; }

mkdir -p PerformanceTests/.build
# INSTRUCTION_PREBUILT=1 counts the binary already built (the performance gate's proof under load: a build there takes
# minutes under the busy loops, and a count does not depend on when the binary was built).
if [ -z "${INSTRUCTION_PREBUILT:-}" ]; then
  swift test list --package-path PerformanceTests -c release > PerformanceTests/.build/instruction-gate-build.log 2>&1 \
    || { tail -20 PerformanceTests/.build/instruction-gate-build.log; exit 1; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
binary=$work/simharness-workloads
# valgrind 3.19 cannot read the toolchain's DWARF 5: count a copy without debug information.
cp "$(swift build --package-path PerformanceTests -c release --show-bin-path)/simharness-workloads" "$binary"
strip --strip-debug "$binary"
chmod +x "$binary"

collected() { # workload repeats [injection]
  local count
  count=$(SWIFT_DETERMINISTIC_HASHING=1 SIMHARNESS_INJECT_REGRESSION="${3:-none}" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
  [ -n "$count" ] || { echo "instructions: callgrind counted nothing for $1" >&2; return 1; }
  echo "$count"
}
per_run() { # workload [injection]
  local one three
  one=$(collected "$1" 1 "${2:-none}") || return 1
  three=$(collected "$1" 3 "${2:-none}") || return 1
  echo $(( (three - one) / 2 ))
}
expected() { awk -v w="$1" '$1 == w { print $2 }' "$baseline"; }
# Percent change of $2 over $1, two decimals.
change() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f", (b - a) * 100 / a }'; }
# The tolerance of workload $1 in percent: its entry in the table's instructions gate, else the longest `prefix*` one.
tolerance_of() {
  python3 - "$table" "$1" <<'PY'
import json, sys
path, workload = sys.argv[1], sys.argv[2]
table = json.load(open(path))
gate = table["gates"]["instructions"]
key = workload if workload in gate else max((k for k in gate if k.endswith("*") and workload.startswith(k[:-1])), key=len, default=None)
if key is None: sys.exit(f"{path}: gates.instructions.{workload} is missing")
entry = gate[key]
entry = table["presets"][entry] if isinstance(entry, str) else entry
print(entry["relative"] * 100)
PY
}
# Whether change $1 exceeds tolerance $2 (percent; a regression).
regressed() { awk -v c="$1" -v t="$2" 'BEGIN { exit !(c + 0 > t + 0) }'; }

record_one() { # workload
  local now
  now=$(per_run "$1") || return 1
  echo "$1 $now"
}

check_one() { # workload [count]: compares the count (measured when not given) with the baseline
  local base now delta tolerance
  base=$(expected "$1"); [ -n "$base" ] || { echo "instructions: no baseline for $1"; return 1; }
  tolerance=$(tolerance_of "$1") || return 1
  now=${2:-$(per_run "$1")} || return 1
  delta=$(change "$base" "$now")
  if regressed "$delta" "$tolerance"; then
    echo "instructions: FAIL: $1 $now instructions a run, $delta % over its baseline $base (tolerance $tolerance %)"; return 1
  fi
  echo "instructions: $1 $now instructions a run ($delta % against $base)"
}

bites_one() { # workload runs [check]: with "check", the unchanged count is compared with the baseline too
  local w=$1 runs=$2 status=0 base cost rounds slow delta alarms again tolerance
  tolerance=$(tolerance_of "$w") || return 1
  base=$(per_run "$w") || return 1
  if [ "${3:-}" = check ]; then check_one "$w" "$base" || status=1; fi
  # One round of injected work every 16 events: measure what 64 rounds cost, then size the 5 % and 10 %.
  cost=$(per_run "$w" work:64) || return 1
  cost=$((cost - base))
  for target in 5 10; do
    rounds=$(awk -v b="$base" -v c="$cost" -v t="$target" 'BEGIN { r = int(b * t / 100 / (c / 64)) + 1; print r }')
    slow=$(per_run "$w" "work:$rounds") || return 1
    delta=$(change "$base" "$slow")
    if regressed "$delta" "$tolerance"; then echo "instructions: caught as expected: $w with $delta % more work"
    else echo "instructions: FAIL: $w with $delta % more work was not caught"; status=1; fi
  done
  alarms=0
  for _ in $(seq "$runs"); do
    again=$(per_run "$w") || return 1
    if regressed "$(change "$base" "$again")" "$tolerance"; then alarms=$((alarms + 1)); fi
  done
  echo "instructions: $w: $alarms false alarms in $runs runs of the same build"
  [ "$alarms" -eq 0 ] || status=1
  return $status
}

# Runs `$1 WORKLOAD ARGS...` for every workload, $jobs at a time; prints their outputs in workload order.
# Fails when one of them did.
each_workload() {
  local step=$1 running=0 status=0 w
  shift
  for w in "${workloads[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    { "$step" "$w" "$@" > "$work/$w.out" 2>&1 || touch "$work/$w.failed"; } &
    running=$((running + 1))
  done
  wait
  for w in "${workloads[@]}"; do
    cat "$work/$w.out"
    [ ! -e "$work/$w.failed" ] || status=1
  done
  return $status
}

case "$mode" in
record)
  each_workload record_one > "$baseline.new" || { cat "$baseline.new"; rm -f "$baseline.new"; exit 1; }
  mv "$baseline.new" "$baseline"
  cat "$baseline"
  ;;
check) each_workload check_one ;;
bites) each_workload bites_one "${2:-5}" ;;
all) each_workload bites_one "${2:-5}" check ;;
*) echo "usage: scripts/instruction-gate.sh check|record|bites [RUNS]|all [RUNS]"; exit 64 ;;
esac
