#!/usr/bin/env bash
# Commit subjects of at most 72 characters, the detail in the body (docs/ci-and-gates.md). The rule holds from the
# commit after e9b2321 on; older subjects are history.
#   scripts/commit-subjects.sh check   fail on a longer subject in e9b2321..HEAD, naming the commit
#   scripts/commit-subjects.sh bites   a planted subject of 73 characters fails the check, one of 72 passes
#   scripts/commit-subjects.sh all     both (what CI runs)
# Characters, not bytes: "—" and "±" count one each. Exit status 0, 1 on a long subject, 64 for a bad argument.
set -euo pipefail
cd "$(dirname "$0")/.."
anchor=e9b2321
limit=72

# Reads "HASH SUBJECT" lines on standard input; prints each subject over the limit, and fails if there is one.
long_subjects() {
    python3 -c '
import sys
limit = int(sys.argv[1])
long = [line.rstrip("\n") for line in sys.stdin if len(line.rstrip("\n").split(" ", 1)[-1]) > limit]
for line in long:
    hash, subject = line.split(" ", 1)
    print(f"commit-subjects: {hash}: {len(subject)} characters, over {limit}: {subject}")
sys.exit(1 if long else 0)
' "$limit"
}

check() {
    git rev-parse --verify --quiet "$anchor^{commit}" > /dev/null ||
        { echo "commit-subjects: $anchor is not in this clone (a shallow clone? fetch it)"; exit 1; }
    local count
    count=$(git rev-list --count "$anchor..HEAD")
    git log --format='%h %s' "$anchor..HEAD" | long_subjects ||
        { echo "commit-subjects: FAIL: write the subject in at most $limit characters, the detail in the body"; exit 1; }
    echo "commit-subjects: $count subjects since $anchor, none over $limit characters"
}

bites() {
    local at72 at73
    at72=$(printf 'a%.0s' $(seq 1 71))
    at73="$at72—é"
    at72="$at72—"
    echo "abc1234 $at72" | long_subjects > /dev/null || { echo "commit-subjects: a subject of $limit characters was refused"; exit 1; }
    if echo "abc1234 $at73" | long_subjects > /dev/null; then
        echo "commit-subjects: a subject of 73 characters passed"; exit 1
    fi
    echo "commit-subjects: caught as expected: a subject of 73 characters (one of $limit passes)"
}

case "${1:-all}" in
    check) check ;;
    bites) bites ;;
    all) check; bites ;;
    *) echo "usage: scripts/commit-subjects.sh [check|bites|all]" >&2; exit 64 ;;
esac
