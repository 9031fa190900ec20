// Qt Test on the real studio window under X (Xvfb) with Vulkan on lavapipe: drag the goal gizmo's
// X arrow with synthesised mouse events, wait for IK to move the goal ghost along +X, compare the
// gizmo region with a golden image, undo the drag; the Panda's drag steps show the nearest IK
// solution and the release counts them all; keys reach the view's actions; a broken URDF names its
// file and line and the robot stays.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"
#include "gizmo_drag.hpp"
#include "support/test_paths.hpp"
#include "viewer/gizmo.hpp"

using kinetic::app::ViewportWindow;

namespace {

using kinetic::test::differing_pixels;
using kinetic::test::grab_once_changed;
using kinetic::test::grab_viewport;
using kinetic::test::wait_for_still_view;

// Two-part tolerance as in the viewer's golden tests: a pixel fails when a channel differs by more
// than `channel`, the image fails when more than `fraction` of its pixels fail.
double failing_fraction(const QImage& a, const QImage& b, int channel) {
  if (a.size() != b.size()) return 1.0;
  qint64 failing = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      if (std::abs(qRed(p) - qRed(q)) > channel || std::abs(qGreen(p) - qGreen(q)) > channel ||
          std::abs(qBlue(p) - qBlue(q)) > channel)
        ++failing;
    }
  return static_cast<double>(failing) / (a.width() * a.height());
}

constexpr int kCrop = 240;

bool has_legend(const ViewportWindow& view, const std::string& text) {
  for (const auto& entry : view.last_overlay().legend)
    if (entry.text == text) return true;
  return false;
}

QImage crop_around(const QImage& image, QPointF centre) {
  const QRect rect(static_cast<int>(centre.x()) - kCrop / 2,
                   static_cast<int>(centre.y()) - kCrop / 2, kCrop, kCrop);
  return image.copy(rect);  // outside parts come back black, deterministically
}

}  // namespace

class GoalGizmoWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void drag_x_arrow_moves_goal_and_undo_restores() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio);
    QVERIFY2(studio->viewport, "the Vulkan viewport could not be created");
    // A pose inside the workspace (the UR5e's zero pose stands stretched out at the edge of reach).
    kinetic::JointVector q(6);
    q << 0.3, -1.2, 1.4, -0.5, 1.1, 0.2;
    studio->document->set_joints(q);
    studio->window->resize(1280, 800);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    ViewportWindow& view = *studio->viewport;
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > 0 && view.gizmo().has_value(), 20000);
    QVERIFY(wait_for_still_view(view));

    auto& document = *studio->document;
    QVERIFY(document.goal().empty());
    QVERIFY(!has_legend(view, "goal"));
    const kinetic::app::TcpKinematics tcp(document.robot());
    const kinetic::Vector3 start_tcp = tcp.tcp_in_world(document.joints()).translation();

    // The pixel on the X arrow's shaft, found through the camera.
    const kinetic::viewer::Gizmo gizmo = *view.gizmo();
    const float scale =
        kinetic::viewer::gizmo_scale(gizmo, view.camera(), static_cast<float>(view.height()));
    const kinetic::Vector3 centre = gizmo.pose.translation().cast<double>();
    const kinetic::Vector3 x_axis =
        kinetic::viewer::gizmo_axis(gizmo, kinetic::viewer::GizmoHandle::TranslateX).cast<double>();
    const auto on_arrow = view.project(centre + x_axis * (0.6 * scale));
    const auto further = view.project(centre + x_axis * (1.2 * scale));
    QVERIFY(on_arrow && further);
    const QPoint press = on_arrow->toPoint();
    const auto ray = view.camera().ray_through_pixel(
        static_cast<float>(press.x()) + 0.5f, static_cast<float>(press.y()) + 0.5f,
        static_cast<float>(view.width()), static_cast<float>(view.height()));
    QCOMPARE(
        kinetic::viewer::pick_gizmo(gizmo, view.camera(), ray, static_cast<float>(view.height())),
        kinetic::viewer::GizmoHandle::TranslateX);

    const QImage before = grab_viewport(view);
    const QPointF step = (*further - *on_arrow) / 10.0;  // screen direction of +X
    QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, press);
    for (int i = 1; i <= 10; ++i) {
      QTest::mouseMove(&view, (QPointF(press) + step * i).toPoint());
      QTest::qWait(20);
    }
    const QPoint release = (QPointF(press) + step * 10).toPoint();
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, release);

    // IK answers; the goal ghost sits where the gizmo was dragged: displaced along +X only.
    QTRY_VERIFY_WITH_TIMEOUT(document.goal().joints.has_value(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!studio->window->goal_controller()->ik_busy(), 5000);
    const kinetic::Vector3 goal_tcp = tcp.tcp_in_world(*document.goal().joints).translation();
    const kinetic::Vector3 moved = goal_tcp - start_tcp;
    QVERIFY2(moved.x() > 0.02,
             qPrintable(QStringLiteral("goal moved by %1 m along x").arg(moved.x())));
    QVERIFY(std::abs(moved.y()) < 1e-3 && std::abs(moved.z()) < 1e-3);
    QVERIFY(!studio->window->goal_controller()->ik_failed());

    // The view shows the ghost and the moved gizmo.
    QVERIFY(wait_for_still_view(view));
    const QImage after = grab_once_changed(view, before, 500);
    QVERIFY2(differing_pixels(before, after) > 500,
             "dragging the gizmo did not change the picture");
    // The view's legend says which translucent robot is the goal.
    QVERIFY(has_legend(view, "goal"));
    after.save(QDir::temp().filePath(QStringLiteral("kinetic_goal_gizmo_drag.png")));
    const auto gizmo_pixel = view.project(view.gizmo()->pose.translation().cast<double>());
    QVERIFY(gizmo_pixel);
    const QImage region = crop_around(after, *gizmo_pixel);
    const QString golden =
        QString::fromStdString(kinetic::test::test_source_dir()) + "/goldens/goal_gizmo_drag.png";
    if (qEnvironmentVariableIntValue("KINETIC_UPDATE_GOLDENS") == 1) {
      QVERIFY(region.save(golden));
    } else {
      const QImage expected = QImage(golden).convertToFormat(QImage::Format_RGB32);
      QVERIFY2(
          !expected.isNull(),
          qPrintable(golden + " is missing: run with KINETIC_UPDATE_GOLDENS=1 and look at it"));
      const double failing = failing_fraction(region, expected, 24);
      if (failing > 0.01)
        region.save(QDir::temp().filePath(QStringLiteral("goal_gizmo_drag.actual.png")));
      QVERIFY2(failing <= 0.01,
               qPrintable(QStringLiteral("%1 of the gizmo region differs from %2 (actual in %3)")
                              .arg(failing)
                              .arg(golden, QDir::temp().filePath(
                                               QStringLiteral("goal_gizmo_drag.actual.png")))));
    }

    // Ctrl+Z pressed in the 3D view undoes the whole drag in one step.
    view.requestActivate();
    QTest::keyClick(&view, Qt::Key_Z, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(document.goal().empty(), 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!has_legend(view, "goal"), 3000);
  }

  // The Panda's sweep IK lists every solution of a pose with ~16 numeric solves: during the drag
  // each step asks for the nearest one only (the count blank), the release counts them all.
  void panda_drag_steps_answer_the_nearest_solution_and_the_release_counts_them() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio && studio->viewport);
    QCOMPARE(studio->document->load_robot(QStringLiteral("panda")), QString());
    studio->document->set_joints(studio->document->robot()->named_pose("ready"));
    studio->window->resize(1280, 800);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    ViewportWindow& view = *studio->viewport;
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > 0 && view.gizmo().has_value(), 20000);
    QVERIFY(wait_for_still_view(view));
    kinetic::app::GoalController& goal = *studio->window->goal_controller();

    const kinetic::viewer::Gizmo gizmo = *view.gizmo();
    const float scale =
        kinetic::viewer::gizmo_scale(gizmo, view.camera(), static_cast<float>(view.height()));
    const kinetic::Vector3 centre = gizmo.pose.translation().cast<double>();
    const kinetic::Vector3 x_axis =
        kinetic::viewer::gizmo_axis(gizmo, kinetic::viewer::GizmoHandle::TranslateX).cast<double>();
    const auto on_arrow = view.project(centre + x_axis * (0.6 * scale));
    const auto further = view.project(centre + x_axis * (1.0 * scale));
    QVERIFY(on_arrow && further);
    const QPoint press = on_arrow->toPoint();
    QCOMPARE(kinetic::test::gizmo_handle_at(view, press), kinetic::viewer::GizmoHandle::TranslateX);

    int counted_while_dragging = -1;
    QString status_while_dragging;
    kinetic::test::drag_in_view(view, press, *further, [&](int move) {
      if (move != 5) return;
      QTRY_VERIFY_WITH_TIMEOUT(studio->document->goal().joints && !goal.ik_busy(), 20000);
      counted_while_dragging = goal.solution_count();
      status_while_dragging = goal.ik_status();
    });
    QCOMPARE(counted_while_dragging, 0);
    QVERIFY2(status_while_dragging.contains(QStringLiteral("nearest")),
             qPrintable(status_while_dragging));
    QTRY_VERIFY_WITH_TIMEOUT(!goal.ik_busy() && goal.solution_count() > 0, 20000);
    QVERIFY2(!goal.ik_failed(), qPrintable(goal.ik_status()));
    QVERIFY2(goal.solution_count() > 1, qPrintable(goal.ik_status()));
    QCOMPARE(goal.solution_index(), 0);
  }

  void view_keys_toggle_actions() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio && studio->viewport);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    ViewportWindow& view = *studio->viewport;
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > 0, 20000);
    QVERIFY(view.option(kinetic::app::ViewOption::Grid));
    QTest::keyClick(&view, Qt::Key_G);
    QVERIFY(!view.option(kinetic::app::ViewOption::Grid));
    QVERIFY(!studio->window->view_action(kinetic::app::ViewOption::Grid)->isChecked());
    QTest::keyClick(&view, Qt::Key_F1);
    QVERIFY(view.option(kinetic::app::ViewOption::Help));
    int played = 0;
    QObject::connect(studio->window->play_pause_action(), &QAction::triggered,
                     [&played] { ++played; });
    QTest::keyClick(&view, Qt::Key_Space);
    QCOMPARE(played, 1);
    // The help overlay is drawn.
    const int frames = view.frames_drawn();
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > frames, 5000);
    grab_viewport(view).save(QDir::temp().filePath(QStringLiteral("kinetic_help_overlay.png")));
  }

  void broken_urdf_names_file_and_line_and_robot_stays() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.urdf"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "<?xml version=\"1.0\"?>\n<robot name=\"broken\">\n  <link name=\"base\">\n  "
        "</lnk>\n</robot>\n");
    file.close();
    const QString error = studio->document->load_robot(path);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("broken.urdf")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("line")), qPrintable(error));
    QCOMPARE(studio->document->robot()->name(), std::string("ur5e"));
  }
};

QTEST_MAIN(GoalGizmoWindowTest)
#include "goal_gizmo_window_test.moc"
