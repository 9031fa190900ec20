#pragma once
// The studio's icon (resources/icons/kinetic-studio.svg), from the PNG renditions compiled into
// the application (resources/kinetic_studio.qrc): PNGs, because Qt's SVG icon engine is not among
// the studio's dependencies.
#include <QIcon>
#include <QList>

namespace kinetic::app {

// The sizes (px, square) the icon is drawn at; the desktop installs the same ones.
QList<int> studio_icon_sizes();

// Every size of the icon; the window system picks the one that fits.
QIcon studio_icon();

}  // namespace kinetic::app
