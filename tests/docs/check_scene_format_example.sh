#!/usr/bin/env bash
# docs/scene-format.md's example is a scene that loads and plans: its JSON block, written beside the
# mesh it names (a small tetrahedron drawn in millimetres), runs headless with the UR5e. The example
# also keeps showing every shape kind, an attached object with touch links, and a pair.
set -euo pipefail
doc=$1
studio=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "$*"; exit 1; }

mkdir -p "$work/cell/meshes"
scene="$work/cell/workcell.json"
sed -n '/<!-- scene-format-example: begin -->/,/<!-- scene-format-example: end -->/p' "$doc" |
  grep -v -e '^<!--' -e '^```' >"$scene"
[ -s "$scene" ] || fail "no example between the scene-format-example markers in $doc"
for needed in '"box"' '"cylinder"' '"sphere"' '"mesh"' '"half_space"' '"touch_links"' '"allowed"'; do
  grep -q "$needed" "$scene" || fail "the example no longer shows $needed"
done
grep -q '"path": "meshes/fixture.stl"' "$scene" || fail "the example's mesh is not meshes/fixture.stl"

cat >"$work/cell/meshes/fixture.stl" <<'STL'
solid fixture
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 100 0
vertex 100 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 100 0 0
vertex 0 0 100
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 100
vertex 0 100 0
endloop
endfacet
facet normal 0.577 0.577 0.577
outer loop
vertex 100 0 0
vertex 0 100 0
vertex 0 0 100
endloop
endfacet
endsolid fixture
STL

# From another folder: the relative mesh path resolves against the scene file's folder.
cd "$work"
"$studio" --headless --robot ur5e --scene cell/workcell.json --goal-named ready
echo "scene format example ok"
