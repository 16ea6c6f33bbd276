#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Bar plots of ktext benchmark throughput per dataset and backend versus peers.

    perf/plot.py RESULT.json [RESULT.json ...] [-o OUT_DIR] [--metric bytes_per_second]
                 [--filter REGEX] [--linear]

Reads Google Benchmark JSON (--benchmark_out=FILE --benchmark_out_format=json) of any ktext
benchmark binaries. Benchmark names are <series>/<dataset>[/<size>]: ktext series are
<family>_<Backend> (suffix_array_OpenMP, sort_pairs_Cuda, ...); peers are series without a
backend suffix (divsufsort, std_stable_sort). Writes OUT_DIR/<family>.png (one group of bars per
dataset: every backend of the family and every peer measured on the same datasets), and
OUT_DIR/ratios.md: ktext / peer throughput for each pair measured in the same JSON file (the
same run on the same machine) -- report those ratios, not ones across runs or machines.
OUT_DIR/worst.md (suffix array benchmarks): how many times longer per byte each repetitive
synthetic text (A^n, Fibonacci, Thue-Morse, period 8, 16 versions) takes than random26 of the same
size in the same file and than the real texts of that file (the corpus files, geometric mean of
their throughput; sizes may differ).
A series measured in several files (e.g. divsufsort in the Serial and OpenMP binaries) is
plotted at its median.
"""
import argparse
import collections
import json
import math
import os
import re
import statistics
import sys

BACKENDS = ("Serial", "OpenMP", "Threads", "Cuda", "HIP", "SYCL")
KTEXT_RE = re.compile(r"^(?P<family>.+)_(?P<backend>" + "|".join(BACKENDS) + r")$")
# Attributes Google Benchmark appends to names.
ATTR_RE = re.compile(r"/(real_time|manual_time|process_time|min_time:[^/]*|iterations:[^/]*|repeats:[^/]*|threads:[^/]*)")


def load(paths, metric, name_filter):
    """-> list of (file, series, dataset, value) with value in the metric's unit."""
    rows = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        benches = doc.get("benchmarks", [])
        has_median = any(b.get("aggregate_name") == "median" for b in benches)
        per_key = collections.defaultdict(list)
        for b in benches:
            if b.get("error_occurred"):
                continue
            if has_median:
                if b.get("aggregate_name") != "median":
                    continue
                name = b.get("run_name", b["name"])
            else:
                if b.get("run_type", "iteration") != "iteration":
                    continue
                name = b.get("run_name", b["name"])
            name = ATTR_RE.sub("", name)
            if name_filter and not re.search(name_filter, name):
                continue
            if metric not in b:
                continue
            series, _, dataset = name.partition("/")
            per_key[(series, dataset or "-")].append(float(b[metric]))
        for (series, dataset), vals in per_key.items():
            rows.append((path, series, dataset, statistics.median(vals)))
    return rows


def family_of(series):
    m = KTEXT_RE.match(series)
    return (m.group("family"), m.group("backend")) if m else (None, None)


def ratios(rows):
    """ktext / peer for every (ktext series, peer series, dataset) measured in the same file."""
    by_file = collections.defaultdict(dict)
    for path, series, dataset, v in rows:
        by_file[path][(series, dataset)] = v
    out = []
    for path, table in by_file.items():
        peers = {s for (s, _) in table if family_of(s)[0] is None}
        for (series, dataset), v in sorted(table.items()):
            if family_of(series)[0] is None:
                continue
            for p in sorted(peers):
                pv = table.get((p, dataset))
                if pv:
                    out.append((os.path.basename(path), series, p, dataset, v, pv, v / pv))
    return out


REPETITIVE = ("a_n", "fibonacci", "thue_morse", "period8", "versions16")
SIZED_RE = re.compile(r"^(?P<name>.+)_(?P<size>\d+(?:[KMG]i)?)$")
SYNTHETIC_RE = re.compile(r"^(random\d+|%s)_" % "|".join(REPETITIVE))


