#!/usr/bin/env bash
# The performance gate (`docs/performance.md`: "The performance gate"). Steps, run in this order by `all` (the default):
#   xctest      release XCTest performance tests (the PerformanceTests package) against their Baselines/
#   benchmarks  package-benchmark p90 threshold check of the counts (mallocs, peak memory) against
#               Benchmarks/Benchmarks/Thresholds: absolute, as counts do not depend on the machine's speed
#   times       TimeRatios: each benchmark workload's time in reference loops run beside it, against the same
#               workload of the base commit's build (Gate/time-base) measured beside it on this machine
#               (times are only ever judged against times of the same run)
#   bites       (after xctest, on its build) inject known regressions (allocations, +10 % peak memory, +10 % allocated bytes, slowdown,
#               +10 % time) and assert that the gates above report them
#   xctest-bites  the XCTest half of `bites` alone (seconds; CI runs the rest of `bites` on a sample of commits)
#   load        the same gates under a busy loop on every core (the machine's speed halved or worse): the
#               unchanged code passes, +10 % time and +5 % instructions still fail
# and, not part of `all`:
#   base        build the base commit's TimeRatios (CI builds it beside the benchmark package)
#   record      record new XCTest baselines and benchmark thresholds on this machine
#   alarms N    run the `times` check N times and count false alarms (docs/performance.md)
#   jemalloc    the ProcessMetrics tests in a build with the `Jemalloc` trait (installs
#               libjemalloc-dev with apt-get when it is missing and we are root)
# Several steps run in the order given. Exit status: 0 when every step passes, 1 otherwise. Only regressions
# fail; improvements pass.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
thresholds="Benchmarks/Thresholds"  # relative to the Benchmarks package
logs="${PERF_GATE_LOGS:-$root/.build/perf-gate}"
mkdir -p "$logs"

say() { printf '\n=== perf-gate [%4d s]: %s\n' "$SECONDS" "$*"; }
fail() { printf 'perf-gate: FAIL: %s\n' "$*" >&2; exit 1; }

# Runs the release performance tests with `swift test`; extra arguments go to it. Output in $1.
run_xctest() {
    local log="$1"; shift
    swift test --package-path "$root/PerformanceTests" -c release --filter "${XCTEST_FILTER:-PerformanceTests}" "$@" 2>&1 | tee "$log"
    return "${PIPESTATUS[0]}"
}

# Runs the benchmark threshold check; extra arguments go to it. Output in $1. Returns 0 when the
# results hold or only improved, 2 on a regression, 1 when the check did not complete. The plugin
# exits 1 for all of these but names the reason in its last line: `error: benchmarkThreshold...`.
run_benchmarks() {
    local log="$1"; shift
    (cd "$root/Benchmarks" && swift package benchmark thresholds check --path "$thresholds" --no-progress "$@") 2>&1 | tee "$log"
    local status="${PIPESTATUS[0]}"
    if [ "$status" -eq 0 ]; then
        return 0
    elif grep -aq "error: benchmarkThresholdImprovement" "$log"; then
        echo "perf-gate: benchmarks better than their thresholds (not a failure; record new thresholds to keep the gain)"
        return 0
    elif grep -aq "error: benchmarkThresholdRegression" "$log"; then
        return 2
    fi
    echo "perf-gate: the benchmark run failed with status $status"
    return 1
}

# The TimeRatios tool, built in the benchmark package's release build (`swift package benchmark` made the rest).
time_ratios() {
    (cd "$root/Benchmarks" && swift build -c release --product TimeRatios > "$logs/time-ratios-build.log" 2>&1) ||
        { tail -20 "$logs/time-ratios-build.log"; fail "TimeRatios did not build"; }
    echo "$root/Benchmarks/.build/release/TimeRatios"
}

