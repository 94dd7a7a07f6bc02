#!/usr/bin/env bash
# DocC for SimHarnessKit, the library users import: converts Sources/SimHarnessKit/SimHarnessKit.docc with
# the module's symbol graph (its re-exported HealthCore, PaymentsCore and UserAlgorithms symbols included),
# warnings as errors, and fails on any public symbol declared in Sources/ without a doc comment.
#   scripts/docs.sh [check|bites|all]
# The symbol graph comes from SYMBOL_GRAPHS (a folder of `swiftc -emit-symbol-graph` output: CI takes the one
# its example-check build made) or from a build of SimHarnessKit in .build-docs. The archive is written to
# .build-docs/SimHarnessKit.doccarchive. `bites` plants an undocumented symbol and a broken link and sees
# each refused.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
catalog=Sources/SimHarnessKit/SimHarnessKit.docc
out=.build-docs
docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
[ -x "$docc" ] || { echo "docs: no docc beside $(command -v swift)"; exit 1; }

symbols() {
  local graphs=${SYMBOL_GRAPHS:-}
  if [ -z "$graphs" ] || [ ! -f "$graphs/SimHarnessKit.symbols.json" ]; then
    graphs=$out/symbol-graphs
    mkdir -p "$graphs"
    swift build --scratch-path "$out" --target SimHarnessKit \
      -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$root/$graphs" > "$out/build.log" 2>&1 \
      || { tail -30 "$out/build.log"; echo "docs: SimHarnessKit did not build"; exit 1; }
  fi
  # The module's own graph only: SimHarnessKit@Simulation holds ArgumentParser conformances, not API.
  rm -rf "$out/graph" && mkdir -p "$out/graph"
  cp "$graphs/SimHarnessKit.symbols.json" "$out/graph/"
}

# Public symbols declared in a Sources/ folder without a doc comment (the graph is SimHarnessKit's, so all are
# this package's, here or in a clone; synthesized members, which have no source location, are left out).
undocumented() {
  python3 - "$1" <<'PY'
import json, sys
missing = []
for symbol in json.load(open(sys.argv[1]))["symbols"]:
    uri = symbol.get("location", {}).get("uri", "")
    if "/Sources/" in uri and "docComment" not in symbol:
        line = symbol["location"]["position"]["line"] + 1
        missing.append(f"{uri.rsplit('/Sources/', 1)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
for item in sorted(missing):
    print(f"docs: undocumented public symbol {item}")
sys.exit(1 if missing else 0)
PY
}

convert() { # catalog graph-folder
  "$docc" convert "$1" --additional-symbol-graph-dir "$2" --fallback-display-name SimHarnessKit \
    --fallback-bundle-identifier SimHarnessKit --output-path "$out/SimHarnessKit.doccarchive" --warnings-as-errors 2>&1
}

check() {
  symbols
  undocumented "$out/graph/SimHarnessKit.symbols.json"
  convert "$catalog" "$out/graph" > "$out/docc.log" || { cat "$out/docc.log"; echo "docs: docc reported problems"; exit 1; }
  echo "docs: SimHarnessKit's catalog converted without a warning, every public symbol documented ($out/SimHarnessKit.doccarchive)"
}

bites() {
  symbols
  # A public symbol of ours without its doc comment must be named.
  python3 - "$out/graph/SimHarnessKit.symbols.json" "$out/planted.symbols.json" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
victim = next(s for s in graph["symbols"] if "docComment" in s and "/Sources/" in s.get("location", {}).get("uri", ""))
del victim["docComment"]
json.dump(graph, open(sys.argv[2], "w"))
PY
  if undocumented "$out/planted.symbols.json" > /dev/null; then echo "docs: a planted undocumented symbol was not caught"; exit 1; fi
  # A link to a symbol that does not exist must fail the conversion.
  rm -rf "$out/planted.docc" && cp -R "$catalog" "$out/planted.docc"
  printf '\nSee ``SimHarness/noSuchFunction()``.\n' >> "$out/planted.docc/SimHarnessKit.md"
  if convert "$out/planted.docc" "$out/graph" > /dev/null; then echo "docs: a planted broken link was not caught"; exit 1; fi
  rm -rf "$out/planted.docc" "$out/planted.symbols.json"
  echo "docs: the planted undocumented symbol and broken link were both caught"
}

case ${1:-check} in
  check) check ;;
  bites) bites ;;
  all) check; bites ;;
  *) echo "usage: scripts/docs.sh [check|bites|all]" >&2; exit 2 ;;
esac
