#!/bin/sh
# Runs a real-window test on an X server of its own (Xvfb, 1920x1080x24) when Xvfb is installed,
# so that window tests run side by side without taking each other's keyboard focus; without
# Xvfb, on $DISPLAY (CMake then runs them one at a time). When the X server refused the
# connection (Qt: "could not connect to display"), the test never started: it is run once more
# instead of failing the suite on a busy server. Any other failure is reported as it is.
server=""
if [ -n "$KINETIC_WINDOW_TEST_XVFB" ]; then
  number=$(mktemp)
  # -displayfd: Xvfb picks a free display and writes its number once it accepts connections.
  "$KINETIC_WINDOW_TEST_XVFB" -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$number" \
    >/dev/null 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null' EXIT
  trap 'exit 143' TERM INT
  waited=0
  while [ ! -s "$number" ] && [ "$waited" -lt 200 ] && kill -0 "$server" 2>/dev/null; do
    sleep 0.05
    waited=$((waited + 1))
  done
  if [ ! -s "$number" ]; then
    echo "run_window_test: Xvfb did not start (waited 10 s)" >&2
    rm -f "$number"
    exit 1
  fi
  DISPLAY=":$(cat "$number")"
  export DISPLAY
  rm -f "$number"
fi

log=$(mktemp)
"$@" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ] && grep -q "could not connect to display" "$log"; then
  echo "run_window_test: the X server refused the connection; running the test again" >&2
  sleep 1
  rm -f "$log"
  "$@"
  exit $?
fi
cat "$log"
rm -f "$log"
exit "$status"
