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
mkdir -p "$tree"/{engine/core,engine/model,viewer,panels,app/document,app/goal,app/robot,app/viewport/scene_bridge}
printf '#include "engine/planning/planner.hpp"\n' > "$tree/engine/core/a.hpp"
printf '#include <QString>\n#include "app/main_window.hpp"\n' > "$tree/engine/model/b.cpp"
printf '#include "engine/core/types.hpp"\n' > "$tree/viewer/c.hpp"
printf '#include "app/document/studio_document.hpp"\n' > "$tree/panels/d.cpp"
printf '#include "panels/joints_panel.hpp"\n' > "$tree/app/e.cpp"
# Inside app: the document including a part above it, a part including the window, the Qt-free
# bridge including Qt, and two parts including each other.
printf '#include "app/goal/goal_controller.hpp"\n' > "$tree/app/document/f.cpp"
printf '#include "app/main_window.hpp"\n' > "$tree/app/goal/g.cpp"
printf '#include <QString>\n' > "$tree/app/viewport/scene_bridge/h.cpp"
printf '#include "app/robot/k.hpp"\n' > "$tree/app/goal/j.cpp"
printf '#include "app/goal/j.hpp"\n' > "$tree/app/robot/k.cpp"
if out=$(python3 "$here/check_layers.py" "$tree"); then
  echo "the check passed a tree that breaks the layers:"; echo "$out"; exit 1
fi
for expected in "engine/core/a.hpp:1" "engine/model/b.cpp:1" "engine/model/b.cpp:2" "viewer/c.hpp:1" "panels/d.cpp:1" \
                "app/document/f.cpp:1" "app/goal/g.cpp:1" "app/viewport/scene_bridge/h.cpp:1"; do
  grep -q "^$expected:" <<<"$out" || { echo "not reported: $expected"; echo "$out"; exit 1; }
done
if grep -q "app/e.cpp" <<<"$out"; then echo "app including panels was refused"; exit 1; fi
grep -q "parts of app include each other: app/goal -> app/robot -> app/goal" <<<"$out" ||
  { echo "the loop between app/goal and app/robot was not reported"; echo "$out"; exit 1; }
echo "layer check ok"