# The base commit's TimeRatios, against which the time check judges this build's: the commit named in
# Benchmarks/Gate/time-base, built once per commit and toolchain into $TIME_BASE_CACHE/<commit>-<toolchain> (default
# ~/.cache/simharness/time-base: outside the clone, so that later CI runs on this machine find it; a commit's source
# and the compiler make the same binary, and a build is moved into place whole). Move the base forward on purpose,
# when a change of speed is accepted (docs/performance.md).
base_ratios() {
    local named commit toolchain cache dir staging
    named=$(tr -d "[:space:]" < "$root/Benchmarks/Gate/time-base")
    commit=$(git -C "$root" rev-parse --verify --quiet "$named^{commit}") ||
        fail "the time base $named (Benchmarks/Gate/time-base) is not in this clone (a shallow clone? fetch it)"
    toolchain=$(swift --version 2>/dev/null | sha256sum | cut -c1-12)
    cache="${TIME_BASE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simharness/time-base}"
    dir="$cache/$commit-$toolchain"
    if [ ! -x "$dir/TimeRatios" ]; then
        mkdir -p "$cache"
        staging=$(mktemp -d "$cache/.building-XXXXXX")
        git -C "$root" archive "$commit" | tar -x -C "$staging" ||
            { rm -rf "$staging"; fail "could not extract the base commit $commit"; }
        swift build -c release --package-path "$staging/Benchmarks" --product TimeRatios > "$logs/time-base-build.log" 2>&1 ||
            { rm -rf "$staging"; tail -20 "$logs/time-base-build.log" >&2; fail "the base commit's TimeRatios ($commit) did not build"; }
        mkdir -p "$staging/out" && cp "$staging/Benchmarks/.build/release/TimeRatios" "$staging/out/TimeRatios"
        rm -rf "$dir" && mv "$staging/out" "$dir"
        rm -rf "$staging"
    fi
    echo "$dir/TimeRatios"
}

# Runs the time check against the base build (against this build itself when $TIME_AGAINST_SELF is set: the
# bites, whose injected regression is then all there is to see); extra arguments go to it. Output in $1.
# Exit status: TimeRatios's.
run_times() {
    local log="$1" tool base; shift
    tool=$(time_ratios) || exit 1
    if [ -n "${TIME_AGAINST_SELF:-}" ]; then base=$tool; else base=$(base_ratios) || exit 1; fi
    (cd "$root" && "$tool" check --against "$base" "$@") 2>&1 | tee "$log"
    return "${PIPESTATUS[0]}"
}

step_xctest() {
    say "release XCTest performance tests"
    run_xctest "$logs/xctest.log" || fail "performance tests regressed or failed (see the XCTFail lines above)"
    grep -aq "Executed [1-9][0-9]* tests\?, with 0 failures" "$logs/xctest.log" || fail "no performance test ran"
    ! grep -aq "Test Case .* skipped" "$logs/xctest.log" || fail "performance tests were skipped (not a release build?)"
}

step_benchmarks() {
    say "benchmark threshold check"
    run_benchmarks "$logs/benchmarks.log"
    case $? in
        0) ;;
        2) fail "benchmarks regressed beyond their thresholds (see 'Deviations worse than threshold' above)" ;;
        *) fail "the benchmark check did not complete" ;;
    esac
}

step_times() {
    say "time ratios (each workload and the base build's in reference loops run beside them)"
    run_times "$logs/times.log"
    case $? in
        0) ;;
        1) fail "benchmark times regressed against the base build's (see the FAIL lines above)" ;;
        *) fail "the time check did not complete" ;;
    esac
}

# Asserts that the time check of this build against itself fails under SIMHARNESS_INJECT_REGRESSION=$1, with
# TimeRatios arguments after it.
expect_times_catch() {
    local regression="$1" log="$logs/bites-times-$1.log"; shift
    say "gate bites: times, $regression injected"
    SIMHARNESS_INJECT_REGRESSION="$regression" TIME_AGAINST_SELF=1 run_times "$log" "$@"
    local status=$?
    [ "$status" -eq 1 ] || fail "the time check returned $status (want 1, a regression) with an injected $regression"
    echo "perf-gate: caught as expected: $(grep -a "FAIL" "$log" | head -1)"
}

# Asserts that the XCTest gate fails test $2 under regression $1 and names metric $3.
expect_xctest_catches() {
    local regression="$1" test="$2" metric="$3" log="$logs/bites-xctest-$1.log"
    say "gate bites: XCTest, $regression injected into $test"
    # On the xctest step's build, not built again: in CI a `swift test` between other packages' builds recompiled the
    # whole package in 4 of 6 bites (95 to 170 s each), although no source had changed.
    if SIMHARNESS_INJECT_REGRESSION="$regression" XCTEST_FILTER="CoreAlgorithmPerformanceTests/$test" run_xctest "$log" --skip-build; then
        fail "the XCTest gate passed with an injected $regression"
    fi
    grep -aq "error: .*$test : .*$metric regressed: baseline" "$log" ||
        fail "the XCTest gate failed with an injected $regression but did not report '$metric regressed'"
    echo "perf-gate: caught as expected: $(grep -ao "$metric regressed: .*" "$log" | head -1)"
}

