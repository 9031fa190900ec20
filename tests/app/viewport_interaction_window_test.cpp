// Qt Test on the real studio window under X (Xvfb) with Vulkan on lavapipe, one studio for all
// cases: a left-click on an obstacle selects it, its gizmo arrow moves it (Ctrl+Z puts it back),
// a click on empty space deselects; a right-drag on a link turns that link's joint only; the
// view keys W, C, R and F3 with the 3D view focused; the status bar and the collision list name
// the link and the box the robot runs into.
#include <QAction>
#include <QGuiApplication>
#include <QLabel>
#include <QListWidget>
#include <QScreen>
#include <QStatusBar>
#include <QtTest>

#include "app/collision/collision_monitor.hpp"
#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "viewer/gizmo.hpp"

using namespace kinetic;
using kinetic::app::ViewOption;
using kinetic::app::ViewportWindow;

namespace {

using kinetic::test::differing_pixels;
using kinetic::test::grab_viewport;
using kinetic::test::wait_for_still_view;

// A reachable pose with the arm bent, well inside the view.
JointVector bent_arm(double pan) {
  JointVector q(6);  // filled in place: see ur5e_arm (GCC 12's maybe-uninitialized at -O1)
  q << pan, -1.2, 1.2, -1.57, -1.57, 0.0;
  return q;
}

Vector3 link_origin(const RobotModel& robot, const JointVector& q, const std::string& link) {
  return ForwardKinematics(robot).link_pose(q, robot.link_index(link)).translation();
}

bool inside(const ViewportWindow& view, const QPointF& pixel) {
  return pixel.x() > 2 && pixel.y() > 2 && pixel.x() < view.width() - 2 &&
         pixel.y() < view.height() - 2;
}

QString status_collision_text(QMainWindow& window) {
  for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
    if (label->text().startsWith(QStringLiteral("collision"), Qt::CaseInsensitive))
      return label->text();
  return {};
}

}  // namespace

class ViewportInteractionWindowTest : public QObject {
  Q_OBJECT
  std::unique_ptr<app::Studio> studio_;

  ViewportWindow& view() { return *studio_->viewport; }
  app::StudioDocument& document() { return *studio_->document; }

 private slots:
  void initTestCase() {
    studio_ = kinetic::test::open_studio_window();
    QVERIFY2(studio_, "the studio's Vulkan viewport could not be created or never drew");
  }

  void init() {
    document().set_scene(PlanningScene());
    document().set_selected_object({});
    document().set_goal({});
    document().set_joints(bent_arm(0.0));
    view().fit_camera();
    QVERIFY(test::redraw(view()));
  }

  void click_selects_obstacle_and_gizmo_moves_it() {
    // A box beside the robot's base, on the screen's left (the arm reaches to the right).
    PlanningScene scene;
    const Vector3 centre = Vector3(0, 0, 0.1) - 0.45 * view().camera().right().cast<double>();
    scene.add_obstacle("crate", Shape::box(Vector3(0.16, 0.16, 0.16)),
                       Pose(Eigen::Translation3d(centre)));
    document().edit_scene(scene, QStringLiteral("Add box"));
    QVERIFY(test::redraw(view()));
    const auto pixel = view().project(centre);
    QVERIFY(pixel && inside(view(), *pixel));

    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, pixel->toPoint());
    QTRY_COMPARE_WITH_TIMEOUT(document().selected_object(), QStringLiteral("crate"), 2000);

    // The gizmo now sits on the box; drag its X arrow.
    QTRY_VERIFY_WITH_TIMEOUT(
        view().gizmo() &&
            (view().gizmo()->pose.translation().cast<double>() - centre).norm() < 1e-5,
        5000);
    QVERIFY(test::redraw(view()));
    const viewer::Gizmo gizmo = *view().gizmo();
    const float scale =
        viewer::gizmo_scale(gizmo, view().camera(), static_cast<float>(view().height()));
    const Vector3 x_axis =
        viewer::gizmo_axis(gizmo, viewer::GizmoHandle::TranslateX).cast<double>();
    const auto on_arrow = view().project(centre + x_axis * (0.6 * scale));
    const auto further = view().project(centre + x_axis * (1.2 * scale));
    QVERIFY(on_arrow && further && inside(view(), *on_arrow));
    const QPoint press = on_arrow->toPoint();
    const QPointF step = (*further - *on_arrow) / 10.0;
    QTest::mousePress(&view(), Qt::LeftButton, Qt::NoModifier, press);
    for (int i = 1; i <= 10; ++i) {
      QTest::mouseMove(&view(), (QPointF(press) + step * i).toPoint());
      QTest::qWait(20);
    }
    QTest::mouseRelease(&view(), Qt::LeftButton, Qt::NoModifier,
                        (QPointF(press) + step * 10).toPoint());

