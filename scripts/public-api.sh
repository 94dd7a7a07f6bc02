#!/usr/bin/env bash
# Counts, per module under Sources/, the declarations that are `public` or `open` without `@_spi`: the lines
# matching ^\s*(@attribute\s+)*(public|open)\s that do not contain `@_spi`. CLITests' PublicAPITests counts
# the same way and holds each module at or under its ceiling in docs/versioning.md.
#   scripts/public-api.sh    one line a module, then the total
set -euo pipefail
cd "$(dirname "$0")/.."
total=0
for dir in Sources/*/; do
    module=$(basename "$dir")
    count=$(grep -rhE --include='*.swift' '^\s*(@\w+(\(.*\))?\s+)*(public|open)\s' "$dir" | grep -vc '@_spi' || true)
    printf '%-22s %5d\n' "$module" "$count"
    total=$((total + count))
done
printf '%-22s %5d\n' total "$total"