# Asserts that the benchmark gate fails benchmark $2 under regression $1 and names metric $3.
expect_benchmarks_catch() {
    local regression="$1" benchmark="$2" metric="$3" log="$logs/bites-benchmarks-$1.log"
    say "gate bites: benchmarks, $regression injected into $benchmark"
    SIMHARNESS_INJECT_REGRESSION="$regression" run_benchmarks "$log" --target CoreAlgorithms --filter "$benchmark"
    local status=$?
    [ "$status" -eq 2 ] || fail "the benchmark gate returned $status (want 2, a regression) with an injected $regression"
    grep -aq "Deviations worse than threshold" "$log" && grep -aq "$metric" "$log" ||
        fail "the benchmark gate failed with an injected $regression but did not report '$metric'"
    echo "perf-gate: caught as expected: $benchmark $metric"
}

# 10 % of metric $2 in the committed baseline of test $1, in bytes.
tenth_of_baseline() {
    local file="$root/PerformanceTests/Tests/PerformanceTests/Baselines/CoreAlgorithmPerformanceTests.$1.json"
    awk -v key="\"$2\"" '$1 == key { gsub(",", "", $3); printf "%d\n", $3 / 10 }' "$file"
}

# The time bites' sample: the core algorithms judged at +8 % (not MealRows: churning, judged at +50 %), in 31 rounds,
# with +40 % injected. Not +10 %: on this machine a round's speed moves by 60 % in phases of seconds, and an injected
# +10 % is measured at +5 to +15 % with intervals 4 to 8 points wide, which clear +8 % in some runs only
# (docs/performance.md); +25 % cleared it in every run alone, but in a CI run only in one workload of three, its
# third attempt at +8.3 %; +40 % leaves the margin.
time_bite_sample=(--filter FastingAccumulator --filter StepAccumulator --filter PaymentProcessor --rounds 31)
time_bite=time:40

step_bites() {
    step_xctest_bites
    expect_benchmarks_catch allocation FastingAccumulator "Malloc (total)"
    # +40 % time in every run of the core algorithms (judged at +8 %; the worlds' and MealRows' +50 % would let it pass),
    # failing every attempt (a short pause: a regression does not come and go).
    expect_times_catch "$time_bite" "${time_bite_sample[@]}" --pause 2
}

step_xctest_bites() {
    expect_xctest_catches allocation testStepAggregator allocations
    expect_xctest_catches allocation-per-user testPaymentProcessor allocations
    expect_xctest_catches allocation-per-user testGenerator allocations
    # +10 % peak resident memory: a buffer of a tenth of the baseline's peak RSS, every page written,
    # held through each run; the peak heap (2 % + 1 MiB) catches it, the RSS tolerance (25 % + 16 MiB) could not.
    expect_xctest_catches "memory:$(tenth_of_baseline testStepAggregator peakResidentBytes)" testStepAggregator "peak heap"
    # +10 % allocated bytes: one allocation of a tenth of the baseline's bytes in each run (one more
    # allocation, within the count's tolerance of 16), caught by the bytes (1 % + 4 KiB) alone.
    expect_xctest_catches "bytes:$(tenth_of_baseline testPaymentProcessor allocatedBytes)" testPaymentProcessor "allocated bytes"
    expect_xctest_catches slowdown testFastingAnalyzer "CPU time"
}

# The speed the time check's reference loop saw, from its log $1.
speed_in() { grep -ao "reference speed: [0-9.]*" "$1" | grep -o "[0-9.]*$"; }