def worst_cases(rows):
    """(file, series, dataset, factor, factor_real): time per byte of a repetitive dataset over
    random26's of the same size, and over the geometric mean of the real texts (the datasets
    that are not synthetic: corpus files) in the same file, or None without them; for every
    ktext series measured on both in the same file."""
    by_file = collections.defaultdict(dict)
    for path, series, dataset, v in rows:
        by_file[path][(series, dataset)] = v
    out = []
    for path, table in by_file.items():
        real = collections.defaultdict(list)
        for (series, dataset), v in table.items():
            if v and not SYNTHETIC_RE.match(dataset):
                real[series].append(math.log(v))
        for (series, dataset), v in sorted(table.items()):
            m = SIZED_RE.match(dataset)
            if family_of(series)[0] is None or not m or m.group("name") not in REPETITIVE:
                continue
            ref = table.get((series, "random26_" + m.group("size")))
            if ref and v:
                r = real.get(series)
                out.append((os.path.basename(path), series, dataset, ref / v,
                            math.exp(sum(r) / len(r)) / v if r else None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--out", default="plots")
    ap.add_argument("--metric", default="bytes_per_second", help="JSON field to plot (default bytes_per_second)")
    ap.add_argument("--filter", default=None, help="regex on benchmark names")
    ap.add_argument("--linear", action="store_true", help="linear y axis (default: log)")
    args = ap.parse_args()

    rows = load(args.json, args.metric, args.filter)
    if not rows:
        sys.exit("plot.py: no benchmarks with field %r" % args.metric)
    os.makedirs(args.out, exist_ok=True)
    per_second = args.metric.endswith("_per_second")
    scale, unit = (1e6, "MB/s") if args.metric == "bytes_per_second" else (1e6, "M/s") if per_second else (1.0, "")

    # Ratios vs peers in the same run.
    rat = ratios(rows)
    with open(os.path.join(args.out, "ratios.md"), "w") as f:
        f.write("| file | ktext | peer | dataset | ktext %s | peer %s | ratio |\n|---|---|---|---|---|---|---|\n" % (unit, unit))
        for fn, s, p, d, v, pv, r in rat:
            f.write("| %s | %s | %s | %s | %.2f | %.2f | %.3f |\n" % (fn, s, p, d, v / scale, pv / scale, r))
    for fn, s, p, d, v, pv, r in rat:
        print("%-28s %-16s %-28s %10.2f %10.2f  x%.3f" % (s, p, d, v / scale, pv / scale, r))
    print("wrote", os.path.join(args.out, "ratios.md"), file=sys.stderr)
    if args.metric == "bytes_per_second":
        worst = worst_cases(rows)
        if worst:
            with open(os.path.join(args.out, "worst.md"), "w") as f:
                f.write("| file | ktext | dataset | time per byte / random26's | / real texts' (geometric mean) |\n"
                        "|---|---|---|---|---|\n")
                for fn, s, d, r, rr in worst:
                    f.write("| %s | %s | %s | %.2f | %s |\n" % (fn, s, d, r, "-" if rr is None else "%.2f" % rr))
            print("wrote", os.path.join(args.out, "worst.md"), file=sys.stderr)

    # Median of each (series, dataset) over files.
    vals = collections.defaultdict(list)
    for _, series, dataset, v in rows:
        vals[(series, dataset)].append(v)
    value = {k: statistics.median(v) for k, v in vals.items()}
    families = collections.defaultdict(set)
    for series, _ in value:
        fam, _ = family_of(series)
        if fam:
            families[fam].add(series)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py: matplotlib is missing (Debian: apt-get install python3-matplotlib, then run "
                 "this script with /usr/bin/python3); ratios.md was written")

    for fam, ktext_series in sorted(families.items()):
        datasets = sorted({d for (s, d) in value if s in ktext_series}, key=dataset_key)
        peers = sorted({s for (s, d) in value if family_of(s)[0] is None and d in datasets})
        order = {b: i for i, b in enumerate(BACKENDS)}
        series = sorted(ktext_series, key=lambda s: order.get(family_of(s)[1], 99)) + peers
        width = 0.8 / len(series)
        fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(datasets) * max(1, len(series)) / 2 + 2), 4.8))
        for i, s in enumerate(series):
            xs, ys = [], []
            for j, d in enumerate(datasets):
                if (s, d) in value:
                    xs.append(j + (i - (len(series) - 1) / 2) * width)
                    ys.append(value[(s, d)] / scale)
            ax.bar(xs, ys, width, label=s, hatch="//" if s in peers else None)
        ax.set_xticks(range(len(datasets)))
        ax.set_xticklabels(datasets, rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("throughput, MB/s (10^6 bytes/s)" if args.metric == "bytes_per_second"
                      else ("%s %s" % (args.metric, unit)).strip())
        if not args.linear:
            ax.set_yscale("log")
        ax.set_title("ktext %s vs peers" % fam)
        ax.legend(fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        path = os.path.join(args.out, fam + ".png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        print("wrote", path, file=sys.stderr)


def dataset_key(d):
    """Datasets sorted by name, then numerically by size suffixes such as /65536 or _4Mi."""
    parts = re.split(r"(\d+)", d)
    return [int(p) if p.isdigit() else p for p in parts]


if __name__ == "__main__":
    main()
