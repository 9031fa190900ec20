#!/usr/bin/env bash
# Builds the Debian package from an already built tree into a scratch folder (cpack builds nothing
# with Ninja, which has no preinstall step) and checks what it holds: the studio and its robot
# library under the install prefix the binary was built for, the desktop integration, no engine
# development files, the project's version, and Depends worked out from the linked libraries. As
# installed, its AppStream metadata validates, and the packaged (stripped) binary plans with the
# packaged robot library.
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "$*"; exit 1; }

cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
debs=("$work"/kinetic-studio_*.deb)
[ -f "${debs[0]}" ] || { cat "$work/cpack.log"; fail "cpack wrote no kinetic-studio_*.deb"; }
deb=${debs[0]}

prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build_dir/CMakeCache.txt")
# dpkg-deb lists "./usr/bin/x"; plain files start with "-" in the permissions column.
files=$(dpkg-deb --contents "$deb" | awk '$1 ~ /^-/ {print $6}' | sed 's|^\.||')
expect() { grep -qxF "$prefix/$1" <<<"$files" || fail "the package lacks $prefix/$1"; }
expect bin/kinetic-studio
expect share/applications/kinetic-studio.desktop
expect share/mime/packages/kinetic-session.xml
expect share/metainfo/io.github.kinetic_studio.KineticStudio.metainfo.xml
expect share/icons/hicolor/scalable/apps/kinetic-studio.svg
for size in 16 32 48 64 128 256; do expect "share/icons/hicolor/${size}x${size}/apps/kinetic-studio.png"; done
while IFS= read -r file; do
  expect "share/kinetic/robot_configs/${file#"$source_dir/robot_configs/"}"
done < <(find "$source_dir/robot_configs" -type f)
dev_files=$(grep -E "^$prefix/(include|lib)/" <<<"$files" || true)
[ -z "$dev_files" ] || fail "the package holds engine development files: $(head -3 <<<"$dev_files")"

depends=$(dpkg-deb --field "$deb" Depends)
[ -n "$depends" ] || fail "the package has no Depends"
for library in libqt6widgets6 libvulkan1 libassimp5 libfcl0.7; do
  grep -q "\b$library\b" <<<"$depends" || fail "Depends lacks $library: $depends"
done
[ "$(dpkg-deb --field "$deb" Version)" = "$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")" ] ||
  fail "the package version is not the project's"

dpkg-deb --extract "$deb" "$work/root"
# As installed under /usr (where appstreamcli looks), the metadata finds the desktop entry it launches.
mkdir -p "$work/tree/usr"
cp -r "$work/root$prefix/share" "$work/tree/usr/share"
appstreamcli validate-tree --no-net --strict "$work/tree" >"$work/appstream.log" 2>&1 ||
  { cat "$work/appstream.log"; fail "the package's AppStream metadata does not validate as installed"; }

# The binary looks for its robot library under the install prefix it was built for
# (KINETIC_INSTALL_ROBOT_CONFIGS), which is where the files above are. Pointed at the package's
# copy, the packaged (stripped) binary plans with it.
binary="$work/root$prefix/bin/kinetic-studio"
KINETIC_ROBOT_CONFIGS="$work/root$prefix/share/kinetic/robot_configs" "$binary" --headless --robot ur5e \
  --goal-named ready >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "the packaged studio did not plan"; }
echo "deb ok: $(basename "$deb") depends on $(tr ',' '\n' <<<"$depends" | wc -l) packages"