    const Vector3 moved = document().scene().obstacle("crate").pose.translation() - centre;
    QVERIFY2(moved.x() > 0.02,
             qPrintable(QStringLiteral("the box moved by %1 m along x").arg(moved.x())));
    QVERIFY(std::abs(moved.y()) < 1e-6 && std::abs(moved.z()) < 1e-6);
    QCOMPARE(document().selected_object(), QStringLiteral("crate"));

    // Ctrl+Z in the 3D view undoes the whole drag in one step; the box stays.
    view().requestActivate();
    QTest::keyClick(&view(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(document().scene().has_obstacle("crate"));
    QVERIFY((document().scene().obstacle("crate").pose.translation() - centre).norm() < 1e-9);

    // A click where nothing is drawn (the sky in the top corner) deselects.
    QVERIFY(test::redraw(view()));
    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, QPoint(6, 6));
    QTRY_VERIFY_WITH_TIMEOUT(document().selected_object().isEmpty(), 2000);
  }

  void right_drag_on_link_turns_its_joint_only() {
    const RobotModel& robot = *document().robot();
    const JointVector before = document().joints();
    // The middle of the forearm (link3, from the elbow to the first wrist joint, along its -x):
    // its parent joint is the elbow (variable 2).
    const int forearm = robot.link_index("link3");
    const Vector3 middle =
        ForwardKinematics(robot).link_pose(before, forearm) * Vector3(-0.1961, 0, 0);
    const int elbow =
        robot
            .joints()[static_cast<size_t>(robot.links()[static_cast<size_t>(forearm)].parent_joint)]
            .variable_index;
    QCOMPARE(elbow, 2);
    const auto pixel = view().project(middle);
    QVERIFY(pixel && inside(view(), *pixel));
    const QPoint press = pixel->toPoint();
    QTest::mousePress(&view(), Qt::RightButton, Qt::NoModifier, press);
    for (int i = 1; i <= 8; ++i) {
      QTest::mouseMove(&view(), press + QPoint(0, 5 * i));
      QTest::qWait(10);
    }
    QTest::mouseRelease(&view(), Qt::RightButton, Qt::NoModifier, press + QPoint(0, 40));

    const JointVector after = document().joints();
    QVERIFY2(
        std::abs(after[elbow] - before[elbow]) > 0.1,
        qPrintable(QStringLiteral("the elbow turned by %1 rad").arg(after[elbow] - before[elbow])));
    for (int i = 0; i < robot.dof(); ++i)
      if (i != elbow) QCOMPARE(after[i], before[i]);
  }

  void view_keys_with_the_view_focused() {
    view().requestActivate();
    QTRY_COMPARE_WITH_TIMEOUT(QGuiApplication::focusWindow(), static_cast<QWindow*>(&view()), 3000);

    QVERIFY(!view().option(ViewOption::Wireframe));
    QTest::keyClick(&view(), Qt::Key_W);
    QVERIFY(view().option(ViewOption::Wireframe));
    QVERIFY(studio_->window->view_action(ViewOption::Wireframe)->isChecked());
    QTest::keyClick(&view(), Qt::Key_W);
    QVERIFY(!view().option(ViewOption::Wireframe));

    app::CollisionMonitor& monitor = *studio_->window->collision_monitor();
    QVERIFY(!view().option(ViewOption::CollisionSpheres) && !monitor.spheres_wanted());
    QTest::keyClick(&view(), Qt::Key_C);
    QVERIFY(view().option(ViewOption::CollisionSpheres) && monitor.spheres_wanted());
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.report().spheres.empty(), 5000);
    QTest::keyClick(&view(), Qt::Key_C);
    QVERIFY(!view().option(ViewOption::CollisionSpheres) && !monitor.spheres_wanted());

