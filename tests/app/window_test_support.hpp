#pragma once
// Shared by the studio's window tests: reading back the 3D view and comparing pictures.
#include <QElapsedTimer>
#include <QImage>
#include <QScreen>
#include <QTest>
#include <algorithm>

#include <memory>

#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"

namespace kinetic::test {

inline QImage grab_viewport(app::ViewportWindow& viewport) {
  return viewport.screen()
      ->grabWindow(viewport.winId())
      .toImage()
      .convertToFormat(QImage::Format_RGB32);
}

// Asks the view for a frame and waits until it is drawn (picking and the gizmos as drawn then
// describe the document as it is now); false after 5 s.
inline bool redraw(app::ViewportWindow& viewport) {
  const int frames = viewport.frames_drawn();
  viewport.requestUpdate();
  return QTest::qWaitFor([&] { return viewport.frames_drawn() > frames; }, 5000);
}

// Waits until the view is still: no new frame for `quiet_ms` and the last one drawn at full
// quality (during motion a slow device draws coarser Fast frames and owes a full one after it,
// see FrameQualityPolicy). A fixed wait before a read-back raced that frame on a loaded machine.
// It first asks for a frame and waits for it, so a change made just before the call (a key, a
// setter) is drawn: on a loaded machine the quiet period could otherwise pass before that frame.
// Last, two read-backs of the screen must agree: the frame drawn is also the frame shown.
inline bool wait_for_still_view(app::ViewportWindow& viewport, int quiet_ms = 250,
                                int timeout_ms = 15000) {
  if (!redraw(viewport)) return false;
  QElapsedTimer total, quiet;
  total.start();
  quiet.start();
  int frames = viewport.frames_drawn();
  while (total.elapsed() < timeout_ms) {
    QTest::qWait(20);
    if (viewport.frames_drawn() != frames) {
      frames = viewport.frames_drawn();
      quiet.restart();
    } else if (quiet.elapsed() >= quiet_ms &&
               viewport.last_frame_quality() == viewer::FrameQuality::Full) {
      // And what the screen shows has settled: a loaded machine presented the last frame late.
      const QImage before = grab_viewport(viewport);
      QTest::qWait(60);
      if (viewport.frames_drawn() == frames && grab_viewport(viewport) == before) return true;
      quiet.restart();
    }
  }
  return false;
}

// The default studio with its Vulkan viewport, 1280x800, shown and drawn once; null when the
// viewport could not be created or never drew.
inline std::unique_ptr<app::Studio> open_studio_window() {
  auto studio = app::create_studio(app::CommandLine{});
  if (!studio || !studio->viewport) return nullptr;
  studio->window->resize(1280, 800);
  studio->window->show();
  if (!QTest::qWaitForWindowExposed(studio->window.get())) return nullptr;
  if (!QTest::qWaitFor([&] { return studio->viewport->frames_drawn() > 0; }, 20000)) return nullptr;
  return studio;
}

inline int differing_pixels(const QImage& a, const QImage& b) {
  int count = 0;
  for (int y = 0; y < std::min(a.height(), b.height()); ++y)
    for (int x = 0; x < std::min(a.width(), b.width()); ++x)
      if (a.pixel(x, y) != b.pixel(x, y)) ++count;
  return count;
}

// The view as the screen shows it once it differs from `before` in more than `pixels` pixels, or
// as it is after `timeout_ms`. A still view can still be showing an older frame: lavapipe draws
// and the X server presents on threads of their own, and on a loaded machine (CI's tests run
// three at a time on two cores) the picture of a change came after wait_for_still_view's two
// agreeing read-backs had already passed.
inline QImage grab_once_changed(app::ViewportWindow& viewport, const QImage& before, int pixels,
                                int timeout_ms = 5000) {
  QImage now = grab_viewport(viewport);
  QElapsedTimer waited;
  waited.start();
  while (differing_pixels(before, now) <= pixels && waited.elapsed() < timeout_ms) {
    QTest::qWait(50);
    now = grab_viewport(viewport);
  }
  return now;
}

}  // namespace kinetic::test
