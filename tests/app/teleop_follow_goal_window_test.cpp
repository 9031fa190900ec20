// Qt Test on the real studio window (X / Xvfb, Vulkan on lavapipe) with the real engine: the Teleop
// panel's Follow goal input driven by the 3D view's goal gizmo. With teleoperation on and no goal
// yet, the gizmo sits on the TCP; dragging its Z arrow with real mouse events moves the goal, and
// the arm follows while the drag goes on and settles on the goal. A screenshot of the window after
// the drag is written next to the test binary (teleop_follow_goal.png) to look at.
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QtTest>
#include <cmath>
#include <memory>
#include <numbers>

#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/servo/teleop_controller.hpp"
#include "gizmo_drag.hpp"
#include "panels/servo_panel.hpp"
#include "support/pose_difference.hpp"
#include "support/units.hpp"
#include "viewer/gizmo.hpp"
#include "window_test_support.hpp"

using namespace kinetic;
using namespace kinetic::app;
using kinetic::viewer::GizmoHandle;

namespace {

using kinetic::test::kDegree;
using kinetic::test::kMillimetre;

using kinetic::test::rotation_between;

}  // namespace

class TeleopFollowGoalWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    qputenv("KINETIC_NO_RECOVERY", "1");
    studio_ = test::open_studio_window();
    QVERIFY2(studio_, "the studio window with its Vulkan view did not open");
  }

  void cleanupTestCase() {
    studio_->window->teleop().controller->disable();
    studio_.reset();
  }

  void dragging_the_goal_gizmo_moves_the_arm_along() {
    StudioDocument& document = *studio_->document;
    document.set_joints(document.robot()->named_pose("ready"));
    document.undo_stack().clear();
    panels::ServoPanel& panel = *studio_->window->teleop().panel;
    TeleopController& controller = *studio_->window->teleop().controller;
    studio_->window->teleop().dock->raise();
    QVERIFY(QTest::qWaitFor([&] { return panel.isVisible(); }, 2000));
    panel.source_combo()->setCurrentIndex(
        panel.source_combo()->findData(int(panels::TeleopSource::Goal)));
    QTest::mouseClick(panel.enable_button(), Qt::LeftButton);
    QVERIFY(controller.enabled());
    QVERIFY2(
        QTest::qWaitFor(
            [&] {
              return panel.status_label()->text().startsWith(QStringLiteral("No goal to follow"));
            },
            2000),
        qPrintable(panel.status_label()->text()));

    const TcpKinematics tcp(document.robot());
    const Pose start = tcp.tcp_in_world(document.joints());
    // No goal yet: the gizmo stands on the TCP.
    QVERIFY(QTest::qWaitFor(
        [&] {
          return view().gizmo() &&
                 (view().gizmo()->pose.translation().cast<double>() - start.translation()).norm() <
                     1e-4;
        },
        5000));

    // 5 cm along the gizmo's Z arrow (world up); halfway through the drag the arm is on its way.
    const Vector3 up = viewer::gizmo_axis(*view().gizmo(), GizmoHandle::TranslateZ).cast<double>();
    QVERIFY(up.isApprox(Vector3::UnitZ(), 1e-6));
    double risen_mid_drag = 0.0;
    drag_arrow(GizmoHandle::TranslateZ, 0.05, [&] {
      QTest::qWait(150);
      risen_mid_drag =
          tcp.tcp_in_world(document.joints()).translation().z() - start.translation().z();
    });
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY2(risen_mid_drag > 0.003,
             qPrintable(QStringLiteral("rose %1 mm during the drag").arg(risen_mid_drag * 1000)));

    const auto goal = studio_->window->goal_controller()->goal_pose_world();
    QVERIFY(goal.has_value());
    const Vector3 goal_moved = goal->translation() - start.translation();
    QVERIFY2(std::abs(goal_moved.z() - 0.05) < 0.01 && goal_moved.head<2>().norm() < 0.002,
             qPrintable(QStringLiteral("the goal moved by %1 %2 %3")
                            .arg(goal_moved.x())
                            .arg(goal_moved.y())
                            .arg(goal_moved.z())));
    QVERIFY(rotation_between(*goal, start) < 1e-6);  // an arrow moves, it does not turn
    QVERIFY2(
        QTest::qWaitFor(
            [&] { return panel.status_label()->text().startsWith(QStringLiteral("Goal reached")); },
            15000),
        qPrintable(panel.status_label()->text()));
    const Pose reached = tcp.tcp_in_world(document.joints());
    QVERIFY2((reached.translation() - goal->translation()).norm() < kMillimetre,
             qPrintable(QString::number((reached.translation() - goal->translation()).norm())));
    QVERIFY(rotation_between(reached, *goal) < kDegree);
    QVERIFY(test::wait_for_still_view(view()));
    save_window_screenshot(QStringLiteral("teleop_follow_goal.png"));
  }

 private:
  ViewportWindow& view() { return *studio_->viewport; }

  // Presses on the gizmo's `handle` arrow, drags it by `metres` along its world axis in ten mouse
  // moves (`halfway` runs after the fifth), releases.
  template <typename Halfway>
  void drag_arrow(GizmoHandle handle, double metres, Halfway halfway) {
    QVERIFY(test::wait_for_still_view(view()));
    const viewer::Gizmo gizmo = *view().gizmo();
    const double s =
        viewer::gizmo_scale(gizmo, view().camera(), static_cast<float>(view().height()));
    const Vector3 centre = gizmo.pose.translation().cast<double>();
    const Vector3 axis = viewer::gizmo_axis(gizmo, handle).cast<double>();
    const auto a = view().project(centre + axis * (0.6 * s)),
               b = view().project(centre + axis * (0.6 * s + metres));
    QVERIFY(a && b);
    const QPoint press = a->toPoint();
    QCOMPARE(test::gizmo_handle_at(view(), press), handle);
    test::drag_in_view(view(), press, QPointF(press) + (*b - *a), [&](int move) {
      if (move == 5) halfway();
    });
  }

  void save_window_screenshot(const QString& name) {
    const QString path = QCoreApplication::applicationDirPath() + QLatin1Char('/') + name;
    QVERIFY(studio_->window->screen()->grabWindow(studio_->window->winId()).save(path));
    qDebug("screenshot: %s", qPrintable(path));
  }

  std::unique_ptr<Studio> studio_;
};

QTEST_MAIN(TeleopFollowGoalWindowTest)
#include "teleop_follow_goal_window_test.moc"
