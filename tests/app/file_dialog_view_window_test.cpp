// Qt Test on the real studio window under X (Xvfb in CI): a modal file dialog (Export, Save, Open)
// leaves the 3D view as it was around it. A first-session report saw only the grid behind every
// file dialog, as if the scene were lost. The view is grabbed from the screen (a native Vulkan
// window QWidget::grab() cannot see) before and while the dialog is open; outside the dialog's
// frame the two must agree, and the view must show more than its background.
#include <QApplication>
#include <QFileDialog>
#include <QImage>
#include <QScreen>
#include <QTimer>
#include <QWindow>
#include <QtTest>

#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"

namespace {

// The view's rectangle on the screen.
QRect view_on_screen(const kinetic::app::ViewportWindow& view) {
  return QRect(view.mapToGlobal(QPoint(0, 0)), view.size());
}

// Pixels of `a` and `b` (the same screen grab size) inside `area` and outside `skip` that differ
// by more than a few levels in a channel, as a fraction of those compared.
double differing_fraction(const QImage& a, const QImage& b, const QRect& area, const QRect& skip) {
  long compared = 0, differing = 0;
  for (int y = area.top(); y <= area.bottom(); y += 2)
    for (int x = area.left(); x <= area.right(); x += 2) {
      if (skip.contains(x, y)) continue;
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      ++compared;
      if (std::abs(qRed(p) - qRed(q)) > 8 || std::abs(qGreen(p) - qGreen(q)) > 8 ||
          std::abs(qBlue(p) - qBlue(q)) > 8)
        ++differing;
    }
  return compared ? double(differing) / double(compared) : 1.0;
}

// Distinct colours in the area: the empty view is its background and grid, a few colours.
int colours_in(const QImage& image, const QRect& area) {
  QSet<QRgb> colours;
  for (int y = area.top(); y <= area.bottom(); y += 3)
    for (int x = area.left(); x <= area.right(); x += 3)
      colours.insert(image.pixel(x, y) & 0xF0F0F0);
  return int(colours.size());
}

}  // namespace

class FileDialogViewWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void a_file_dialog_leaves_the_view_as_it_was() {
    auto studio = kinetic::test::open_studio_window();
    QVERIFY2(studio, "the Vulkan viewport could not be created or never drew");
    QTest::qWait(500);  // the widgets around the view paint too
    // A slow machine draws coarse frames first and the full one later: compare the full one.
    QVERIFY(kinetic::test::wait_for_still_view(*studio->viewport));
    QScreen* screen = studio->window->screen();
    const QRect view = view_on_screen(*studio->viewport).intersected(screen->geometry());
    const QImage before = screen->grabWindow(0).toImage();
    QVERIFY2(colours_in(before, view) > 20, "the view shows no robot to begin with");
    QImage during;
    QRect dialog_frame;
    QFileDialog dialog(studio->window.get(), QStringLiteral("Export trajectory"));
    dialog.setOption(QFileDialog::DontUseNativeDialog, true);
    QTimer::singleShot(1500, &dialog, [&] {
      during = screen->grabWindow(0).toImage();
      dialog_frame = dialog.frameGeometry().adjusted(-4, -4, 4, 4);  // and its shadow
      dialog.reject();
    });
    dialog.exec();
    QVERIFY(!during.isNull());
    const double changed = differing_fraction(before, during, view, dialog_frame);
    QVERIFY2(
        changed < 0.01,
        qPrintable(QStringLiteral("%1% of the view changed behind the dialog").arg(100 * changed)));
  }
};

QTEST_MAIN(FileDialogViewWindowTest)
#include "file_dialog_view_window_test.moc"
