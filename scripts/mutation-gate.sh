#!/usr/bin/env bash
# The mutation gate (docs/mutation.md): mutants of the reference algorithms, all built into one schemata executable
# as a user implementation (SIMHARNESS_MUTANT picks one), each run once against the untouched reference on a scenario.
#   scripts/mutation-gate.sh gate [SEED]   a seeded sample (MUTATION_SAMPLE, default 100; SEED defaults to the commit);
#                                          fails on a survivor listed neither in Mutation/equivalent-mutants.txt nor
#                                          in Mutation/open-survivors.txt (known open ones: reported as OPEN, a ratchet)
#   scripts/mutation-gate.sh bites [SEED]  proof that it bites: a weak scenario (one user, one day) must leave
#                                          unlisted survivors, and without each list its mutants must count as survivors
#   scripts/mutation-gate.sh tests         the tool's unit tests (Mutation/Tests), even when the tool is cached
#   scripts/mutation-gate.sh all [SEED]    the tests, the gate and the proof (what CI runs; MUTATION_BITES=0 leaves out
#                                          the proof, as CI does on the commits where it is not due)
#   scripts/mutation-gate.sh full          every mutant: the figures in docs/mutation.md
# MUTATION_SCENARIO: the scenario (default edges); MUTATION_CONFIGURATION: debug (default) or release;
# MUTATION_SCRATCH: the schemata package's build folder (default .build-mutants/.build, or Examples/CustomAnalyzer/.build
# when the example was built in place: both packages build SimHarnessKit alike, so only the mutants' module compiles).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
seed=${2:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo 0)}
scenario=${MUTATION_SCENARIO:-edges}
sample=${MUTATION_SAMPLE:-100}
configuration=${MUTATION_CONFIGURATION:-debug}
scratch=${MUTATION_SCRATCH:-}
if [ -z "$scratch" ] && [ -d Examples/CustomAnalyzer/.build/debug ]; then scratch=Examples/CustomAnalyzer/.build; fi
start=$SECONDS

log=$(mktemp)
weak=$(mktemp --suffix=.yaml)
trap 'rm -f "$log" "$weak"' EXIT
# The tool, and the proof that its unit tests passed, are kept per content of Mutation/'s sources and manifest and per
# toolchain (~/.cache/simharness/mutation-tool/KEY): an unchanged tool is neither built (swift-syntax: 3 minutes in CI)
# nor tested again.
key=$( (swift --version 2>&1; find Mutation/Package.swift Mutation/Sources Mutation/Tests -type f -print0 | sort -z | xargs -0 sha256sum) |
  sha256sum | cut -c1-16)
cache=${MUTATION_TOOL_CACHE:-$HOME/.cache/simharness/mutation-tool}/$key
if [ -x "$cache/simharness-mutate" ] && [ -f "$cache/tests-passed" ]; then
  tool=$cache/simharness-mutate
  echo "mutation: tool $key cached, its tests passed when it was built ($cache)"
else
  swift build --package-path Mutation --product simharness-mutate > "$log" 2>&1 || { tail -30 "$log"; echo "mutation: the tool did not build"; exit 1; }
  tool="$(swift build --package-path Mutation --show-bin-path)/simharness-mutate"
  echo "mutation: tool built at $((SECONDS - start)) s"
fi
# The tool's unit tests, and on success the tool into the cache (a failure leaves no cache entry).
tool_tests() { # [force]: run them even when the tool is cached
  [ "${1:-}" = force ] || [ "$tool" != "$cache/simharness-mutate" ] || return 0
  swift test --package-path Mutation > "$log" 2>&1 || { tail -30 "$log"; echo "mutation: the tool's unit tests failed"; exit 1; }
  grep -aE "Test run with|Executed [0-9]+ tests" "$log" | tail -2
  mkdir -p "$cache"
  cp "$tool" "$cache/simharness-mutate.partial" && mv "$cache/simharness-mutate.partial" "$cache/simharness-mutate"
  touch "$cache/tests-passed"
}
mutate() { "$tool" run --configuration "$configuration" ${scratch:+--scratch-path "$scratch"} "$@"; }

gate() {
  mutate --scenario "$scenario" --sample "$sample" --seed "$seed"
}

bites() {
  # A scenario too small to reach most boundaries: its survivors in neither list must fail the gate (exit 1, not an
  # error's 2). Every mutant, not a sample: the boundary population every check adds kills most of them, so a sample
  # of 20 drew none of its 18 unlisted survivors (of 303) about 3 times in 10.
  printf 'name: weak\ndescription: one user for one day\nusers: 1\ndays: 1\nseed: 1\nthresholds:\n  - mismatches == 0\n' > "$weak"
  set +e
  mutate --scenario "$weak" > "$log" 2>&1
  status=$?
  set -e
  if [ "$status" -ne 1 ] || ! grep -q "^  survived: " "$log"; then
    cat "$log"; echo "mutation: the gate did not bite on a weak scenario (exit $status)"; exit 1
  fi
  echo "mutation: a weak scenario's unlisted survivors fail the gate ($(grep -c '^  survived: ' "$log") of them)"
  # The listed equivalents survive every scenario: without the list, they must fail the gate.
  if grep -q " -- " Mutation/equivalent-mutants.txt; then
    set +e
    mutate --scenario "$scenario" --keys Mutation/equivalent-mutants.txt --sample 10 --seed "$seed" --equivalents /dev/null > "$log" 2>&1
    status=$?
    set -e
    if [ "$status" -ne 1 ]; then cat "$log"; echo "mutation: without the list of equivalents the gate passed (exit $status)"; exit 1; fi
    echo "mutation: without the list of equivalents, its mutants fail the gate"
  fi
  # The known open survivors are not hidden: without their list (the equivalents still listed), they fail the gate.
  if grep -v "^#" Mutation/open-survivors.txt | grep -q " -- "; then
    set +e
    mutate --scenario "$scenario" --keys Mutation/open-survivors.txt --open /dev/null > "$log" 2>&1
    status=$?
    set -e
    if [ "$status" -ne 1 ] || ! grep -q "^  survived: " "$log"; then
      cat "$log"; echo "mutation: without the list of open survivors the gate passed (exit $status)"; exit 1
    fi
    echo "mutation: without the list of open survivors, $(grep -c '^  survived: ' "$log") of them fail the gate"
  fi
}

case "$mode" in
  gate) gate ;;
  bites) bites ;;
  tests) tool_tests force ;;
  all) tool_tests; gate; if [ "${MUTATION_BITES:-1}" = 0 ]; then echo "mutation: its bites are not due on this commit"; else bites; fi ;;
  full) mutate --scenario "$scenario" ;;
  *) echo "usage: scripts/mutation-gate.sh [tests|gate|bites|all|full] [SEED]"; exit 64 ;;
esac
echo "mutation: $mode done in $((SECONDS - start)) s"
