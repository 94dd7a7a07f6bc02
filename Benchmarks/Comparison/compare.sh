#!/usr/bin/env bash
# Times `simharness analyze` against the polars reference `fasting_polars.py` on one dataset,
# checks that both write the same fasting_summary.csv, and prints the speed ratio.
#
#   Benchmarks/Comparison/compare.sh [--data DIR] [--out DIR] [--runs N] [--make-args "ARGS"]
#                                    [--no-build] [--simharness EXE] [--polars-only]
#
#   --data DIR       dataset directory (default /work/data/bench); made by make_dataset.py if it
#                    lacks users.csv or meals.csv
#   --out DIR        where the outputs and timing logs go (default DIR of --data + "-compare")
#   --runs N         timed runs of each program (default 2; the machine is shared, so timings are noisy)
#   --make-args ARGS extra make_dataset.py arguments when the dataset is made, e.g. "--steps --payments"
#   --no-build       use the existing .build/release/simharness
#   --simharness EXE the executable to time (default .build/release/simharness; implies --no-build)
#   --polars-only    time only the polars reference (no build, no diff)
#
# Exit status: 0 when every run succeeded and the summaries are identical, 1 otherwise.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
data=/work/data/bench
out=""
runs=2
make_args=""
build=1
polars_only=0
simharness="$root/.build/release/simharness"

while [[ $# -gt 0 ]]; do
    case "$1" in
        --data) data="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --make-args) make_args="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --simharness) simharness="$2"; build=0; shift 2 ;;
        --polars-only) polars_only=1; build=0; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare.sh: unknown argument $1" >&2; exit 1 ;;
    esac
done
data="${data%/}"
out="${out:-$data-compare}"

if [[ ! -x /usr/bin/time ]]; then
    echo "== installing GNU time (apt)"
    apt-get update -qq && apt-get install -y -qq time >/dev/null
fi
if ! python3 -c "import polars, numpy" 2>/dev/null; then
    echo "== installing $here/requirements.txt (pip)"
    python3 -m pip install -q -r "$here/requirements.txt"
fi

if [[ $build == 1 ]]; then
    echo "== swift build -c release --product simharness"
    (cd "$root" && swift build -c release --product simharness)
fi
if [[ $polars_only == 0 && ! -x "$simharness" ]]; then
    echo "compare.sh: no executable $simharness (build it, or pass --simharness)" >&2
    exit 1
fi

if [[ ! -f "$data/users.csv" || ! -f "$data/meals.csv" ]]; then
    echo "== making the dataset in $data"
    # shellcheck disable=SC2086 # make_args is a list of arguments
    python3 "$here/make_dataset.py" --out "$data" $make_args
fi
mkdir -p "$out"

# Runs "$@" under GNU time; sets `wall` and `cpu` (user + system, seconds) and `rss` (max resident set, MiB).
timed() {
    local log="$1"; shift
    if ! /usr/bin/time -v -o "$log" "$@"; then
        echo "compare.sh: failed: $* (GNU time log: $log)" >&2
        exit 1
    fi
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
        n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }' "$log")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$log")
}

best() { printf '%s\n' "$@" | sort -g | head -n 1; }

polars_walls=()
simharness_walls=()
for run in $(seq 1 "$runs"); do
    echo "== run $run/$runs: polars reference"
    timed "$out/time-polars-$run.log" \
        python3 "$here/fasting_polars.py" --input "$data" --out "$out/fasting_summary.polars.csv"
    echo "polars     run $run: wall ${wall} s, CPU ${cpu} s, max RSS ${rss} MiB"
    polars_walls+=("$wall")
    if [[ $polars_only == 0 ]]; then
        echo "== run $run/$runs: simharness analyze"
        rm -rf "$out/analyze"
        timed "$out/time-simharness-$run.log" "$simharness" analyze --input "$data" --out "$out/analyze"
        echo "simharness run $run: wall ${wall} s, CPU ${cpu} s, max RSS ${rss} MiB"
        simharness_walls+=("$wall")
    fi
done

if [[ $polars_only == 1 ]]; then
    echo "polars best wall: $(best "${polars_walls[@]}") s (runs: ${polars_walls[*]})"
    exit 0
fi

if ! cmp -s "$out/fasting_summary.polars.csv" "$out/analyze/fasting_summary.csv"; then
    echo "MISMATCH: fasting_summary.csv differs from the polars reference:" >&2
    diff "$out/fasting_summary.polars.csv" "$out/analyze/fasting_summary.csv" | head -n 20 >&2 || true
    exit 1
fi
echo "fasting_summary.csv: identical ($(($(wc -l <"$out/analyze/fasting_summary.csv") - 1)) users)"
p=$(best "${polars_walls[@]}")
s=$(best "${simharness_walls[@]}")
awk -v p="$p" -v s="$s" 'BEGIN {
    printf "best wall: polars %.2f s, simharness %.2f s; speed ratio polars/simharness = %.1f (target >= 10)\n",
        p, s, p / (s > 0 ? s : 0.01) }'