    // R: orbit, pan and zoom away, then back to the framed default view.
    QVERIFY(test::redraw(view()));
    const viewer::Camera framed = view().camera();
    const QPoint empty(8, view().height() / 2);
    QTest::mousePress(&view(), Qt::LeftButton, Qt::NoModifier, empty);
    for (int i = 1; i <= 6; ++i) QTest::mouseMove(&view(), empty + QPoint(20 * i, 8 * i));
    QTest::mouseRelease(&view(), Qt::LeftButton, Qt::NoModifier, empty + QPoint(120, 48));
    view().camera().pan(40.0f, 25.0f, static_cast<float>(view().height()));
    view().camera().zoom(0.5f);
    QVERIFY(std::abs(view().camera().yaw - framed.yaw) > 0.1f);
    QVERIFY((view().camera().target - framed.target).norm() > 1e-3f);
    QTest::keyClick(&view(), Qt::Key_R);
    const viewer::Camera reset = view().camera();
    QVERIFY(std::abs(reset.yaw - framed.yaw) < 1e-5f &&
            std::abs(reset.pitch - framed.pitch) < 1e-5f);
    QVERIFY(std::abs(reset.distance - framed.distance) < 1e-4f);
    QVERIFY((reset.target - framed.target).norm() < 1e-4f);

    // F3: the statistics overlay is drawn.
    QVERIFY(wait_for_still_view(view()));
    const QImage plain = grab_viewport(view());
    QVERIFY(!view().option(ViewOption::Stats));
    QTest::keyClick(&view(), Qt::Key_F3);
    QVERIFY(view().option(ViewOption::Stats));
    QVERIFY(studio_->window->view_action(ViewOption::Stats)->isChecked());
    QVERIFY(wait_for_still_view(view()));
    QVERIFY2(differing_pixels(plain, grab_viewport(view())) > 100,
             "the statistics overlay is not drawn");
    QTest::keyClick(&view(), Qt::Key_F3);
    QVERIFY(!view().option(ViewOption::Stats));
  }

  void status_bar_and_list_name_the_collision() {
    QTRY_VERIFY_WITH_TIMEOUT(
        status_collision_text(*studio_->window).startsWith(QStringLiteral("collision: free")),
        5000);
    // A box where the wrist will be once the arm pans to 0.8 rad; free where it is now.
    const RobotModel& robot = *document().robot();
    const JointVector into_box = bent_arm(0.8);
    PlanningScene scene;
    scene.add_obstacle("crate", Shape::box(Vector3(0.2, 0.2, 0.2)),
                       Pose(Eigen::Translation3d(link_origin(robot, into_box, "link6"))));
    document().edit_scene(scene, QStringLiteral("Add box"));
    document().set_joints(bent_arm(-0.8));
    QTRY_VERIFY_WITH_TIMEOUT(
        status_collision_text(*studio_->window).startsWith(QStringLiteral("collision: free")),
        5000);

    document().set_joints(into_box);
    QTRY_VERIFY_WITH_TIMEOUT(
        status_collision_text(*studio_->window).startsWith(QStringLiteral("COLLISION")), 5000);
    QVERIFY2(status_collision_text(*studio_->window).contains(QStringLiteral("crate")),
             qPrintable(status_collision_text(*studio_->window)));
    QListWidget* list = studio_->window->collision_list();
    QStringList lines;
    for (int i = 0; i < list->count(); ++i) lines << list->item(i)->text();
    bool names_wrist_and_box = false;
    for (const QString& line : lines)
      names_wrist_and_box |=
          line.contains(QStringLiteral("crate")) && line.contains(QStringLiteral("link6"));
    QVERIFY2(names_wrist_and_box, qPrintable(lines.join(QStringLiteral(" | "))));
    const auto& links = studio_->window->collision_monitor()->report().current.colliding_links;
    QVERIFY(std::find(links.begin(), links.end(), robot.link_index("link6")) != links.end());

    // Back out: free again, the list says so.
    document().set_joints(bent_arm(-0.8));
    QTRY_VERIFY_WITH_TIMEOUT(
        status_collision_text(*studio_->window).startsWith(QStringLiteral("collision: free")),
        5000);
    QCOMPARE(list->count(), 1);
    QVERIFY(list->item(0)->text().startsWith(QStringLiteral("collision: free")));
  }

  void cleanupTestCase() { studio_.reset(); }
};

QTEST_MAIN(ViewportInteractionWindowTest)
#include "viewport_interaction_window_test.moc"
