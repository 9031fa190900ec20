#!/usr/bin/env bash
# make fuzz: a libFuzzer campaign over each reader in turn (the fuzz preset's targets).
#   run_campaign.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]   (no TARGET: every one built)
# The checked-in seeds (tests/fuzz/corpus/<target>) are copied into BUILD_DIR/corpus/<target>,
# which libFuzzer grows and keeps between campaigns; nothing is written into the repository.
# Crashes, leaks of time (hangs) and out-of-memory inputs go to BUILD_DIR/artifacts; each target's
# log to BUILD_DIR/logs. Exits 1 when any target found something, after running them all.
set -uo pipefail

build=$1 seconds=$2
shift 2
if (($# == 0)); then
  set -- $(find "$build/tests/fuzz" -maxdepth 1 -type f -executable -name 'fuzz_*' -printf '%f\n' | sed 's/^fuzz_//' | sort)
fi
source_dir=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/artifacts" "$build/logs"
# The asan preset's settings: the engine keeps some caches for the process's life.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

failed=()
for target in "$@"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  cp -n "$source_dir/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  log="$build/logs/$target.log"
  echo "fuzz: $target for ${seconds} s (log: $log)"
  # -timeout above the xacro expansion's own 30 s budget; -max_len well above every seed.
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=65536 -timeout=60 \
    -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$target-" "$corpus" >"$log" 2>&1
  status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if ((status != 0)); then
    failed+=("$target")
    echo "fuzz: $target FOUND A PROBLEM after ${runs:-?} runs: $(grep -m1 -E 'ERROR|SUMMARY|Test unit written' "$log")"
  else
    echo "fuzz: $target: ${runs:-?} runs, corpus $(ls "$corpus" | wc -l) inputs, nothing found"
  fi
done
if ((${#failed[@]} > 0)); then
  echo "fuzz: findings in ${failed[*]}: reproducers in $build/artifacts (run the target on one to see it)"
  exit 1
fi
