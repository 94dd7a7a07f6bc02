#!/usr/bin/env bash
# Tests leave nothing behind: compares the temporary directory's entries with a snapshot taken before
# the tests, and lists what they added. The toolchain's own entries are not the tests' and are ignored:
# the Swift driver's `TemporaryDirectory.*` (one a build), its macro expansions (`swift-generated-sources`)
# and SwiftPM's lock files.
#   scripts/leftovers.sh snapshot FILE   record the entries now
#   scripts/leftovers.sh check FILE      exit 1, listing them, when entries were added since FILE
#   scripts/leftovers.sh bites           a planted leftover must be reported
set -euo pipefail
tmp=${TMPDIR:-/tmp}
entries() { find "$tmp" -mindepth 1 -maxdepth 1 -printf '%f\n' | grep -vE '^TemporaryDirectory\.|^swift-generated-sources$|\.lock$' | sort; }

case "${1:-}" in
snapshot) entries > "$2" ;;
check)
  added=$(entries | comm -13 "$2" - | grep -vxF "$(basename "$2")" || true)
  if [ -n "$added" ]; then
    echo "leftovers: the tests left these in $tmp (a test must remove what it creates: TestSupport's ScratchDirectory does):"
    echo "$added" | head -20 | sed 's/^/  /'
    exit 1
  fi
  echo "leftovers: nothing left in $tmp"
  ;;
bites)
  snapshot=$(mktemp)
  planted="$tmp/leftovers-planted-$$"
  entries > "$snapshot"
  mkdir "$planted"
  if bash "$0" check "$snapshot" > /dev/null; then status=1; echo "leftovers: a planted directory was not reported"; else status=0; fi
  rm -rf "$planted" "$snapshot"
  [ "$status" -eq 0 ] && echo "leftovers: a planted leftover is reported"
  exit "$status"
  ;;
*) echo "usage: scripts/leftovers.sh snapshot FILE | check FILE | bites" >&2; exit 64 ;;
esac
