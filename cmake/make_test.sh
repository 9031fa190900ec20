#!/usr/bin/env bash
# `make test`: the default build and its tests, then the sanitizer build and its tests where they
# fit. CI gives `make test` 90 minutes on two cores, and a machine can compile several times slower
# than another (docs/design-notes.md, "Tests and build time"): when the first two phases took more
# than KINETIC_SANITIZER_PHASE_AFTER_S (default 2700 s), the sanitizer phase, which takes about as
# long again, is skipped with a line that says so; when it starts but has not finished by
# KINETIC_TEST_DEADLINE_S after the start (default 5100 s, 85 minutes), it is stopped there and
# says so. `make test-asan` runs it on its own, without a deadline. A failure in any phase fails
# the whole.
set -euo pipefail
xvfb=("$@")
start=$(date +%s)
make --no-print-directory build
./cmake/phase.sh test "${xvfb[@]}" ctest --preset default
elapsed=$(($(date +%s) - start))
budget=${KINETIC_SANITIZER_PHASE_AFTER_S:-2700}
deadline=${KINETIC_TEST_DEADLINE_S:-5100}
if [ "$elapsed" -gt "$budget" ]; then
  echo "phase test-asan: skipped: the build and tests took ${elapsed} s, more than ${budget} s" \
    "(KINETIC_SANITIZER_PHASE_AFTER_S), so the sanitizer phase would not fit CI's 90 minutes;" \
    "run make test-asan for it"
  exit 0
fi
status=0
remaining=$((deadline - elapsed))
[ "$remaining" -ge 1 ] || remaining=1
timeout "$remaining" make --no-print-directory test-asan || status=$?
if [ "$status" -eq 124 ]; then
  echo "phase test-asan: stopped unfinished at ${deadline} s after make test began" \
    "(KINETIC_TEST_DEADLINE_S): the sanitizer build or its tests would not fit CI's 90 minutes" \
    "on this machine (the tests it finished are listed above); run make test-asan for all of it"
  exit 0
fi
exit "$status"
