#!/usr/bin/env python3
"""Prints one table of every benchmark in the given Google Benchmark JSON files.

Benchmarks named Ours/<case> and Peer/<case> (any prefix before the first '/') are paired by
<case>, and the table shows the ratio peer/ours (> 1 means we are faster)."""
import json
import sys


def ns(bench):
    unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[bench.get("time_unit", "ns")]
    return bench["real_time"] * unit


def main(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data.get("benchmarks", []):
            if b.get("run_type") == "aggregate":
                continue
            rows.append(b)
    by_case = {}
    for b in rows:
        name = b["name"]
        side, _, case = name.partition("/")
        by_case.setdefault(case or name, {})[side] = b
    print(f"{'benchmark':60s} {'time':>12s} {'peer':>12s} {'peer/ours':>10s}")
    for b in rows:
        name = b["name"]
        side, _, case = name.partition("/")
        if side.lower().startswith("peer"):
            continue
        peers = {k: v for k, v in by_case.get(case, {}).items() if k.lower().startswith("peer")}
        t = ns(b)
        if peers:
            for peer_name, p in peers.items():
                pt = ns(p)
                print(f"{name:60s} {t:10.1f}ns {pt:10.1f}ns {pt / t:9.1f}x  ({peer_name})")
        else:
            print(f"{name:60s} {t:10.1f}ns")
        extra = {k: v for k, v in b.items() if k not in (
            "name", "run_name", "run_type", "repetitions", "repetition_index", "threads",
            "iterations", "real_time", "cpu_time", "time_unit", "family_index",
            "per_family_instance_index", "aggregate_name", "aggregate_unit", "label")}
        if extra:
            print("    " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                     for k, v in extra.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
