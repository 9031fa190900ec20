#pragma once
// Shared by the studio's window tests: reading back the 3D view and comparing pictures.
#include <QImage>
#include <QScreen>
#include <algorithm>

#include "app/viewport_window.hpp"

namespace kinetic::test {

inline QImage grab_viewport(app::ViewportWindow& viewport) {
  return viewport.screen()->grabWindow(viewport.winId()).toImage().convertToFormat(QImage::Format_RGB32);
}

inline int differing_pixels(const QImage& a, const QImage& b) {
  int count = 0;
  for (int y = 0; y < std::min(a.height(), b.height()); ++y)
    for (int x = 0; x < std::min(a.width(), b.width()); ++x)
      if (a.pixel(x, y) != b.pixel(x, y)) ++count;
  return count;
}

}  // namespace kinetic::test
