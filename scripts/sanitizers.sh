#!/usr/bin/env bash
# Sanitizer runs of the unit tests (`docs/ci-and-gates.md`: "Sanitizers").
#   scripts/sanitizers.sh [selftest|thread|address|all]     default: all (selftest, thread, address)
#   selftest  planted defects, each built alone with swiftc (seconds, no package build): a data race
#             that ThreadSanitizer must report and an out-of-bounds read that AddressSanitizer must
#             report, both making their program fail; and a contended Mutex, which TSan reports unless
#             suppressed (the reason for scripts/tsan-suppressions.txt), silent under the suppressions
#   thread    ThreadSanitizer over the concurrent code's tests: the analyze engine (AnalysisTests),
#             OrderedParallel, the harness pipeline and run = generate + analyze, generate --jobs (CSV and
#             Parquet), worlds on simulated disks side by side, the seeded executor and load mode
#             (TSAN_SUITES); build in .build-tsan
#   address   AddressSanitizer over the Datasets and Analysis suites and the simulated disk's C VFS
#             (ASAN_SUITES); build in .build-asan
# Both builds define SANITIZED_TESTS: the suites' time limits (TestSupport's `.budget(minutes:)`) are 4 times longer.
# Each sanitizer stops the test process at its first report (halt_on_error=1), so a report fails the
# test run and the script; the log is searched for reports as well, in case one came from a child
# process. Exit status 0 when all passed, 1 otherwise, 64 for a bad argument.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
logs="$root/.build/sanitizers"
mkdir -p "$logs"
suppressions="$root/scripts/tsan-suppressions.txt"
# Only the Parquet export's test of one task against two: the rest of the Parquet suites (the writer, the readers, the
# CLI) run on one task, and took 300 of the 420 s of this run under TSan.
TSAN_SUITES=${TSAN_SUITES:-'AnalysisTests|ParallelWorkTests|PipelineTests|EquivalenceTests|DeterminismTests|DiskWorldTests|SimulatedDiskTests|ParquetExportTests/jobsDoNotChangeBytes|SeededWorldTests|ServiceWorldTests|ServiceLoadTests|ServiceLoadWorkloadTests'}
# TSAN_SKIP='a|b' leaves tests out of the TSan run (none by default). The two tests whose service calls the store or
# the SQLite disk from a thread of its own give their worlds 10 s of real time for that call: under TSan's load it came
# later than the default 100 ms grace for work from outside, and worlds read as deadlocks, not escapes.
TSAN_SKIP=${TSAN_SKIP:-}
ASAN_SUITES=${ASAN_SUITES:-'DatasetsTests|AnalysisTests|SimulatedDiskTests|DiskWorldTests'}
# The test targets holding those suites: each build compiles only these (Package.swift's SIMHARNESS_TEST_TARGETS), and
# a suite of the filter that none of them holds fails the run.
TSAN_TARGETS=${TSAN_TARGETS:-'AnalysisTests,ParallelWorkTests,RunEngineTests,GenerationTests,PaymentSimulationTests,SimulatedDiskTests,ServiceSimulationTests,ServiceLoadTests,BenchmarkWorkloadsTests'}
ASAN_TARGETS=${ASAN_TARGETS:-'DatasetsTests,AnalysisTests,SimulatedDiskTests,PaymentSimulationTests'}
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 print_suppressions=1 suppressions=$suppressions"
# Leak checking stays off: the test runner and the Swift runtime keep allocations to the end on purpose.
export ASAN_OPTIONS="halt_on_error=1 detect_leaks=0 detect_stack_use_after_return=0"

say() { printf 'sanitizers [%4d s]: %s\n' "$SECONDS" "$*"; }
fail() { printf 'sanitizers: FAIL: %s\n' "$*" >&2; exit 1; }

# Builds scripts/sanitizer-selftest/$1.swift with -sanitize=$2 and runs it with the environment given
# after; prints the exit status and the number of sanitizer reports ("STATUS REPORTS").
run_planted() {
    local name="$1" sanitizer="$2"; shift 2
    local binary="$logs/$name" log="$logs/$name.log"
    swiftc -Onone -sanitize="$sanitizer" "scripts/sanitizer-selftest/$name.swift" -o "$binary" > "$log.build" 2>&1 ||
        { cat "$log.build" >&2; fail "could not build the planted $name"; }
    env "$@" "$binary" > "$log" 2>&1
    echo "$? $(grep -acE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log")"
}

