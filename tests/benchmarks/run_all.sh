#!/usr/bin/env bash
# Runs every benchmark executable in $1, writes Google Benchmark JSON into $2, prints one table.
set -euo pipefail
bin_dir=$1
out_dir=$2
mkdir -p "$out_dir"
shopt -s nullglob
benches=("$bin_dir"/bench_*)
if ((${#benches[@]} == 0)); then echo "no benchmarks built in $bin_dir" >&2; exit 1; fi
for bench in "${benches[@]}"; do
  name=$(basename "$bench")
  echo "== $name"
  "$bench" --benchmark_out="$out_dir/$name.json" --benchmark_out_format=json \
           --benchmark_counters_tabular=true
done
python3 "$(dirname "$0")/summarize.py" "$out_dir"/*.json
