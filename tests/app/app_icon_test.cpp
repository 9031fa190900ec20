// Qt Test (offscreen): the studio's icon is compiled in at every size the desktop installs, each
// PNG drawn at its own size (a rendition at the wrong size would be scaled, blurred, by the window
// system), and it is the icon: the start dot blue and the goal dot orange where the SVG puts them.
#include <QImage>
#include <QtTest>

#include "app/app_icon.hpp"

using kinetic::app::studio_icon;
using kinetic::app::studio_icon_sizes;

namespace {

// A point of the 256 px drawing (resources/icons/kinetic-studio.svg) in an image of `size` px.
QColor color_at(const QImage& image, double x, double y) {
  const double scale = image.width() / 256.0;
  return image.pixelColor(static_cast<int>(x * scale), static_cast<int>(y * scale));
}

}  // namespace

class AppIconTest : public QObject {
  Q_OBJECT

 private slots:
  // studio_icon() registers the compiled-in resources that the tests below read directly.
  void initTestCase() { QVERIFY(!studio_icon().isNull()); }

  void every_size_is_drawn_at_that_size() {
    const QIcon icon = studio_icon();
    for (const int size : studio_icon_sizes()) {
      const QImage image(QStringLiteral(":/icons/kinetic-studio-%1.png").arg(size));
      QVERIFY2(!image.isNull(), qPrintable(QStringLiteral("no %1 px icon compiled in").arg(size)));
      QCOMPARE(image.size(), QSize(size, size));
      QVERIFY(icon.availableSizes().contains(QSize(size, size)));
    }
  }

  void the_start_dot_is_blue_and_the_goal_dot_orange() {
    for (const int size : studio_icon_sizes()) {
      const QImage image(QStringLiteral(":/icons/kinetic-studio-%1.png").arg(size));
      const QColor start = color_at(image, 219.2, 173.4), goal = color_at(image, 94.6, 48.8);
      QVERIFY2(start.blue() > start.red() + 60,
               qPrintable(QStringLiteral("%1 px: start %2").arg(size).arg(start.name())));
      QVERIFY2(goal.red() > goal.blue() + 60,
               qPrintable(QStringLiteral("%1 px: goal %2").arg(size).arg(goal.name())));
      // The corners are outside the rounded square: transparent, not a filled background.
      QCOMPARE(image.pixelColor(0, 0).alpha(), 0);
    }
  }
};

QTEST_MAIN(AppIconTest)
#include "app_icon_test.moc"