step_load() {
    local spinners=() quiet loaded i
    say "gates under load: the reference speed, quiet"
    run_times "$logs/load-quiet.log" --filter CoreAlgorithms --filter World500Disk --rounds 11 > /dev/null
    quiet=$(speed_in "$logs/load-quiet.log")
    # Two busy loops a core: the gate's thread gets at most 2 / (2 × cores + 1) of the machine.
    for ((i = 0; i < 2 * $(nproc); i++)); do
        bash -c 'while :; do :; done' < /dev/null > /dev/null 2>&1 &
        spinners+=($!)
    done
    # shellcheck disable=SC2064  # the ids now: stopped however the step ends
    trap "kill ${spinners[*]} 2>/dev/null" EXIT
    say "gates under load: ${#spinners[@]} busy loops; the unchanged code must pass"
    run_times "$logs/load-times.log" --filter CoreAlgorithms --filter World500Disk --rounds 11 ||
        fail "the time check failed under load with the code unchanged (a false alarm)"
    loaded=$(speed_in "$logs/load-times.log")
    awk -v q="$quiet" -v l="$loaded" 'BEGIN { printf "perf-gate: the busy loops slowed the reference loop %.2fx (%s -> %s M loops/s)\n", q / l, q, l; exit !(q / l >= 1.8) }' ||
        fail "the busy loops did not halve the machine's speed: the proof under load means nothing"
    expect_times_catch "$time_bite" "${time_bite_sample[@]}" --pause 2
    say "gates under load: the instruction gate passes the unchanged code and fails +5 % and +10 % instructions"
    INSTRUCTION_PREBUILT=1 INSTRUCTION_WORKLOADS=fasting bash "$root/scripts/instruction-gate.sh" bites 1 2>&1 | tee "$logs/load-instructions.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail "the instruction gate missed an injected +5 % or +10 %, or alarmed, under load"
    kill "${spinners[@]}" 2>/dev/null
    trap - EXIT
}

# Runs the time check $1 times (default 30) on the unchanged code and counts its false alarms.
step_alarms() {
    local runs="${1:-30}" alarms=0 i
    for ((i = 1; i <= runs; i++)); do
        run_times "$logs/alarms-$i.log" > /dev/null || alarms=$((alarms + 1))
        echo "perf-gate: run $i: $(grep -c "  pass  " "$logs/alarms-$i.log") held, $(grep -c "  FAIL  " "$logs/alarms-$i.log") failed"
    done
    echo "perf-gate: $alarms false alarm(s) in $runs runs"
}

step_record() {
    say "recording XCTest baselines"
    SIMHARNESS_RECORD_BASELINES=1 run_xctest "$logs/record-xctest.log" || fail "recording the XCTest baselines failed"
    say "recording benchmark thresholds"
    (cd "$root/Benchmarks" && swift package --allow-writing-to-package-directory benchmark thresholds update \
        --path "$thresholds" --no-progress) || fail "recording the benchmark thresholds failed"
    # Counts only: a recorded time would fail every slower runner (the times are TimeRatios').
    python3 - "$root/Benchmarks/$thresholds" <<'PY' || fail "stripping the times from the thresholds failed"
import glob, json, sys
for path in glob.glob(sys.argv[1] + "/*.p90.json"):
    figures = {k: v for k, v in json.load(open(path)).items() if k not in ("cpuTotal", "cpuUser", "cpuSystem", "wallClock", "throughput")}
    open(path, "w").write(json.dumps(figures, indent=2, sort_keys=True).replace('": ', '" : ') + "\n")
PY
}

step_jemalloc() {
    say "ProcessMetrics tests with the Jemalloc trait"
    if [ ! -e /usr/include/jemalloc/jemalloc.h ]; then
        [ "$(id -u)" -eq 0 ] || fail "libjemalloc-dev is missing: apt-get install -y libjemalloc-dev"
        apt-get install -y -qq libjemalloc-dev >/dev/null || fail "could not install libjemalloc-dev"
    fi
    (cd "$root" && swift test --traits Jemalloc --scratch-path .build-jemalloc --filter ProcessMetricsTests) 2>&1 |
        tee "$logs/jemalloc.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || fail "the ProcessMetrics tests failed with the Jemalloc trait"
}

SECONDS=0
if [ "${1:-}" = alarms ]; then step_alarms "${2:-30}"; exit 0; fi
for step in "${@:-all}"; do
    case "$step" in
        all) step_xctest; step_benchmarks; step_times; step_bites; step_load ;;
        xctest) step_xctest ;;
        benchmarks) step_benchmarks ;;
        times) step_times ;;
        bites) step_bites ;;
        xctest-bites) step_xctest_bites ;;
        load) step_load ;;
        base) base_ratios > /dev/null ;;
        record) step_record ;;
        jemalloc) step_jemalloc ;;
        *) echo "usage: $0 [all|xctest|benchmarks|times|bites|xctest-bites|load|base|record|jemalloc]... | $0 alarms [N]" >&2; exit 64 ;;
    esac
done
say "passed"
