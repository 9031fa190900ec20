#!/usr/bin/env bash
# Runs a command and says how long it took ("phase build: 412 s"), so a CI log shows where its time
# went: the default build, its tests, the sanitizer build, its tests.
name=$1
shift
start=$(date +%s)
status=0
"$@" || status=$?
echo "phase $name: $(($(date +%s) - start)) s$([ "$status" -eq 0 ] || echo " (failed, exit $status)")"
exit "$status"
