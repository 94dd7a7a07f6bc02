#!/usr/bin/env bash
# CSV and Parquet side by side in one run (issue 38, "Speed and size"): `simharness generate` of one
# scenario in both formats, their sizes, `simharness analyze` of each, and the polars fasting summary
# from each (fasting_polars.py on the CSV, fasting_polars_parquet.py on the Parquet files), every run
# under /usr/bin/time -v; the three fasting summaries must be byte-identical.
#
#   Benchmarks/Comparison/formats.sh [--simharness EXE] [--scenario NAME] [--users N] [--days D]
#                                    [--tasks N] [--out DIR] [--python PY] [--pairs N]
#
#   --simharness EXE  the binary (default .build/release/simharness; build it first)
#   --scenario NAME   default stress; --users (default 20000) and --days (default 30) override its size
#   --tasks N         generate's and analyze's tasks (default 2)
#   --out DIR         where the datasets go (default /work/data/formats; outside the repository)
#   --python PY       a Python with polars and pyarrow (default python3)
#   --pairs N         then N more pairs of analyze runs, CSV and Parquet back to back (which goes first
#                     alternates): the median of each and of the pairs' Parquet/CSV ratios. On a machine
#                     whose other vCPU is busy at times, a pair's two runs share its load: the ratio is
#                     steadier than either figure (default 0)
#
# Prints, per step, wall and CPU seconds (user + system), max RSS, rows/s for generate (per CPU second
# too), and the Parquet files' size as a share of the CSV files'. Exit 1 when a step fails or the
# summaries differ.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exe="$root/.build/release/simharness"
scenario=stress users=20000 days=30 tasks=2 out=/work/data/formats python=python3 pairs=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --simharness) exe="$2"; shift 2 ;;
        --scenario) scenario="$2"; shift 2 ;;
        --users) users="$2"; shift 2 ;;
        --days) days="$2"; shift 2 ;;
        --tasks) tasks="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --python) python="$2"; shift 2 ;;
        --pairs) pairs="$2"; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "formats.sh: unknown argument $1" >&2; exit 1 ;;
    esac
done
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs a step under time -v; prints "name wall cpu rss".
timed() {
    local name=$1; shift
    /usr/bin/time -v "$@" > /dev/null 2> "$log" || { cat "$log" >&2; echo "formats.sh: $name failed" >&2; exit 1; }
    local wall cpu rss
    wall=$(awk -F': ' '/Elapsed/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
    cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$log")
    rss=$(awk -F': ' '/Maximum resident/ { printf "%d", $2 / 1024 }' "$log")
    echo "$name $wall $cpu $rss"
}

size() { du -sb "$1" --exclude='manifest*.json' | cut -f1; }
rows() { grep -oE '"rows": [0-9]+' "$1/manifest.json" | head -4 | awk '{ s += $2 } END { print s }'; }

generate=(generate --scenario "$scenario" --users "$users" --days "$days" --tasks "$tasks")
printf "%-28s %8s %8s %8s %14s %14s\n" step wall_s cpu_s rss_mb rows/s rows/cpu_s
for format in csv parquet; do
    rm -rf "${out:?}/$format"
    read -r name wall cpu rss < <(timed "generate-$format" "$exe" "${generate[@]}" --format "$format" --out "$out/$format")
    n=$(rows "$out/$format")
    printf "%-28s %8s %8s %8s %14.0f %14.0f\n" "$name" "$wall" "$cpu" "$rss" "$(echo "$n / $wall" | bc -l)" "$(echo "$n / $cpu" | bc -l)"
done
csv_bytes=$(size "$out/csv") parquet_bytes=$(size "$out/parquet")
echo "rows $(rows "$out/csv"); CSV $csv_bytes bytes, Parquet $parquet_bytes bytes ($(echo "100 * $parquet_bytes / $csv_bytes" | bc -l | xargs printf "%.1f") % of the CSV)"
for format in csv parquet; do
    read -r name wall cpu rss < <(timed "analyze-$format" "$exe" analyze --input "$out/$format" --out "$out/analyze-$format" --tasks "$tasks")
    printf "%-28s %8s %8s %8s\n" "$name" "$wall" "$cpu" "$rss"
done
read -r name wall cpu rss < <(timed polars-summary-csv "$python" "$here/fasting_polars.py" --input "$out/csv" --out "$out/summary-csv.csv")
printf "%-28s %8s %8s %8s\n" "$name" "$wall" "$cpu" "$rss"
read -r name wall cpu rss < <(timed polars-summary-parquet "$python" "$here/fasting_polars_parquet.py" --input "$out/parquet" --out "$out/summary-parquet.csv")
printf "%-28s %8s %8s %8s\n" "$name" "$wall" "$cpu" "$rss"
for summary in "$out/summary-parquet.csv" "$out/analyze-csv/fasting_summary.csv" "$out/analyze-parquet/fasting_summary.csv"; do
    cmp "$out/summary-csv.csv" "$summary" || { echo "formats.sh: $summary differs from the polars CSV summary" >&2; exit 1; }
done
echo "the four fasting summaries are byte-identical"

# Paired analyze runs: "wall cpu" of CSV and Parquet per pair, then medians and the median ratios.
if (( pairs > 0 )); then
    for ((i = 0; i < pairs; i++)); do
        order=(csv parquet)
        (( i % 2 == 1 )) && order=(parquet csv)
        declare -A got=()
        for format in "${order[@]}"; do
            read -r _ wall cpu _ < <(timed "analyze-$format" "$exe" analyze --input "$out/$format" --out "$out/analyze-$format" --tasks "$tasks")
            got[$format]="$wall $cpu"
        done
        echo "${got[csv]} ${got[parquet]}"
        unset got
    done | awk -v n="$pairs" '
        function median(a, k,   i, j, t) {
            for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        { cw[NR] = $1; cc[NR] = $2; pw[NR] = $3; pc[NR] = $4; rw[NR] = $3 / $1; rc[NR] = $4 / $2 }
        END {
            printf "%d pairs of analyze: CSV wall %.2f s, CPU %.2f s; Parquet wall %.2f s, CPU %.2f s (medians)\n", n, median(cw, n), median(cc, n), median(pw, n), median(pc, n)
            printf "Parquet/CSV, the median of the pairs: wall %.3f, CPU %.3f\n", median(rw, n), median(rc, n)
        }'
fi
