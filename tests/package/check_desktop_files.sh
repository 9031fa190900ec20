#!/usr/bin/env bash
# Installs the studio into a scratch prefix and checks its desktop integration: the menu entry
# runs the installed binary with the file it is given, claims the MIME type that the installed
# shared-mime-info package defines for *.kinetic-session, and names an installed icon.
set -euo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
desktop="$work/prefix/share/applications/kinetic-studio.desktop"
mime="$work/prefix/share/mime/packages/kinetic-session.xml"
test -x "$work/prefix/bin/kinetic-studio" || { echo "no installed kinetic-studio"; exit 1; }
test -f "$desktop" || { echo "no desktop entry"; exit 1; }
test -f "$mime" || { echo "no MIME package"; exit 1; }
exec_line=$(grep '^Exec=' "$desktop")
[ "$exec_line" = "Exec=kinetic-studio %f" ] || { echo "unexpected $exec_line"; exit 1; }
type=$(sed -n 's/^MimeType=\(.*\);$/\1/p' "$desktop")
grep -q "<mime-type type=\"$type\">" "$mime" || { echo "the desktop entry's MimeType '$type' is not defined"; exit 1; }
grep -q '<glob pattern="\*.kinetic-session"/>' "$mime" || { echo "no *.kinetic-session glob"; exit 1; }
# The icon the entry names is installed in the hicolor theme, where menus look it up.
icon=$(sed -n 's/^Icon=//p' "$desktop")
test -f "$work/prefix/share/icons/hicolor/48x48/apps/$icon.png" || { echo "Icon=$icon is not installed"; exit 1; }
test -f "$work/prefix/share/icons/hicolor/scalable/apps/$icon.svg" || { echo "no scalable $icon.svg"; exit 1; }
# The installed binary takes a session file as its argument (an unreadable one is refused by
# the studio itself; here only the command line is checked, without a display).
# (Read whole first: grep -q stops at the match, and the help still being written would die of
# SIGPIPE, which pipefail reports as a failure once the text outgrows the pipe's buffer.)
help_text=$("$work/prefix/bin/kinetic-studio" --help)
grep -q 'SESSION.kinetic-session' <<<"$help_text" || { echo "--help does not name the session argument"; exit 1; }
echo "desktop integration ok: $type"
