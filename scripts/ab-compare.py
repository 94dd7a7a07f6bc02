#!/usr/bin/env python3
"""Same-runner A/B comparison of two simharness builds (issue: wall times on a shared runner).

Runs BASE and HEAD interleaved (ABAB..., ROUNDS rounds) on the same fixed-volume scenario, reads each
run's JSON result, and for each metric reports the change of HEAD against BASE with a 95 % confidence
interval (Welch's t on the per-round values). A metric fails only when the whole interval lies beyond
its tolerance in the bad direction, so noise that both builds share does not fail a pull request.

  scripts/ab-compare.py BASE_BIN HEAD_BIN [--rounds 10] [--scenario faults] [--users 20000] [--days 14]
                        [--tolerance 0.05] [--json FILE]
Exit status: 0 no metric regressed beyond its tolerance, 1 one did, 2 bad arguments or a failed run.
"""
import argparse, json, math, os, subprocess, sys, tempfile

# metric -> (path in the result JSON, higher is better)
METRICS = {
    "duration_s": (("duration_s",), False),
    "cpu_user_s": (("process", "cpu_user_s"), False),
    "total.events_per_s": (("streams", "total", "events_per_s"), True),
    "peak_rss_bytes": (("process", "peak_rss_bytes"), False),
}
# Two-sided 97.5 % quantiles of Student's t by degrees of freedom (larger ones use 1.96).
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 12: 2.18,
        14: 2.14, 16: 2.12, 18: 2.10, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00}


def t975(df):
    keys = [k for k in sorted(T975) if k <= df]
    return T975[keys[-1]] if keys and df <= 60 else 1.96


def interval(base, head):
    """Mean relative change of head over base and its 95 % confidence interval (Welch)."""
    mb, mh = sum(base) / len(base), sum(head) / len(head)
    vb = sum((x - mb) ** 2 for x in base) / (len(base) - 1)
    vh = sum((x - mh) ** 2 for x in head) / (len(head) - 1)
    se = math.sqrt(vb / len(base) + vh / len(head))
    if se == 0:
        df = len(base) + len(head) - 2
    else:
        df = (vb / len(base) + vh / len(head)) ** 2 / (
            (vb / len(base)) ** 2 / (len(base) - 1) + (vh / len(head)) ** 2 / (len(head) - 1))
    half = t975(max(1, int(df))) * se
    return (mh - mb) / mb, (mh - mb - half) / mb, (mh - mb + half) / mb


def verdict(change, low, high, higher_is_better, tolerance):
    """regressed only when the whole interval is worse than the tolerance."""
    if higher_is_better:
        return "regressed" if high < -tolerance else "improved" if low > tolerance else "held"
    return "regressed" if low > tolerance else "improved" if high < -tolerance else "held"


def run(binary, args, directory, index):
    out = os.path.join(directory, f"{index}.json")
    command = [binary, "run", "--json", out] + args
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):  # 1: a threshold failed, the figures are still there
        print(f"ab-compare: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    with open(out) as f:
        return json.load(f)


def value(result, path):
    for key in path:
        result = result[key]
    return float(result)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base"), p.add_argument("head")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--scenario", default="faults", help="a fixed-volume scenario")
    p.add_argument("--users", type=int, default=20000)
    p.add_argument("--days", type=int, default=14)
    p.add_argument("--tasks", type=int, default=1)
    p.add_argument("--tolerance", type=float, default=0.05, help="relative, e.g. 0.05 for 5 %%")
    p.add_argument("--json")
    a = p.parse_args()
    if a.rounds < 2:
        p.error("--rounds must be at least 2")
    args = ["--scenario", a.scenario, "--users", str(a.users), "--days", str(a.days), "--tasks", str(a.tasks)]
    samples = {"base": {m: [] for m in METRICS}, "head": {m: [] for m in METRICS}}
    with tempfile.TemporaryDirectory() as directory:
        for r in range(a.rounds):
            for side in (("base", "head") if r % 2 == 0 else ("head", "base")):
                result = run(getattr(a, side), args, directory, f"{side}-{r}")
                for m, (path, _) in METRICS.items():
                    samples[side][m].append(value(result, path))
    report, failed = {}, False
    print(f"ab-compare: {a.rounds} rounds, interleaved; tolerance {a.tolerance:.1%}")
    for m, (_, higher) in METRICS.items():
        change, low, high = interval(samples["base"][m], samples["head"][m])
        v = verdict(change, low, high, higher, a.tolerance)
        failed |= v == "regressed"
        report[m] = {"change": change, "low": low, "high": high, "verdict": v}
        print(f"  {m:20} {change:+7.2%}  [{low:+7.2%}, {high:+7.2%}]  {v}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"schema": "simharness-ab", "version": 1, "rounds": a.rounds, "tolerance": a.tolerance,
                       "metrics": report, "samples": samples}, f, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
