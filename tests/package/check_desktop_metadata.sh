#!/usr/bin/env bash
# The desktop entry and the AppStream metadata pass their validators (desktop-file-validate,
# appstreamcli validate --strict: errors, warnings and infos fail) and agree with each other and
# with what is installed: the launchable is the desktop entry, the binary its Exec program, the
# media type its MimeType, and the icon it names is shipped.
set -euo pipefail
source_dir=$1
desktop="$source_dir/app/desktop/kinetic-studio.desktop"
metainfo="$source_dir/installer/io.github.kinetic_studio.KineticStudio.metainfo.xml"
fail() { echo "$*"; exit 1; }

# desktop-file-validate exits 0 on warnings; only its hints are let through.
report=$(desktop-file-validate "$desktop" 2>&1) || fail "$report"
if grep -v ': hint: ' <<<"$report" | grep -q .; then fail "$report"; fi
appstreamcli validate --no-net --strict "$metainfo" >/dev/null 2>&1 ||
  fail "$(appstreamcli validate --no-net --strict --explain "$metainfo" 2>&1)"

field() { sed -n "s/^$1=//p" "$desktop"; }
grep -qF "<launchable type=\"desktop-id\">$(basename "$desktop")</launchable>" "$metainfo" ||
  fail "the metainfo does not launch $(basename "$desktop")"
program=$(field Exec | cut -d' ' -f1)
grep -qF "<binary>$program</binary>" "$metainfo" || fail "the metainfo does not provide the binary $program"
mime=$(field MimeType | tr -d ';')
grep -qF "<mediatype>$mime</mediatype>" "$metainfo" || fail "the metainfo does not provide $mime"
icon=$(field Icon)
[ -f "$source_dir/resources/icons/$icon.svg" ] || fail "no icon $icon.svg for Icon=$icon"
[ -f "$source_dir/resources/icons/hicolor/48x48/apps/$icon.png" ] || fail "no 48x48 $icon.png for Icon=$icon"
echo "desktop metadata ok: $(basename "$metainfo")"
