#!/usr/bin/env bash
# The Parquet datasets of `generate --format parquet` read by the real readers (issue 38 §4): pyarrow,
# polars and DuckDB, installed from PyPI into a virtual environment, read an unsharded dataset and a
# Hive dataset of 2 shards; scripts/parquet_check.py compares every value with the CSV of the same seed
# and checks schema, statistics, counts and partitioning.
#
#   scripts/parquet-check.sh check   the check (exit 1 on a difference)
#   scripts/parquet-check.sh bites   proof that it bites: a tampered CSV value, a Parquet file rewritten
#                                     with one wrong value, a file without statistics and a wrong manifest
#                                     count must each fail it
#   scripts/parquet-check.sh all     both (what .ci/run runs)
#
# SIMHARNESS names the binary (default .build/debug/simharness), PARQUET_VENV the environment (default
# .build/parquet-venv, made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
bin=${SIMHARNESS:-.build/debug/simharness}
venv=${PARQUET_VENV:-.build/parquet-venv}
py=$venv/bin/python

if ! "$py" -c "import pyarrow, polars, duckdb" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check pyarrow==26.0.1 polars==2.1.0 duckdb==2.0.1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen() { "$bin" generate --scenario faults --users 150 --days 4 --seed 5 "$@" > /dev/null; }
gen --out "$work/csv"
gen --out "$work/parquet" --format parquet
for k in 0 1; do
  gen --out "$work/csv$k" --shard "$k/2"
  gen --out "$work/hive" --format parquet --shard "$k/2"
done

check() { "$py" scripts/parquet_check.py "$@"; }

if [ "$mode" = check ] || [ "$mode" = all ]; then
  check --csv "$work/csv" --parquet "$work/parquet"
  check --csv "$work/csv0" "$work/csv1" --parquet "$work/hive"
fi

if [ "$mode" = bites ] || [ "$mode" = all ]; then
  # Each planted defect must make the check fail, for that defect (its message holds `reason`).
  must_fail() {
    local what=$1 reason=$2 out; shift 2
    if out=$(check "$@" 2>&1); then echo "parquet-check: did not bite on $what"; exit 1; fi
    grep -q -- "$reason" <<< "$out" || { echo "parquet-check: $what failed for another reason: $out"; exit 1; }
    echo "parquet-check: bites on $what (${out#parquet-check: })"
  }
  cp -r "$work/csv" "$work/csv-tampered"
  sed -i '5s/,\([a-z]*\),\([0-9]*\)\.\?[0-9]*,/,\1,9\2.5,/' "$work/csv-tampered/meals.csv"
  cmp -s "$work/csv/meals.csv" "$work/csv-tampered/meals.csv" && { echo "parquet-check: the tampering changed nothing"; exit 1; }
  must_fail "a tampered CSV value" "but the CSV has" --csv "$work/csv-tampered" --parquet "$work/parquet"

  cp -r "$work/parquet" "$work/rewritten"
  "$py" - "$work/rewritten/steps.parquet" <<'EOF'
import sys, pyarrow as pa, pyarrow.parquet as pq
path = sys.argv[1]
table = pq.read_table(path)
counts = table.column("count").to_pylist()
counts[3] += 1
index = table.schema.get_field_index("count")
table = table.set_column(index, table.schema.field(index), pa.array(counts, pa.float64()))
pq.write_table(table, path, use_dictionary=["user_id", "source", "count"], compression="zstd")
EOF
  must_fail "a Parquet file rewritten with one wrong value" "steps shard 0 line" --csv "$work/csv" --parquet "$work/rewritten"

  cp -r "$work/parquet" "$work/nostats"
  "$py" - "$work/nostats/users.parquet" <<'EOF'
import sys, pyarrow.parquet as pq
path = sys.argv[1]
pq.write_table(pq.read_table(path), path, use_dictionary=["protocol", "sex", "activity"], write_statistics=False)
EOF
  must_fail "a file without statistics" "no statistics" --csv "$work/csv" --parquet "$work/nostats"

  cp -r "$work/hive" "$work/hive-manifest"
  sed -i 's/"rejected_rows": \([0-9]*\), "bytes"/"rejected_rows": 1\1, "bytes"/' "$work/hive-manifest/manifest-shard-1.json"
  must_fail "a wrong manifest count" "manifest says" --csv "$work/csv0" "$work/csv1" --parquet "$work/hive-manifest"
fi
