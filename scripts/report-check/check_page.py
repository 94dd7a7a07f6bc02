"""Checks a rendered report page (docs/reports.md; the checks: docs/ci-and-gates.md).

  check_page.py dom DOM.html            every chart is an SVG with at least one series line or bar
  check_page.py network NETLOG.json     the page requested nothing but file:// (Chromium's own
                                        background requests are told apart by their isolation key)
  check_page.py openmetrics FILE        the text parses with prometheus-client's OpenMetrics parser
  check_page.py hdrlog LOG RESULT.json  HdrHistogram's Python reader (hdrh) decodes every interval of the
                                        log, with the counts and percentiles of the result's series
Exit status 0 when the check holds, 1 with the reason otherwise.
"""
import json
import sys
from html.parser import HTMLParser

CHARTS = ["throughput", "batch-latency", "memory", "cpu", "rejections", "payment-states", "payment-latency",
          "throughput-over-time", "latency-over-time", "schedule-over-time", "dropped-over-time", "cpu-over-time"]


class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.marks = {}
        self.current = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "chart" in (attrs.get("class") or ""):
            self.current = attrs.get("data-chart")
            self.marks[self.current] = 0
        elif self.current and ((tag == "path" and attrs.get("class") == "series") or (tag == "rect" and attrs.get("class") == "bar")):
            self.marks[self.current] += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None


def check_dom(path):
    parser = Charts()
    parser.feed(open(path, encoding="utf-8").read())
    missing = [c for c in CHARTS if c not in parser.marks]
    empty = [c for c, n in parser.marks.items() if n == 0]
    if missing or empty:
        return f"charts missing: {missing}, charts without a line or bar: {empty}"
    print(f"report-check: {len(parser.marks)} charts, each drawn: " + ", ".join(f"{c} {n}" for c, n in parser.marks.items()))


def check_network(path):
    events = json.load(open(path)).get("events", [])
    loaded = sorted({e["params"]["url"] for e in events
                     if "url" in e.get("params", {}) and "file://" in str(e["params"].get("network_isolation_key", ""))
                     and not e["params"]["url"].startswith("file:")})
    if loaded:
        return f"the page loaded from the network: {loaded}"
    print("report-check: the page loaded nothing from the network")


def check_openmetrics(path):
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    try:
        families = list(text_string_to_metric_families(open(path, encoding="utf-8").read()))
    except Exception as error:  # the parser raises ValueError and others on invalid text
        return f"{path}: not valid OpenMetrics: {error}"
    samples = sum(len(f.samples) for f in families)
    print(f"report-check: OpenMetrics parsed: {len(families)} families, {samples} samples")


def check_hdrlog(path, result_path):
    from hdrh.histogram import HdrHistogram
    from hdrh.log import HistogramLogReader
    expected = []
    for interval in json.load(open(result_path))["series"]["intervals"]:
        total = interval["streams"]["total"]
        for histogram in [total["batch_latency_us"], total.get("response_latency_us")]:
            if histogram and histogram["count"] > 0:
                expected.append((histogram["count"], histogram["p50"], histogram["p99"]))
    reader = HistogramLogReader(path, HdrHistogram(1, 2**32, 1))
    decoded = []
    try:
        while (histogram := reader.get_next_interval_histogram()) is not None:
            decoded.append((histogram.get_total_count(), histogram.get_value_at_percentile(50), histogram.get_value_at_percentile(99)))
    except Exception as error:
        return f"{path}: hdrh cannot read it: {error}"
    if decoded != expected or not decoded:
        return f"{path}: hdrh read {decoded[:3]}..., the series holds {expected[:3]}..."
    print(f"report-check: hdrh read {len(decoded)} interval histograms with the series' counts and percentiles")


if __name__ == "__main__":
    check = {"dom": check_dom, "network": check_network, "openmetrics": check_openmetrics, "hdrlog": check_hdrlog}[sys.argv[1]]
    problem = check(*sys.argv[2:])
    if problem:
        print(f"report-check: FAIL: {problem}")
        sys.exit(1)
