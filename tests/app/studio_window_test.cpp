// Qt Test on the real studio window under X (Xvfb in CI) with Vulkan on lavapipe: the window opens
// with the UR5e, the 3D view draws, moving a joint slider redraws the robot somewhere else.
#include <QApplication>
#include <QDockWidget>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/main_window.hpp"
#include "app/studio_window_factory.hpp"
#include "app/user_actions.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"
#include "panels/joints_panel.hpp"
#include "viewer/gizmo.hpp"

namespace {

using kinetic::test::differing_pixels;
using kinetic::test::grab_once_changed;
using kinetic::test::grab_viewport;
using kinetic::test::wait_for_still_view;

// Pixels whose colour is far from the background gradient: the robot, the grid lines are dimmer.
int bright_pixels(const QImage& image) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (qGray(image.pixel(x, y)) > 150) ++count;
  return count;
}

// The default studio at the size it opens with, shown, drawn and still; null when the Vulkan
// viewport could not be created or never drew.
std::unique_ptr<kinetic::app::Studio> shown_studio() {
  auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
  if (!studio || !studio->viewport) return nullptr;
  studio->window->show();
  if (!QTest::qWaitForWindowExposed(studio->window.get())) return nullptr;
  if (!QTest::qWaitFor([&] { return studio->viewport->frames_drawn() > 0; }, 20000)) return nullptr;
  if (!wait_for_still_view(*studio->viewport)) return nullptr;
  return studio;
}

}  // namespace

class StudioWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void opens_with_ur5e_and_draws() {
    auto studio = shown_studio();
    QVERIFY2(studio, "the Vulkan viewport could not be created or never drew");
    QCOMPARE(studio->document->robot()->name(), std::string("ur5e"));
    // The default size holds even without a window manager to clamp it: the docks scroll
    // rather than grow the window, and it fits the screen.
    const QRect available = studio->window->screen()->availableGeometry();
    QCOMPARE(studio->window->size(), kinetic::app::MainWindow::default_window_size(available));
    QVERIFY(available.contains(studio->window->frameGeometry()));
    // The right-hand forms (goal, planner, scene, collisions) fit their dock's width: none has
    // to be scrolled sideways.
    for (const char* name : {"GoalDock", "PlannerDock", "SceneDock", "CollisionsDock"}) {
      auto* dock = studio->window->findChild<QDockWidget*>(QString::fromLatin1(name));
      QVERIFY2(dock, name);
      dock->raise();
      QTest::qWait(50);
      for (QScrollArea* scroll : dock->findChildren<QScrollArea*>())
        QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1 scrolls sideways by %2 px")
                                .arg(QString::fromLatin1(name))
                                .arg(scroll->horizontalScrollBar()->maximum())));
    }
    const QImage before = grab_viewport(*studio->viewport);
    QVERIFY2(bright_pixels(before) > 2000, "the robot is not visible in the viewport");
    // The first view frames the goal gizmo as well as the arm: the UR5e stands upright and the
    // gizmo's top ring reached past its top, out of the view.
    const auto gizmo = studio->viewport->gizmo();
    QVERIFY(gizmo);
    kinetic::app::ViewportWindow& view = *studio->viewport;
    const double reach =
        kinetic::viewer::gizmo_scale(*gizmo, view.camera(), static_cast<float>(view.height()));
    const kinetic::Vector3 centre = gizmo->pose.translation().cast<double>();
    for (int axis = 0; axis < 3; ++axis)
      for (const double side : {-1.0, 1.0}) {
        const auto pixel = view.project(centre + kinetic::Vector3::Unit(axis) * side * reach);
        QVERIFY(pixel);
        QVERIFY2(pixel->x() >= 0 && pixel->x() <= view.width() && pixel->y() >= 0 &&
                     pixel->y() <= view.height(),
                 qPrintable(
                     QStringLiteral("gizmo reach %1 of axis %2 at %3, %4 is outside the %5x%6 view")
                         .arg(side)
                         .arg(axis)
                         .arg(pixel->x())
                         .arg(pixel->y())
                         .arg(view.width())
                         .arg(view.height())));
      }

    // Move the shoulder lift joint with its slider: the document follows and the view redraws.
    const int frames = studio->viewport->frames_drawn();
    QSlider* slider = studio->window->joints_panel()->slider(1);
    slider->setValue(slider->maximum() / 4);
    QTRY_VERIFY_WITH_TIMEOUT(studio->viewport->frames_drawn() > frames, 10000);
    QVERIFY(wait_for_still_view(*studio->viewport));
    QVERIFY(std::abs(studio->document->joints()[1] - studio->document->robot()->lower_limits()[1] -
                     0.25 * (studio->document->robot()->upper_limits()[1] -
                             studio->document->robot()->lower_limits()[1])) < 1e-3);
    const QImage after = grab_once_changed(*studio->viewport, before, 1000);
    QVERIFY2(differing_pixels(before, after) > 1000, "moving a joint did not change the picture");
  }

  void resizing_rebuilds_the_swapchain_and_redraws() {
    auto studio = shown_studio();
    QVERIFY2(studio, "the Vulkan viewport could not be created or never drew");
    const QSize before = studio->viewport->size();
    // Smaller, then larger than at the start: each size gets a new swapchain and a full picture.
    for (const QSize window_size : {QSize(1100, 700), QSize(1700, 1050)}) {
      const int frames = studio->viewport->frames_drawn();
      studio->window->resize(window_size);
      QTRY_VERIFY_WITH_TIMEOUT(studio->viewport->frames_drawn() > frames, 10000);
      QVERIFY(wait_for_still_view(*studio->viewport));
      const QSize now = studio->viewport->size();
      QVERIFY2(
          now != before,
          qPrintable(QStringLiteral("viewport stayed %1x%2").arg(now.width()).arg(now.height())));
      const QImage shot = grab_viewport(*studio->viewport);
      QCOMPARE(shot.size(), now * studio->viewport->devicePixelRatio());
      QVERIFY2(bright_pixels(shot) > 2000, "the robot is not drawn after the resize");
    }
  }

  void bad_robot_keeps_running_with_default() {
    kinetic::app::CommandLine line;
    line.robot = QStringLiteral("no_such_robot");
    auto studio = kinetic::app::create_studio(line);
    QVERIFY(studio);
    QCOMPARE(studio->document->robot()->name(), std::string("ur5e"));
  }

  // A problem is said in a box with every line, and kept in the status bar as its title and
  // first line (every line run together there was cut off at the window's edge).
  void a_reported_problem_stays_in_the_status_bar_as_one_line() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("arm.urdf"));
    QFile file(urdf);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"(<robot name="arm"><link name="base"/>
      <link name="upper"><visual><geometry><mesh filename="gone_a.stl"/></geometry></visual>
        <visual><geometry><mesh filename="gone_b.stl"/></geometry></visual></link>
      <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.5"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)");
    file.close();
    kinetic::app::CommandLine line;
    line.robot = urdf;
    auto studio = kinetic::app::create_studio(line);
    QVERIFY(studio);
    QString box_text;
    kinetic::test::ModalAnswers answers({[&](QWidget* modal) {
      auto* box = qobject_cast<QMessageBox*>(modal);
      QVERIFY2(box, "expected a message box");
      box_text = box->text();
      QMetaObject::invokeMethod(box, "accept", Qt::QueuedConnection);
    }});
    QTRY_COMPARE_WITH_TIMEOUT(answers.answered(), std::size_t(1), 5000);
    QVERIFY2(box_text.contains(QStringLiteral("gone_a.stl")) &&
                 box_text.contains(QStringLiteral("gone_b.stl")),
             qPrintable(box_text));
    const QString status = studio->window->statusBar()->currentMessage();
    QVERIFY2(status.startsWith(QStringLiteral("Loaded arm (no SRDF found) with warnings: ")) &&
                 status.contains(QStringLiteral("gone_a.stl")) &&
                 !status.contains(QStringLiteral("gone_b.stl")) &&
                 status.endsWith(QStringLiteral(" …")),
             qPrintable(status));
    QCOMPARE(answers.unexpected(), 0);
  }

  // A fresh studio has nothing to lose: its title says so and it closes without a question.
  void an_untouched_studio_closes_without_asking() {
    auto studio = shown_studio();
    QVERIFY2(studio, "the Vulkan viewport could not be created or never drew");
    QVERIFY2(studio->window->windowTitle().startsWith(QStringLiteral("Untitled session[*]")),
             qPrintable(studio->window->windowTitle()));
    QVERIFY(!studio->window->isWindowModified());
    int questions = 0;
    QTimer answer;  // a question would block close(): answer Cancel and count it
    connect(&answer, &QTimer::timeout, [&questions] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        ++questions;
        box->reject();
      }
    });
    answer.start(50);
    QVERIFY(studio->window->close());
    QCOMPARE(questions, 0);
  }

  // Last: it leaves a saved layout behind (removed at the end). A window size saved on a larger
  // monitor opens shrunk to this screen, whole and on it.
  void a_saved_size_larger_than_the_screen_is_shrunk_to_fit() {
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    {
      auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
      QVERIFY(studio);
      studio->window->show();
      QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
      studio->window->setGeometry(QRect(QPoint(200, 150), available.size() + QSize(600, 500)));
      QTRY_VERIFY(studio->window->height() > available.height());
      QVERIFY(studio->window->close());  // saves the geometry
    }
    QVERIFY(QSettings().contains(QStringLiteral("window/geometry")));
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    QTest::qWait(100);  // the fit after the first layout pass
    const QRect frame = studio->window->frameGeometry();
    QVERIFY2(available.contains(frame),
             qPrintable(QStringLiteral("window %1x%2+%3+%4 on a %5x%6 screen")
                            .arg(frame.width())
                            .arg(frame.height())
                            .arg(frame.x())
                            .arg(frame.y())
                            .arg(available.width())
                            .arg(available.height())));
    QSettings().remove(QStringLiteral("window"));
  }
};

QTEST_MAIN(StudioWindowTest)
#include "studio_window_test.moc"
