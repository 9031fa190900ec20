#!/usr/bin/env bash
# `make test`: the default build and its tests, then the sanitizer build and its tests where they
# fit. CI gives `make test` 90 minutes on two cores, and a machine can compile several times slower
# than another (docs/design-notes.md, "Tests and build time"): when the first two phases took more
# than KINETIC_SANITIZER_PHASE_AFTER_S (default 2700 s), the sanitizer phase, which takes about as
# long again, is skipped with a line that says so; `make test-asan` runs it on its own. A failure in
# any phase fails the whole.
set -euo pipefail
xvfb=("$@")
start=$(date +%s)
make --no-print-directory build
./cmake/phase.sh test "${xvfb[@]}" ctest --preset default
elapsed=$(($(date +%s) - start))
budget=${KINETIC_SANITIZER_PHASE_AFTER_S:-2700}
if [ "$elapsed" -le "$budget" ]; then
  make --no-print-directory test-asan
else
  echo "phase test-asan: skipped: the build and tests took ${elapsed} s, more than ${budget} s" \
    "(KINETIC_SANITIZER_PHASE_AFTER_S), so the sanitizer phase would not fit CI's 90 minutes;" \
    "run make test-asan for it"
fi
