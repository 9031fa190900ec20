#!/usr/bin/env bash
# Installs the engine from a build tree into a scratch prefix, then builds and runs a separate
# program against it with find_package(kinetic).
set -euo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" --component Unspecified >/dev/null
cmake -S "$(dirname "$0")/consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
