#!/usr/bin/env bash
# The layer check itself: it passes on the source tree, and on a tree with one include of each kind
# it must refuse it names every one (an engine part including a part above it, the engine including
# Qt or the app, the viewer including the engine, panels including the app).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$1
python3 "$here/check_layers.py" "$source_dir"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree"/{engine/core,engine/model,viewer,panels,app}
printf '#include "engine/planning/planner.hpp"\n' > "$tree/engine/core/a.hpp"
printf '#include <QString>\n#include "app/main_window.hpp"\n' > "$tree/engine/model/b.cpp"
printf '#include "engine/core/types.hpp"\n' > "$tree/viewer/c.hpp"
printf '#include "app/studio_document.hpp"\n' > "$tree/panels/d.cpp"
printf '#include "panels/joints_panel.hpp"\n' > "$tree/app/e.cpp"
if out=$(python3 "$here/check_layers.py" "$tree"); then
  echo "the check passed a tree that breaks the layers:"; echo "$out"; exit 1
fi
for expected in "engine/core/a.hpp:1" "engine/model/b.cpp:1" "engine/model/b.cpp:2" "viewer/c.hpp:1" "panels/d.cpp:1"; do
  grep -q "^$expected:" <<<"$out" || { echo "not reported: $expected"; echo "$out"; exit 1; }
done
if grep -q "app/e.cpp" <<<"$out"; then echo "app including panels was refused"; exit 1; fi
echo "layer check ok"
