#!/usr/bin/env bash
# The reports as people and CI systems see them (`docs/ci-and-gates.md`, "The reports, checked as people and CI systems read them"):
#   scripts/report-check.sh [check|bites|all] [OUT]      default: all, OUT .build/report-check
#   check  runs a short scenario three times, renders every report (with --compare and --history),
#          opens the HTML in headless Chromium (screenshots at 1280 and 390 px; the rendered DOM must
#          hold every chart with at least one line or bar; Chromium's net log must show no request of
#          the page but file://), validates the JUnit XML against scripts/report-check/junit.xsd with
#          xmllint, parses the OpenMetrics text with prometheus-client's parser and the HdrHistogram log
#          with HdrHistogram's Python reader `hdrh` (both from PyPI, in a venv in OUT)
#   bites  the same checks on planted defects (an empty chart, an image from the network, a test case
#          without a name, OpenMetrics without its # EOF, a histogram log line cut short) must each fail
# Needs chromium, xmllint (libxml2-utils) and python3 with venv; .ci/run installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
out=${2:-.build/report-check}
here=scripts/report-check
say() { printf 'report-check [%3d s]: %s\n' "$SECONDS" "$*"; }
fail() { echo "report-check: FAIL: $*" >&2; exit 1; }

python=$out/venv/bin/python
prepare() {
  mkdir -p "$out"
  [ -x "$python" ] || python3 -m venv "$out/venv"
  "$python" -c "import prometheus_client, hdrh" 2>/dev/null || "$out/venv/bin/pip" install -q prometheus-client hdrhistogram
}

# Opens $1 in headless Chromium: the rendered DOM to $2, the net log to $3.
render() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --log-net-log="$(realpath "$3")" \
    --dump-dom "file://$(realpath "$1")" > "$2" 2>/dev/null
}

# Takes a screenshot of $1 at width $2 into $3 and checks its size.
screenshot() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --window-size="$2,$4" --screenshot="$(realpath -m "$3")" "file://$(realpath "$1")" > /dev/null 2>&1
  local width
  width=$("$python" -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print(struct.unpack('>I', d[16:20])[0])" "$3")
  [ "$width" = "$2" ] || fail "$3 is $width px wide, not $2"
  say "screenshot $3 ($(( $(stat -c %s "$3") / 1024 )) KiB)"
}

check() {
  local bin
  bin="$(swift build --show-bin-path)/simharness"
  [ -x "$bin" ] || swift build --product simharness > /dev/null
  rm -rf "$out/history" "$out/run"
  mkdir -p "$out/history"
  # A paced load the debug build cannot keep up with: response time, lag and dropped events show.
  printf 'name: report-check\nseed: 5\nusers: 300\ndays: 7\nload:\n  model: arrival_rate\n  rate: 400000\n  duration: 3s\nthresholds:\n  - invariant_violations == 0\n' > "$out/check.yaml"
  for n in 1 2; do "$bin" run --scenario "$out/check.yaml" --json "$out/history/$n.json" --progress never > /dev/null; done
  # With the differential check: its suite is in the JUnit file the schema checks.
  "$bin" run --scenario "$out/check.yaml" --report-dir "$out/run" --progress never --check-against reference > /dev/null
  "$bin" report "$out/run/result.json" --compare "$out/history/2.json" --history "$out/history" \
    --html "$out/report.html" --markdown "$out/summary.md" --junit "$out/junit.xml" --openmetrics "$out/metrics.txt" \
    --hdr-log "$out/latency.hlog"
  say "rendered $out/report.html ($(( $(stat -c %s "$out/report.html") / 1024 )) KiB)"
  render "$out/report.html" "$out/dom.html" "$out/netlog.json"
  "$python" "$here/check_page.py" dom "$out/dom.html"
  "$python" "$here/check_page.py" network "$out/netlog.json"
  screenshot "$out/report.html" 1280 "$out/report-1280.png" 3200
  screenshot "$out/report.html" 390 "$out/report-390.png" 7000
  for junit in "$out/junit.xml" "$out/run/junit.xml"; do
    xmllint --noout --schema "$here/junit.xsd" "$junit" 2>&1 | tail -1
  done
  "$python" "$here/check_page.py" openmetrics "$out/metrics.txt"
  "$python" "$here/check_page.py" openmetrics "$out/run/metrics.txt"
  "$python" "$here/check_page.py" hdrlog "$out/latency.hlog" "$out/run/result.json"
  say "check passed"
}

# Each planted defect must make its check fail.
bites() {
  local planted=$out/planted
  mkdir -p "$planted"
  sed 's|<path class="series"[^>]*>|<g>|g; s|<rect class="bar"[^>]*>|<g>|g' "$out/report.html" > "$planted/empty.html"
  render "$planted/empty.html" "$planted/empty-dom.html" "$planted/empty-net.json"
  ! "$python" "$here/check_page.py" dom "$planted/empty-dom.html" > /dev/null || fail "a report without lines or bars passed"
  sed 's|<main>|<main><img src="http://example.invalid/pixel.png" alt="">|' "$out/report.html" > "$planted/leaky.html"
  render "$planted/leaky.html" "$planted/leaky-dom.html" "$planted/leaky-net.json"
  ! "$python" "$here/check_page.py" network "$planted/leaky-net.json" > /dev/null || fail "a page loading an image from the network passed"
  sed '0,/<testcase classname="[^"]*" name="[^"]*"/s//<testcase classname="x"/' "$out/junit.xml" > "$planted/junit.xml"
  ! xmllint --noout --schema "$here/junit.xsd" "$planted/junit.xml" 2> /dev/null || fail "a test case without a name passed"
  sed '/^# EOF$/d' "$out/metrics.txt" > "$planted/metrics.txt"
  ! "$python" "$here/check_page.py" openmetrics "$planted/metrics.txt" > /dev/null || fail "OpenMetrics without # EOF passed"
  sed '4s/.\{12\}$//' "$out/latency.hlog" > "$planted/latency.hlog"
  ! "$python" "$here/check_page.py" hdrlog "$planted/latency.hlog" "$out/run/result.json" > /dev/null || fail "a cut histogram log passed"
  say "bites: all 5 planted defects caught"
}

prepare
case "$mode" in
  check) check ;;
  bites) bites ;;
  all) check; bites ;;
  *) echo "usage: scripts/report-check.sh [check|bites|all] [OUT]" >&2; exit 64 ;;
esac
