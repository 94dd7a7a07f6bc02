#!/usr/bin/env bash
# The performance gate (`docs/performance.md`: "The performance gate"). Steps, run in this order by `all` (the default):
#   xctest      release XCTest performance tests (the PerformanceTests package) against their Baselines/
#   benchmarks  package-benchmark p90 threshold check against Benchmarks/Benchmarks/Thresholds
#   bites       inject known regressions (allocations, +10 % peak memory, +10 % allocated bytes, slowdown)
#               and assert that both gates above report them
# and, not part of `all`:
#   record      record new XCTest baselines and benchmark thresholds on this machine
#   jemalloc    the ProcessMetrics tests in a build with the `Jemalloc` trait (installs
#               libjemalloc-dev with apt-get when it is missing and we are root)
# Exit status: 0 when every step passes, 1 otherwise. Only regressions fail; improvements pass.
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

# Asserts that the XCTest gate fails test $2 under regression $1 and names metric $3.
expect_xctest_catches() {
    local regression="$1" test="$2" metric="$3" log="$logs/bites-xctest-$1.log"
    say "gate bites: XCTest, $regression injected into $test"
    if SIMHARNESS_INJECT_REGRESSION="$regression" XCTEST_FILTER="CoreAlgorithmPerformanceTests/$test" run_xctest "$log"; then
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

step_bites() {
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
    expect_benchmarks_catch allocation FastingAccumulator "Malloc (total)"
    # 2,048 dependent rounds every 16 events: one serial chain, ~250 ns an event. (`slowdown`'s 48 rounds an
    # event overlap from event to event: a CI run measured 60 ms p90 against the CPU threshold's 70 ms.)
    expect_benchmarks_catch work:2048 FastingAccumulator "Time (total CPU)"
}

step_record() {
    say "recording XCTest baselines"
    SIMHARNESS_RECORD_BASELINES=1 run_xctest "$logs/record-xctest.log" || fail "recording the XCTest baselines failed"
    say "recording benchmark thresholds"
    (cd "$root/Benchmarks" && swift package --allow-writing-to-package-directory benchmark thresholds update \
        --path "$thresholds" --no-progress) || fail "recording the benchmark thresholds failed"
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
case "${1:-all}" in
    all) step_xctest; step_benchmarks; step_bites ;;
    xctest) step_xctest ;;
    benchmarks) step_benchmarks ;;
    bites) step_bites ;;
    record) step_record ;;
    jemalloc) step_jemalloc ;;
    *) echo "usage: $0 [all|xctest|benchmarks|bites|record|jemalloc]" >&2; exit 64 ;;
esac
say "passed"
