// Qt Test on the real studio window under X (Xvfb) with Vulkan on lavapipe: the frames drawn while
// the view keeps changing (FrameQuality::Fast: single-sample, at a reduced resolution stretched to
// the window) show the same picture as the still frame, only coarser, and once the frames stop
// the still frame is drawn again exactly as before.
#include <QDir>
#include <QtTest>
#include <algorithm>
#include <cstdlib>

#include "app/studio_window_factory.hpp"
#include "app/viewport/view_options.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"

using namespace kinetic;

namespace {

using kinetic::test::grab_viewport;
using kinetic::test::wait_for_still_view;

// Pixels whose colour differs by more than `tolerance` in a channel (edges move by a pixel or
// two between an antialiased frame and a stretched, aliased one; a wrong picture differs widely).
double far_pixel_fraction(const QImage& a, const QImage& b, int tolerance) {
  int far = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      const int d = std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                              std::abs(qBlue(p) - qBlue(q))});
      if (d > tolerance) ++far;
    }
  return static_cast<double>(far) / (static_cast<double>(a.width()) * a.height());
}

// Keeps asking for frames (the view changes nothing, so each shows the same picture) until
// `count` more are drawn; returns the screen as the last of them left it (a null image when the
// frames did not come).
QImage grab_while_redrawing(app::ViewportWindow& view, int count) {
  const int until = view.frames_drawn() + count;
  const auto connection = QObject::connect(&view, &app::ViewportWindow::frameDrawn, &view, [&] {
    if (view.frames_drawn() < until) view.requestUpdate();
  });
  view.requestUpdate();
  if (!QTest::qWaitFor([&] { return view.frames_drawn() >= until; }, 20000)) {
    QObject::disconnect(connection);
    return QImage();
  }
  // The last frames were Fast and the next, settling, frame is 160 ms away: the screen shows a
  // Fast frame once two read-backs agree.
  QImage shown = grab_viewport(view);
  for (int tries = 0; tries < 5; ++tries) {
    QTest::qWait(20);
    const QImage again = grab_viewport(view);
    if (again == shown) break;
    shown = again;
  }
  QObject::disconnect(connection);
  return shown;
}

}  // namespace

class FrameQualityWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void moving_frames_show_the_still_picture_coarser_and_the_still_frame_comes_back() {
    auto studio = kinetic::test::open_studio_window();
    QVERIFY(studio);
    app::ViewportWindow& view = *studio->viewport;
    view.set_option(app::ViewOption::Help, true);  // overlay text keeps its place and size
    QVERIFY(wait_for_still_view(view));
    const QImage still = grab_viewport(view);

    const QImage moving = grab_while_redrawing(view, 12);
    QVERIFY(!moving.isNull());
    if (view.last_frame_quality() != viewer::FrameQuality::Fast)
      QSKIP("full-quality frames are cheap on this device: every frame is drawn at full quality");
    QCOMPARE(moving.size(), still.size());
    QVERIFY2(moving != still, "a moving frame is drawn as the still one");
    const double far = far_pixel_fraction(moving, still, 64);
    if (far >= 0.03) {
      const QString still_file = QDir::temp().filePath("frame_quality_still.png");
      const QString moving_file = QDir::temp().filePath("frame_quality_moving.png");
      still.save(still_file);
      moving.save(moving_file);
      QFAIL(qPrintable(QString("%1 % of the pixels differ widely between the moving frame and the "
                               "still one (%2, %3)")
                           .arg(far * 100, 0, 'f', 2)
                           .arg(moving_file, still_file)));
    }

    // Still again: the settling frame is the full-quality picture, pixel for pixel.
    QVERIFY(wait_for_still_view(view));
    QCOMPARE(grab_viewport(view), still);
  }
};

QTEST_MAIN(FrameQualityWindowTest)
#include "frame_quality_window_test.moc"
