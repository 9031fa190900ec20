#pragma once
// Shared by the window tests that drag the 3D view's gizmo with real mouse events.
#include <QPoint>
#include <QPointF>
#include <QTest>
#include <functional>

#include "app/viewport/viewport_window.hpp"
#include "viewer/gizmo.hpp"

namespace kinetic::test {

// The gizmo handle under a pixel of the view (None without a gizmo or off its handles).
inline viewer::GizmoHandle gizmo_handle_at(app::ViewportWindow& view, const QPoint& pixel) {
  const auto ray = view.camera().ray_through_pixel(
      static_cast<float>(pixel.x()) + 0.5f, static_cast<float>(pixel.y()) + 0.5f,
      static_cast<float>(view.width()), static_cast<float>(view.height()));
  return view.gizmo() ? viewer::pick_gizmo(*view.gizmo(), view.camera(), ray,
                                           static_cast<float>(view.height()))
                      : viewer::GizmoHandle::None;
}

// Presses the left button at `press`, moves to `to` in ten moves 20 ms apart (`after_move(i)`
// runs after move i, 1..10), releases there: a drag as a hand makes it.
inline void drag_in_view(app::ViewportWindow& view, const QPoint& press, const QPointF& to,
                         const std::function<void(int)>& after_move = {}) {
  QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, press);
  for (int i = 1; i <= 10; ++i) {
    QTest::mouseMove(&view, (QPointF(press) + (to - QPointF(press)) * (i / 10.0)).toPoint());
    QTest::qWait(20);
    if (after_move) after_move(i);
  }
  QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, to.toPoint());
}

}  // namespace kinetic::test
