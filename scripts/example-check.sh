#!/usr/bin/env bash
# The README's walk-through, end to end, as a Swift team adopts SimHarness: Examples/CustomAnalyzer is
# copied beside a tagged clone of this checkout's HEAD and depends on it by URL and version
# (`.package(url: "file://…/SimHarness", from: "<toolVersion>")`, which SwiftPM refuses for a package with
# unsafe build flags); the copy builds, its correct analyzer passes (exit 0, no mismatches) and its analyzer
# with a planted bug fails (exit 1, the mismatching field named) on the example's CI scenario.
set -uo pipefail
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
cd "$work/CustomAnalyzer"
# SYMBOL_GRAPHS=DIR: the build also writes every module's symbol graph there (scripts/docs.sh reads
# SimHarnessKit's, so CI builds SimHarness once for both).
graph_flags=()
[ -z "${SYMBOL_GRAPHS:-}" ] || graph_flags=(-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$SYMBOL_GRAPHS")
(swift build "${graph_flags[@]}" > build.log 2>&1) || { tail -30 build.log; echo "example: the package did not build against SimHarness $version by URL"; exit 1; }
echo "example: built against SimHarness $version by URL ($(grep -A6 '"identity" : "simharness"' Package.resolved | grep -oE '"version" : "[^"]+"'))"
bin=$(swift build --show-bin-path)
out=$work/out.txt
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
swift package update > update.log 2>&1 || { tail -20 update.log; echo "example: could not resolve $next"; exit 1; }
if swift build > planted.log 2>&1 || ! grep -q "contains unsafe build flags" planted.log; then
  tail -20 planted.log; echo "example: a release with unsafe flags was not refused (the check does not bite)"; exit 1
fi
echo "example: a planted release $next with unsafe flags is refused as a dependency, as it must be"
