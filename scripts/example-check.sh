#!/usr/bin/env bash
# The README's walk-through, end to end, as a Swift team adopts SimHarness: Examples/CustomAnalyzer is
# copied beside a tagged clone of this checkout's HEAD and depends on it by URL and version
# (`.package(url: "file://…/SimHarness", from: "<toolVersion>")`, which SwiftPM refuses for a package with
# unsafe build flags); the copy builds, its correct analyzer passes (exit 0, no mismatches) and its analyzer
# with a planted bug fails (exit 1, the mismatching field named) on the example's CI scenario.
# Then the gallery, Examples/PaymentServiceUnderTest (an async PaymentService actor behind repository and
# gateway protocols, with nine bugs planted by BUG), copied and rewritten the same way and built once, with
# SimHarness's build shared: the correct service passes `simulate --seeds 2000`; each planted bug fails
# `simulate --seeds 200` (exit 1) with a reproduce line, which, run twice, fails both times with the same
# violation and the same trace hash; and under load (`run`), the correct service matches the SPEC reference
# while a planted bug does not.
# Both build with `-c release`, as users build what they measure (issue 52: a -O build once crashed at start
# while debug ran), and every check runs on that build (one build of SimHarness, optimized: CI's longest step
# was the debug build beside a release one).
set -uo pipefail
# The traits' -D flags in one order for both builds (.ci/run says why), so the second compiles only its own code.
export SWIFT_DETERMINISTIC_HASHING=1
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(grep -rhoE 'toolVersion = "[0-9]+\.[0-9]+\.[0-9]+"' "$root/Sources" | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
[ -n "$version" ] || { echo "example: no toolVersion in Sources"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" diff --quiet HEAD 2>/dev/null || echo "example: uncommitted changes are not in the tagged clone (HEAD is)"
git clone -q "$root" "$work/SimHarness" && git -C "$work/SimHarness" tag -f "$version" > /dev/null \
  || { echo "example: could not make a tagged clone of $root"; exit 1; }
cp -R "$root/Examples/CustomAnalyzer/." "$work/CustomAnalyzer/"
rm -rf "$work/CustomAnalyzer/.build" "$work/CustomAnalyzer/Package.resolved"
sed -i "s|\.package(name: \"SimHarness\", path: \"\.\./\.\.\")|.package(url: \"file://$work/SimHarness\", from: \"$version\")|" \
  "$work/CustomAnalyzer/Package.swift"
grep -q "from: \"$version\"" "$work/CustomAnalyzer/Package.swift" || { echo "example: the dependency line was not rewritten"; exit 1; }
# The gallery: a payment service shaped like the testing guides' (Examples/PaymentServiceUnderTest), under
# `simulate`. It comes before the unsafe-flags check below, which tags a planted release that `from:` would pick.
cp -R "$root/Examples/PaymentServiceUnderTest/." "$work/PaymentServiceUnderTest/"
rm -rf "$work/PaymentServiceUnderTest/.build" "$work/PaymentServiceUnderTest/Package.resolved"
sed -i "s|\.package(name: \"SimHarness\", path: \"\.\./\.\.\")|.package(url: \"file://$work/SimHarness\", from: \"$version\")|" \
  "$work/PaymentServiceUnderTest/Package.swift"
grep -q "from: \"$version\"" "$work/PaymentServiceUnderTest/Package.swift" || { echo "example: the gallery's dependency line was not rewritten"; exit 1; }
# Both example packages build in one scratch folder, with -c release: SimHarness and its dependencies are
# compiled once, optimized, for the first.
scratch=(-c release --scratch-path "$work/build")
out=$work/out.txt
cd "$work/CustomAnalyzer"
# SYMBOL_GRAPHS=DIR: the build also writes every module's symbol graph there (scripts/docs.sh reads
# SimHarnessKit's, so CI builds SimHarness once for both).
graph_flags=()
[ -z "${SYMBOL_GRAPHS:-}" ] || graph_flags=(-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$SYMBOL_GRAPHS")
(swift build "${scratch[@]}" "${graph_flags[@]}" > build.log 2>&1) || { tail -30 build.log; echo "example: the package did not build against SimHarness $version by URL"; exit 1; }
echo "example: built against SimHarness $version by URL ($(grep -A6 '"identity" : "simharness"' Package.resolved | grep -oE '"version" : "[^"]+"'))"
bin=$(swift build "${scratch[@]}" --show-bin-path)
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
echo "example: the correct analyzer passed, the planted bug was caught and named"

cd "$work/PaymentServiceUnderTest"
built=$SECONDS
(swift build "${scratch[@]}" "${graph_flags[@]}" > build.log 2>&1) || { tail -30 build.log; echo "example: the gallery did not build against SimHarness $version by URL"; exit 1; }
echo "example: the gallery built against SimHarness $version by URL in $((SECONDS - built)) s"
sim=$(swift build "${scratch[@]}" --show-bin-path)/payment-sim
"$sim" simulate --seeds 2000 > "$out" 2>&1
status=$?
grep -a "^simulated" "$out"
if [ "$status" -ne 0 ] || ! grep -aqx "no violation" "$out"; then
  head -60 "$out"; echo "example: the correct payment service did not pass 2000 worlds (exit $status)"; exit 1
fi
# The planted bugs, as the binary names them when BUG is none of them (exit 2).
BUG=no-such-bug "$sim" simulate --seeds 1 > "$out" 2>&1
status=$?
bugs=$(sed -n 's/.*use one of \(.*\), or no BUG$/\1/p' "$out" | tr -d ',')
if [ "$status" -ne 2 ] || [ "$(echo $bugs | wc -w)" -lt 9 ]; then
  cat "$out"; echo "example: an unknown BUG did not exit 2 naming the nine planted bugs (exit $status)"; exit 1
fi
for bug in $bugs; do
  BUG=$bug "$sim" simulate --seeds 200 > "$out" 2>&1
  status=$?
  line=$(grep -a "^reproduce: " "$out" | head -1 | sed 's/^reproduce: //')
  violation=$(grep -a "^violation: " "$out" | head -1)
  if [ "$status" -ne 1 ] || [ "${line%% payment-sim *}" != "BUG=$bug" ]; then
    head -40 "$out"; echo "example: BUG=$bug was not caught within 200 seeds with a reproduce line that names it (exit $status)"; exit 1
  fi
  first=$(grep -aoE "the first, seed 0x[0-9a-f]+: [^:]+" "$out")
  hashes=()
  for run in 1 2; do
    # shellcheck disable=SC2086 # the line's words are its arguments; it sets BUG itself
    env ${line%% payment-sim *} "$sim" ${line#* payment-sim } > "$out.$run" 2>&1
    status=$?
    hashes+=("$(grep -aoE "trace hash 0x[0-9a-f]+" "$out.$run" | head -1)")
    if [ "$status" -ne 1 ] || ! grep -aqxF "$violation" "$out.$run"; then
      head -20 "$out.$run"; echo "example: BUG=$bug: '$line' did not fail again with '$violation' (run $run, exit $status)"; exit 1
    fi
  done
  if [ -z "${hashes[0]}" ] || [ "${hashes[0]}" != "${hashes[1]}" ]; then
    echo "example: BUG=$bug: '$line' ran twice with trace hashes '${hashes[0]}' and '${hashes[1]}'"; exit 1
  fi
  echo "example: BUG=$bug caught ($first); '$line' fails twice, ${hashes[0]}"
done
echo "example: the correct payment service passed 2000 worlds; each planted bug was caught within 200 seeds and reproduced"
# Load mode: the correct service's answers and ledger match the SPEC reference on the default stream (exit 0);
# a retry under a new gateway key charges twice, which the check against the reference catches (exit 1).
"$sim" run > "$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -aq "every answer and the ledger match the SPEC reference" "$out"; then
  tail -20 "$out"; echo "example: the correct payment service did not match the SPEC reference under load (exit $status)"; exit 1
fi
grep -a "^load mode:" "$out"
BUG=retry-without-key "$sim" run > "$out" 2>&1
status=$?
if [ "$status" -ne 1 ] || ! grep -aq "mismatches against the SPEC reference; the first differing request" "$out"; then
  tail -20 "$out"; echo "example: BUG=retry-without-key was not caught under load (exit $status)"; exit 1
fi
echo "example: under load the correct service matches the SPEC reference; BUG=retry-without-key is caught: $(grep -ao "[0-9]* mismatches against the SPEC reference" "$out")"
cd "$work/CustomAnalyzer"

# The check bites: a release of the dependency with an unsafe flag in one target (tagged as the next patch)
# must be refused by the consumer's build, before anything compiles.
cat >> "$work/SimHarness/Package.swift" <<'SWIFT'
for target in package.targets where target.type == .regular {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}
SWIFT
next=$(echo "$version" | awk -F. '{ print $1 "." $2 "." $3 + 1 }')
git -C "$work/SimHarness" -c user.name=ci -c user.email=ci@localhost commit -qam "planted: unsafe flags" \
  && git -C "$work/SimHarness" tag "$next" || { echo "example: could not plant the unsafe flags"; exit 1; }
swift package update "${scratch[@]}" > update.log 2>&1 || { tail -20 update.log; echo "example: could not resolve $next"; exit 1; }
if swift build "${scratch[@]}" > planted.log 2>&1 || ! grep -q "contains unsafe build flags" planted.log; then
  tail -20 planted.log; echo "example: a release with unsafe flags was not refused (the check does not bite)"; exit 1
fi
echo "example: a planted release $next with unsafe flags is refused as a dependency, as it must be"