step_selftest() {
    say "selftest: planted defects"
    local result
    result=$(run_planted planted-race thread)
    [ "${result% *}" -ne 0 ] && [ "${result#* }" -ge 1 ] ||
        fail "a planted data race went unreported (status and reports: $result)"
    say "caught as expected: the planted data race (status ${result% *}, $(grep -a -m1 "WARNING: ThreadSanitizer" "$logs/planted-race.log"))"
    result=$(run_planted planted-overflow address)
    [ "${result% *}" -ne 0 ] && [ "${result#* }" -ge 1 ] ||
        fail "a planted out-of-bounds read went unreported (status and reports: $result)"
    say "caught as expected: the planted out-of-bounds read (status ${result% *}, $(grep -ao -m1 "AddressSanitizer: [a-z-]*" "$logs/planted-overflow.log"))"
    # A contended Mutex: reported without a suppression (why the suppressions exist; a contention
    # that does not happen in one run makes this check pass vacuously, so it is only reported), and
    # silent with a suppression for it alone.
    result=$(run_planted contended-mutex thread TSAN_OPTIONS="halt_on_error=1")
    say "a contended Mutex without suppressions: status ${result% *}, ${result#* } report(s) (TSan cannot see its contended path)"
    printf 'race_top:contendedIncrement\n' > "$logs/contended-mutex.supp"
    result=$(run_planted contended-mutex thread TSAN_OPTIONS="halt_on_error=1 suppressions=$logs/contended-mutex.supp")
    [ "$result" = "0 0" ] || fail "a contended Mutex was reported although suppressed (status and reports: $result)"
    say "selftest passed"
}

# Runs the suites matching $3 (but not $4) of the test targets $5 (comma-separated), built with sanitizer $1 in scratch
# path $2.
run_suites() {
    local sanitizer="$1" scratch="$2" filter="$3" skip="${4:-}" log="$logs/$1.log" start=$SECONDS
    export SIMHARNESS_TEST_TARGETS="$5"
    say "$sanitizer: building the test targets $SIMHARNESS_TEST_TARGETS in $scratch"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DSANITIZED_TESTS > "$log.build" 2>&1 ||
        { tail -30 "$log.build"; fail "the $sanitizer-sanitized tests did not build"; }
    say "$sanitizer: built in $((SECONDS - start)) s; running '$filter'"
    local suite listed
    listed=$(swift test list --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DSANITIZED_TESTS 2>/dev/null) ||
        fail "$sanitizer: the built tests could not be listed"
    for suite in ${filter//|/ }; do
        grep -q "$suite" <<< "$listed" || fail "$sanitizer: no built test target holds '$suite' (add its target to the list)"
    done
    # At most 20 minutes (the run takes 2 to 4): a hang fails with its status, 124, instead of holding CI to its limit.
    timeout 1200 swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DSANITIZED_TESTS \
        --filter "$filter" ${skip:+--skip "$skip"} > "$log" 2>&1
    local status=$?
    [ "$status" -ne 124 ] || fail "$sanitizer: the test run did not end within 20 minutes (a hang); the log is $log"
    local reports
    reports=$(grep -acE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:" "$log")
    grep -aE "Test run with|Executed [0-9]+ tests" "$log" | tail -2
    if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
        grep -aE -A30 "WARNING: ThreadSanitizer|ERROR: AddressSanitizer" "$log" | head -60
        grep -aE "✘|error:" "$log" | head -20
        fail "$sanitizer: status $status, $reports sanitizer report(s); the log is $log"
    fi
    grep -aqE "Test run with [1-9][0-9]* tests?" "$log" || fail "$sanitizer: no test ran (filter '$filter')"
    grep -aA12 "Matched [0-9]* suppressions" "$log" | grep -aE "Matched|race" || true
    say "$sanitizer: 0 reports, $((SECONDS - start)) s in all"
}

step_thread() { run_suites thread .build-tsan "$TSAN_SUITES" "$TSAN_SKIP" "$TSAN_TARGETS"; }
step_address() { run_suites address .build-asan "$ASAN_SUITES" "" "$ASAN_TARGETS"; }

SECONDS=0
case "${1:-all}" in
    all) step_selftest; step_thread; step_address ;;
    selftest) step_selftest ;;
    thread) step_thread ;;
    address) step_address ;;
    *) echo "usage: $0 [selftest|thread|address|all]" >&2; exit 64 ;;
esac
say "passed"
