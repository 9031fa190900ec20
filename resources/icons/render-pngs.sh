#!/usr/bin/env bash
# Renders kinetic-studio.svg to the PNG sizes the studio and the desktop use, in the hicolor
# theme's layout (hicolor/<N>x<N>/apps/kinetic-studio.png). Run it after editing the SVG and
# commit the PNGs: the build reads them as they are and needs no SVG renderer (Qt's SVG icon
# engine is not among the studio's dependencies). Needs rsvg-convert (librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 32 48 64 128 256; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert --width "$size" --height "$size" kinetic-studio.svg -o "hicolor/${size}x${size}/apps/kinetic-studio.png"
done
