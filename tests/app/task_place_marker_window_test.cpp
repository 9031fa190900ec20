// Qt Test on the real studio window (X / Xvfb, Vulkan on lavapipe) with the real engine: the Task
// panel's place target in the 3D view, on the UR5e example
// (examples/jobs/pick_and_place_scene.json). A violet ghost of the chosen part stands where the
// place fields say while the Task dock is shown; Move in 3D view puts the gizmo on it; dragging its
// arrow and its yaw ring (real mouse events) writes x y z and yaw into the fields without touching
// the document, and the next plan puts the part there. Clicking the marker in the view turns Move
// in 3D view on (where nothing stands in front of it); clicking an obstacle gives the gizmo back,
// empty space keeps it. Screenshots of the window with the marker are written next to the test
// binary (task_place_marker.png, task_place_marker_drag.png) to look at.
#include <QAction>
#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>

#include "app/goal/goal_controller.hpp"
#include "app/planning/planning_features.hpp"
#include "app/task/place_target.hpp"
#include "app/task/task_feature.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "engine/scene/scene_file.hpp"
#include "gizmo_drag.hpp"
#include "panels/planner_panel.hpp"
#include "panels/task_panel.hpp"
#include "support/test_paths.hpp"
#include "support/units.hpp"
#include "user_actions.hpp"
#include "viewer/gizmo.hpp"
#include "window_test_support.hpp"

using namespace kinetic;
using namespace kinetic::app;
using kinetic::panels::TaskPanel;
using kinetic::viewer::GizmoHandle;

namespace {

const Vector3 kPlaceAt(0.45, 0.35, 0.035);    // free table beside the box (task_panel_window_test)
constexpr int kMarkerPlanTimeoutMs = 240000;  // a loaded 2-core machine

PlanningScene marker_scene() {
  return load_scene(test::test_source_dir() + "/../examples/jobs/pick_and_place_scene.json");
}

bool near_point(const Vector3& a, const Vector3& b, double tolerance) {
  return (a - b).norm() <= tolerance;
}

double heading(const Pose& pose) {
  return std::atan2(pose.linear()(1, 0), pose.linear()(0, 0));
}

// Where the ray enters an unturned box obstacle (distance along it); nullopt when it misses.
std::optional<float> ray_enters(const viewer::Ray& ray, const Obstacle& box) {
  const viewer::Vec3 centre = box.pose.translation().cast<float>();
  const viewer::Vec3 half = box.shape.box_size.cast<float>() / 2;
  float enter = 0, leave = std::numeric_limits<float>::max();
  for (int axis = 0; axis < 3; ++axis) {
    const float a = (centre[axis] - half[axis] - ray.origin[axis]) / ray.direction[axis];
    const float b = (centre[axis] + half[axis] - ray.origin[axis]) / ray.direction[axis];
    enter = std::max(enter, std::min(a, b));
    leave = std::min(leave, std::max(a, b));
  }
  return enter <= leave ? std::optional<float>(enter) : std::nullopt;
}

}  // namespace

class TaskPlaceMarkerWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    qputenv("KINETIC_NO_RECOVERY", "1");
    studio_ = test::open_studio_window();
    QVERIFY2(studio_, "the studio window with its Vulkan view did not open");
    task_ = studio_->window->task();
    QVERIFY(task_);
    panel_ = task_->panel();
    goal_dock_ = studio_->window->findChild<QDockWidget*>(QStringLiteral("GoalDock"));
    QVERIFY(goal_dock_);
    // Reproducible plans: the Planner panel's seed applies to the task's free-space moves.
    studio_->window->planning_features()->planner_panel()->seed_edit()->setText(
        QStringLiteral("7"));
  }

  void init() {
    studio_->window->planning_features()->trajectories().playback().stop();
    if (scene_to_json(document().scene()) != scene_to_json(marker_scene()))
      document().set_scene(marker_scene());
    document().set_joints(document().robot()->named_pose("home"));
    panel_->set_move_in_view(false);
    show_task_dock();
    // Looking at the table from the front right, the part, the box and the place in view (a
    // replaced robot is framed again).
    viewer::Camera camera = view().camera();
    camera.target = viewer::Vec3(0.45f, 0.0f, 0.05f);
    camera.distance = 1.8f;
    camera.yaw = 0.3f;
    camera.pitch = 0.7f;
    view().set_camera(camera);
    // Selecting the part chooses it in the panel; deselecting leaves it chosen (and the gizmo
    // on the goal).
    document().set_selected_object(QStringLiteral("part"));
    document().set_selected_object({});
    QCOMPARE(panel_->object(), QStringLiteral("part"));
    for (int axis = 0; axis < 3; ++axis) panel_->place_position_box(axis)->setValue(kPlaceAt[axis]);
    panel_->place_yaw_box()->setValue(0.0);
  }

  void cleanupTestCase() {
    task_ = nullptr;
    studio_.reset();
  }

  void the_marker_stands_at_the_place_while_the_dock_is_shown() {
    QVERIFY(marker());
    QVERIFY(near_point(marker()->pose.translation(), kPlaceAt, 1e-12));
    QVERIFY(marker()->shape.type == Shape::Type::Cylinder);  // the part's own shape
    const auto at = view().project(kPlaceAt);
    QVERIFY(at.has_value());
    const qreal scale = view().devicePixelRatio();
    const QPoint centre(static_cast<int>(at->x() * scale), static_cast<int>(at->y() * scale));
    const QRect around(centre - QPoint(6, 6), QSize(13, 13));
    // Violet: not the obstacles' green, the goal's orange or the selection's yellow.
    const auto violet = [](QRgb pixel) {
      return qRed(pixel) > qGreen(pixel) + 20 && qBlue(pixel) > qGreen(pixel) + 20;
    };
    // A loaded machine (CI) can put a frame on the screen after the view went still: each grab
    // below is taken again, for up to 5 s, until it shows what the state asks for.
    QImage shown;
    for (int tries = 0; tries < 10; ++tries) {
      if (tries > 0) QTest::qWait(500);
      QVERIFY(test::wait_for_still_view(view()));
      shown = test::grab_viewport(view());
      QVERIFY(shown.rect().contains(around));
      if (violet(shown.pixel(centre))) break;
    }
    QVERIFY2(violet(shown.pixel(centre)), qPrintable(QColor(shown.pixel(centre)).name()));
    save_window_screenshot(QStringLiteral("task_place_marker.png"));

    // The Goal tab in front of the Task tab: the dock is hidden, and so is the marker.
    goal_dock_->raise();
    QTRY_VERIFY(!marker());
    QImage hidden;
    int differing = 0;
    for (int tries = 0; tries < 10 && differing <= 40; ++tries) {
      if (tries > 0) QTest::qWait(500);
      QVERIFY(test::wait_for_still_view(view()));
      hidden = test::grab_viewport(view());
      QCOMPARE(shown.size(), hidden.size());
      differing = test::differing_pixels(shown.copy(around), hidden.copy(around));
    }
    QVERIFY2(differing > 40, "no marker is drawn at the place");

    // Shown again, it is back; with nothing to pick there is none.
    show_task_dock();
    QVERIFY(marker());
    document().set_scene(PlanningScene());
    QVERIFY(!marker());
  }

  void typing_a_place_moves_the_marker() {
    type_into(panel_->place_position_box(0), QStringLiteral("0.3"));
    type_into(panel_->place_yaw_box(), QStringLiteral("30"));
    QCOMPARE(panel_->place_position_box(0)->value(), 0.3);
    QCOMPARE(panel_->place_yaw_box()->value(), 30.0);
    QVERIFY(marker());
    // Exactly what the plan would be asked for: the upright part turned by the yaw about world Z.
    QVERIFY(marker()->pose.isApprox(panel_->request().place_pose, 1e-12));
    QVERIFY(
        near_point(marker()->pose.translation(), Vector3(0.3, kPlaceAt.y(), kPlaceAt.z()), 1e-12));
    const Eigen::Matrix3d turned =
        Eigen::AngleAxisd(30.0 / kinetic::test::kDegreesPerRadian, Vector3::UnitZ())
            .toRotationMatrix();
    QVERIFY(marker()->pose.linear().isApprox(turned, 1e-12));
  }

  void move_in_view_puts_the_gizmo_on_the_place() {
    QVERIFY(gizmo_at(goal_position()));
    QVERIFY(!panel_->move_in_view());
    QVERIFY(!panel_->move_in_view_button()->toolTip().isEmpty());
    QTest::mouseClick(panel_->move_in_view_button(), Qt::LeftButton);
    QVERIFY(panel_->move_in_view());
    QVERIFY(task_->place_target().has_gizmo());
    QVERIFY(gizmo_at(kPlaceAt));
    // Position and yaw only: world axes (even in the local-frame view) and only the ring about Z.
    QVERIFY((view().gizmo()->rings == std::array<bool, 3>{false, false, true}));
    view().set_option(ViewOption::LocalFrame, true);
    panel_->place_yaw_box()->setValue(45.0);
    QVERIFY(test::wait_for_still_view(view()));
    QVERIFY(view().gizmo()->pose.linear().isIdentity(1e-6f));
    view().set_option(ViewOption::LocalFrame, false);
    // Typing moves the gizmo with the marker.
    panel_->place_position_box(1)->setValue(0.3);
    QVERIFY(gizmo_at(Vector3(kPlaceAt.x(), 0.3, kPlaceAt.z())));
  }

  void the_gizmo_goes_back_to_its_usual_target() {
    const auto turn_on = [this] {
      if (!panel_->move_in_view()) QTest::mouseClick(panel_->move_in_view_button(), Qt::LeftButton);
      return panel_->move_in_view() && gizmo_at(kPlaceAt);
    };
    // The button off: the goal.
    QVERIFY(turn_on());
    QTest::mouseClick(panel_->move_in_view_button(), Qt::LeftButton);
    QVERIFY(!task_->place_target().has_gizmo());
    QVERIFY(gizmo_at(goal_position()));
    // The dock hidden: off, and still off when it is shown again.
    QVERIFY(turn_on());
    goal_dock_->raise();
    QTRY_VERIFY(!panel_->move_in_view());
    QVERIFY(!marker());
    show_task_dock();
    QVERIFY(!panel_->move_in_view());
    QVERIFY(gizmo_at(goal_position()));
    // Another object chosen.
    QVERIFY(turn_on());
    panel_->object_combo()->setCurrentText(QStringLiteral("box"));
    QVERIFY(!panel_->move_in_view());
    QVERIFY(gizmo_at(goal_position()));
    panel_->object_combo()->setCurrentText(QStringLiteral("part"));
    // The table clicked in the view: the gizmo moves the selected obstacle.
    QVERIFY(turn_on());
    const Vector3 table_point(0.8, -0.3, -0.005);  // its top, clear of the robot and the part
    const auto click = view().project(table_point);
    QVERIFY(click.has_value());
    QCOMPARE(test::gizmo_handle_at(view(), click->toPoint()), GizmoHandle::None);
    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, click->toPoint());
    QTRY_COMPARE(document().selected_object(), QStringLiteral("table"));
    QVERIFY(!panel_->move_in_view());
    QVERIFY(gizmo_at(document().scene().obstacle("table").pose.translation()));
    document().set_selected_object({});
    // The robot replaced.
    QVERIFY(turn_on());
    QCOMPARE(document().reload_robot(), QString());
    QVERIFY(!panel_->move_in_view());
  }

  void clicking_the_marker_gives_it_the_gizmo() {
    QVERIFY(gizmo_at(goal_position()));
    QVERIFY(!panel_->move_in_view());
    // The table lies behind the marker's centre, the marker in front: the click is the marker's.
    const QPoint centre = pixel_of(kPlaceAt);
    const auto table_at = ray_enters(ray_through(centre), document().scene().obstacle("table"));
    QVERIFY(table_at.has_value());
    QVERIFY(*table_at > distance_to(kPlaceAt));
    click_view(centre);
    QVERIFY(!QTest::currentTestFailed());
    QTRY_VERIFY(panel_->move_in_view());
    QVERIFY(panel_->move_in_view_button()->isChecked());
    QVERIFY(task_->place_target().has_gizmo());
    QVERIFY(gizmo_at(kPlaceAt));
    QCOMPARE(document().selected_object(), QString());  // not the table

    // The gizmo moves the place as the button's does.
    drag_arrow(GizmoHandle::TranslateY, -0.05);
    QVERIFY(!QTest::currentTestFailed());
    const double y = panel_->place_position_box(1)->value();
    QVERIFY2(std::abs(y - (kPlaceAt.y() - 0.05)) < 0.01, qPrintable(QString::number(y)));
    QVERIFY(
        near_point(marker()->pose.translation(), Vector3(kPlaceAt.x(), y, kPlaceAt.z()), 1e-12));
    QVERIFY(panel_->move_in_view());
  }

  void an_obstacle_in_front_of_the_marker_takes_the_click() {
    // The place straight behind the box's upper half, seen from the camera.
    const Obstacle& box = document().scene().obstacle("box");
    const Vector3 on_box = box.pose.translation() + Vector3(0, 0, 0.1);
    const Vector3 away = (on_box - view().camera().eye().cast<double>()).normalized();
    const Vector3 behind = on_box + away * ((kPlaceAt.z() - on_box.z()) / away.z());
    for (int axis = 0; axis < 2; ++axis) panel_->place_position_box(axis)->setValue(behind[axis]);
    const Vector3 place = marker()->pose.translation();
    QVERIFY(near_point(place, behind, 1e-3));  // the fields' precision
    const QPoint pixel = pixel_of(place);
    const auto box_at = ray_enters(ray_through(pixel), box);
    QVERIFY(box_at.has_value());
    QVERIFY(*box_at < distance_to(place) - 0.1);

    click_view(pixel);
    QVERIFY(!QTest::currentTestFailed());
    QTRY_COMPARE(document().selected_object(), QStringLiteral("box"));
    QVERIFY(!panel_->move_in_view());
    QVERIFY(!task_->place_target().has_gizmo());
  }

  void a_click_on_an_obstacle_takes_the_gizmo_back_and_empty_space_keeps_it() {
    const Vector3 box = document().scene().obstacle("box").pose.translation();
    const auto grab_marker = [this] {
      click_view(pixel_of(kPlaceAt));
      return !QTest::currentTestFailed() &&
             QTest::qWaitFor([this] { return panel_->move_in_view(); }) && gizmo_at(kPlaceAt);
    };
    // An obstacle selected: clicking the marker takes the gizmo and leaves the selection.
    document().set_selected_object(QStringLiteral("box"));
    QVERIFY(gizmo_at(box));
    QVERIFY(grab_marker());
    QCOMPARE(document().selected_object(), QStringLiteral("box"));

    // A click on an obstacle gives the gizmo to it, even on the one already selected.
    click_view(pixel_of(box));
    QVERIFY(!QTest::currentTestFailed());
    QTRY_VERIFY(!panel_->move_in_view());
    QVERIFY(!task_->place_target().has_gizmo());
    QCOMPARE(document().selected_object(), QStringLiteral("box"));
    QVERIFY(gizmo_at(box));

    // Empty space deselects, and the gizmo stays on the place.
    QVERIFY(grab_marker());
    click_view(QPointF(view().width() - 5, 5));
    QVERIFY(!QTest::currentTestFailed());
    QTRY_COMPARE(document().selected_object(), QString());
    QVERIFY(panel_->move_in_view());
    QVERIFY(task_->place_target().has_gizmo());
    QVERIFY(gizmo_at(kPlaceAt));
  }

  void moving_the_marker_leaves_the_document_unmodified() {
    // A saved session: nothing unsaved.
    QTemporaryDir dir;
    QAction* save =
        test::menu_action(*studio_->window, QStringLiteral("File"), QStringLiteral("Save session"));
    QVERIFY(save);
    {
      test::ModalAnswers answers(
          {test::choose_file(dir.filePath(QStringLiteral("marker.kinetic-session")))});
      save->trigger();
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    QVERIFY(!studio_->window->isWindowModified());
    int changes = 0;
    QObject context;
    on_session_content_changed(document(), &context, [&changes] { ++changes; });
    const int steps = document().undo_stack().count();

    QTest::mouseClick(panel_->move_in_view_button(), Qt::LeftButton);
    QVERIFY(gizmo_at(kPlaceAt));
    drag_arrow(GizmoHandle::TranslateY, -0.05);
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY2(std::abs(panel_->place_position_box(1)->value() - (kPlaceAt.y() - 0.05)) < 0.01,
             qPrintable(QString::number(panel_->place_position_box(1)->value())));
    QCOMPARE(panel_->place_position_box(0)->value(), kPlaceAt.x());

    QCOMPARE(changes, 0);
    QCOMPARE(document().undo_stack().count(), steps);
    QVERIFY(!studio_->window->isWindowModified());
    QVERIFY(near_point(document().scene().obstacle("part").pose.translation(),
                       Vector3(0.5, -0.35, 0.035), 1e-12));
  }

  // Last: the plan adds a trajectory and plays it.
  void dragging_writes_the_fields_and_the_plan_puts_the_part_there() {
    QTest::mouseClick(panel_->move_in_view_button(), Qt::LeftButton);
    QVERIFY(gizmo_at(kPlaceAt));
    drag_arrow(GizmoHandle::TranslateX, 0.05);
    QVERIFY(!QTest::currentTestFailed());
    const double x = panel_->place_position_box(0)->value();
    QVERIFY2(std::abs(x - (kPlaceAt.x() + 0.05)) < 0.01, qPrintable(QString::number(x)));
    QCOMPARE(panel_->place_position_box(1)->value(), kPlaceAt.y());
    QCOMPARE(panel_->place_position_box(2)->value(), kPlaceAt.z());
    QVERIFY(gizmo_at(Vector3(x, kPlaceAt.y(), kPlaceAt.z())));

    drag_yaw_ring(30.0);
    QVERIFY(!QTest::currentTestFailed());
    const double yaw = panel_->place_yaw_box()->value();
    QVERIFY2(std::abs(yaw - 30.0) < 2.0, qPrintable(QString::number(yaw)));
    QCOMPARE(panel_->place_position_box(0)->value(), x);  // turning leaves the position
    QVERIFY(marker()->pose.isApprox(panel_->request().place_pose, 1e-12));
    QVERIFY(test::wait_for_still_view(view()));
    save_window_screenshot(QStringLiteral("task_place_marker_drag.png"));

    // The next plan puts the part where the fields say.
    const Vector3 place(x, kPlaceAt.y(), kPlaceAt.z());
    panel_->gripper_combo()->setCurrentIndex(
        panel_->gripper_combo()->findData(int(GripperSpec::Kind::Suction)));
    panel_->touch_links_edit()->clear();  // the engine's default for the bare flange
    QSignalSpy finished(task_, &TaskFeature::taskFinished);
    QTest::mouseClick(panel_->plan_button(), Qt::LeftButton);
    QVERIFY(finished.wait(kMarkerPlanTimeoutMs));
    const auto outcome = finished.first().at(0).value<TaskOutcome>();
    QVERIFY2(outcome.ok, qPrintable(outcome.error + QStringLiteral(" / ") + outcome.hint));
    const NamedTrajectory& added = document().trajectories().back();
    QVERIFY(!added.scene_changes.empty());
    const PlanningScene& released = added.scene_changes.back().scene;
    QVERIFY(released.has_obstacle("part"));
    const Pose placed = released.obstacle("part").pose;
    QVERIFY(near_point(placed.translation(), place, 1e-6));
    // At the yaw dragged, or one of the place rotations as good (90° steps).
    QVERIFY2(std::abs(std::remainder(heading(placed) * kinetic::test::kDegreesPerRadian - yaw,
                                     90.0)) < 1e-6,
             qPrintable(QString::number(heading(placed) * kinetic::test::kDegreesPerRadian)));
  }

 private:
  StudioDocument& document() { return *studio_->document; }
  ViewportWindow& view() { return *studio_->viewport; }
  const std::optional<PlaceMarker>& marker() const { return task_->place_target().marker(); }

  void show_task_dock() {
    task_->dock()->show();
    task_->dock()->raise();
    QVERIFY(QTest::qWaitFor([this] { return panel_->isVisible() && marker().has_value(); }, 5000));
  }

  Vector3 goal_position() const {
    const auto pose = studio_->window->goal_controller()->shown_pose_world();
    return pose ? Vector3(pose->translation()) : Vector3::Constant(1e9);
  }

  // The gizmo is drawn at `position` (within a frame or a few).
  bool gizmo_at(const Vector3& position) {
    return QTest::qWaitFor(
        [&] {
          return view().gizmo() &&
                 near_point(view().gizmo()->pose.translation().cast<double>(), position, 1e-5);
        },
        5000);
  }

  // The pixel (logical) where a world point shows; (-1, -1) and a failure when it is behind.
  QPoint pixel_of(const Vector3& world) {
    const auto at = view().project(world);
    if (!at) QTest::qFail("the point is behind the camera", __FILE__, __LINE__);
    return at ? at->toPoint() : QPoint(-1, -1);
  }

  viewer::Ray ray_through(const QPoint& pixel) {
    return view().camera().ray_through_pixel(
        static_cast<float>(pixel.x()) + 0.5f, static_cast<float>(pixel.y()) + 0.5f,
        static_cast<float>(view().width()), static_cast<float>(view().height()));
  }

  float distance_to(const Vector3& world) {
    return (world.cast<float>() - view().camera().eye()).norm();
  }

  // A left click (press and release in place) on the view, off the gizmo's handles, once the
  // last change is drawn (clicks pick in the frame shown).
  void click_view(const QPointF& at) {
    QVERIFY(test::wait_for_still_view(view()));
    const QPoint pixel = at.toPoint();
    QVERIFY(QRect(QPoint(0, 0), view().size()).contains(pixel));
    QCOMPARE(test::gizmo_handle_at(view(), pixel), GizmoHandle::None);
    QTest::mouseClick(&view(), Qt::LeftButton, Qt::NoModifier, pixel);
  }

  // Presses on the gizmo at world point `from` (on `handle`), moves to `to` in ten steps, releases.
  void drag(const Vector3& from, const Vector3& to, GizmoHandle handle) {
    QVERIFY(test::wait_for_still_view(view()));
    const auto a = view().project(from), b = view().project(to);
    QVERIFY(a && b);
    const QPoint press = a->toPoint();
    QCOMPARE(test::gizmo_handle_at(view(), press), handle);
    test::drag_in_view(view(), press, QPointF(press) + (*b - *a));
  }

  // Drags an arrow of the gizmo by `metres` along its world axis.
  void drag_arrow(GizmoHandle handle, double metres) {
    const viewer::Gizmo gizmo = *view().gizmo();
    const double s =
        viewer::gizmo_scale(gizmo, view().camera(), static_cast<float>(view().height()));
    const Vector3 centre = gizmo.pose.translation().cast<double>();
    const Vector3 axis = viewer::gizmo_axis(gizmo, handle).cast<double>();
    drag(centre + axis * (0.6 * s), centre + axis * (0.6 * s + metres), handle);
  }

  // Drags the ring about Z from its -x -y side by `degrees` (counter-clockwise seen from above).
  void drag_yaw_ring(double degrees) {
    const viewer::Gizmo gizmo = *view().gizmo();
    const double r =
        0.72 * viewer::gizmo_scale(gizmo, view().camera(), static_cast<float>(view().height()));
    const Vector3 centre = gizmo.pose.translation().cast<double>();
    const auto on_ring = [&](double angle) {
      return Vector3(centre + r * Vector3(std::cos(angle / kinetic::test::kDegreesPerRadian),
                                          std::sin(angle / kinetic::test::kDegreesPerRadian), 0.0));
    };
    drag(on_ring(-135.0), on_ring(-135.0 + degrees), GizmoHandle::RotateZ);
  }

  // Types `text` into a spin box as a user does: select all, type, Enter.
  static void type_into(QDoubleSpinBox* spin, const QString& text) {
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Enter);
  }

  void save_window_screenshot(const QString& name) {
    QMainWindow& window = *studio_->window;
    const QString path = QCoreApplication::applicationDirPath() + QLatin1Char('/') + name;
    QVERIFY(window.screen()->grabWindow(window.winId()).save(path));
    qDebug("screenshot: %s", qPrintable(path));
  }

  std::unique_ptr<Studio> studio_;
  TaskFeature* task_ = nullptr;
  TaskPanel* panel_ = nullptr;
  QDockWidget* goal_dock_ = nullptr;
};

QTEST_MAIN(TaskPlaceMarkerWindowTest)
#include "task_place_marker_window_test.moc"
