// Qt Test on the real studio window (X / Xvfb, Vulkan on lavapipe) with the real engine: the Task
// panel picks the UR5e example's part off the table and places it beside the box
// (examples/jobs/pick_and_place_scene.json). The trajectory it adds carries its scene changes:
// playback shows the part held and put down, Apply is one undo step, a place inside the box is
// refused naming it, Cancel changes nothing, sessions keep the scene changes. One screenshot at
// mid-carry is written next to the test binary (task_mid_carry.png) to look at.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>

#include "app/planning/planning_features.hpp"
#include "app/session/session_file.hpp"
#include "app/task/task_feature.hpp"
#include "app/task/task_worker.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/scene/scene_file.hpp"
#include "panels/planner_panel.hpp"
#include "panels/task_panel.hpp"
#include "support/test_paths.hpp"
#include "window_test_support.hpp"

using namespace kinetic;
using namespace kinetic::app;
using kinetic::panels::TaskPanel;

namespace {

const Vector3 kPlace(0.45, 0.35, 0.035);
constexpr int kPlanTimeoutMs = 240000;  // a loaded 2-core machine

PlanningScene example_scene() {
  return load_scene(test::test_source_dir() + "/../examples/jobs/pick_and_place_scene.json");
}

std::string scene_json(const PlanningScene& scene) {
  return scene_to_json(scene);
}

bool near(const Vector3& a, const Vector3& b, double tolerance) {
  return (a - b).norm() <= tolerance;
}

// The same objects in the same places, up to rounding (rotations go through a quaternion in files).
bool same_world(const PlanningScene& a, const PlanningScene& b) {
  if (a.obstacles().size() != b.obstacles().size() ||
      a.attached_objects().size() != b.attached_objects().size() || a.overrides() != b.overrides())
    return false;
  for (std::size_t i = 0; i < a.obstacles().size(); ++i)
    if (a.obstacles()[i].name != b.obstacles()[i].name ||
        !a.obstacles()[i].pose.isApprox(b.obstacles()[i].pose, 1e-12))
      return false;
  for (std::size_t i = 0; i < a.attached_objects().size(); ++i) {
    const AttachedObject &x = a.attached_objects()[i], &y = b.attached_objects()[i];
    if (x.name != y.name || x.link != y.link || x.touch_links != y.touch_links ||
        !x.pose.isApprox(y.pose, 1e-12))
      return false;
  }
  return true;
}

int stage_index(const PickPlaceResult& result, TaskStage::Kind kind) {
  for (std::size_t i = 0; i < result.stages.size(); ++i)
    if (result.stages[i].kind == kind) return static_cast<int>(i);
  return -1;
}

}  // namespace

class TaskPanelWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    qputenv("KINETIC_NO_RECOVERY", "1");
    studio_ = test::open_studio_window();
    QVERIFY2(studio_, "the studio window with its Vulkan view did not open");
    task_ = studio_->window->task();
    QVERIFY(task_);
    panel_ = task_->panel();
    planning_ = studio_->window->planning_features();
    task_->dock()->raise();
    QVERIFY(QTest::qWaitFor([this] { return panel_->isVisible(); }, 5000));
    // Reproducible plans: the Planner panel's seed applies to the task's free-space moves.
    planning_->planner_panel()->seed_edit()->setText(QStringLiteral("7"));
  }

  void init() {
    // Only when it differs: an edit of the scene makes a plan stale (Apply goes off), and every
    // test replanning would take minutes.
    if (scene_json(document().scene()) != scene_json(example_scene()))
      document().set_scene(example_scene());
    document().set_joints(document().robot()->named_pose("home"));
    document().set_selected_object({});
    document().undo_stack().clear();
  }

  void cleanupTestCase() {
    task_ = nullptr;
    studio_.reset();
  }

  void the_dock_sits_with_teleop_and_the_view_menu_toggles_it() {
    QDockWidget* dock = task_->dock();
    QCOMPARE(dock->objectName(), QStringLiteral("TaskDock"));
    QCOMPARE(dock->windowTitle(), QStringLiteral("Task"));
    QCOMPARE(studio_->window->dockWidgetArea(dock), Qt::RightDockWidgetArea);
    QVERIFY(studio_->window->tabifiedDockWidgets(dock).contains(studio_->window->teleop().dock));
    QVERIFY(studio_->window->view_menu()->actions().contains(dock->toggleViewAction()));
  }

  void nothing_to_pick_disables_everything_with_the_reason() {
    // The example's three obstacles are all primitives: each can be chosen.
    QCOMPARE(panel_->object_combo()->count(), 3);
    QVERIFY(panel_->plan_button()->isEnabled());
    QVERIFY(!panel_->reason_label()->isVisible());

    document().set_scene(PlanningScene());
    QCOMPARE(panel_->object_combo()->count(), 0);
    QVERIFY(!panel_->plan_button()->isEnabled());
    QVERIFY(!panel_->object_combo()->isEnabled() && !panel_->from_object_button()->isEnabled());
    QVERIFY(panel_->reason_label()->isVisible());
    QVERIFY2(panel_->reason_label()->text().contains(QStringLiteral("box, cylinder or sphere")),
             qPrintable(panel_->reason_label()->text()));
    QCOMPARE(panel_->plan_button()->toolTip(), panel_->reason_label()->text());

    // A mesh cannot be grasped: still nothing to pick.
    PlanningScene only_ground;
    only_ground.add_obstacle("ground", Shape::half_space(Vector3::UnitZ(), -0.1), Pose::Identity());
    document().set_scene(only_ground);
    QVERIFY(!panel_->plan_button()->isEnabled());

    // Without a robot the panel says so first.
    TaskPanel bare;
    bare.set_objects({{QStringLiteral("part"), {}, Pose::Identity()}});
    QVERIFY(!bare.plan_button()->isEnabled());
    QVERIFY(bare.reason_label()->text().contains(QStringLiteral("Load a robot")));
    bare.set_robot_available(true);
    QVERIFY(bare.plan_button()->isEnabled());
  }

  void the_object_follows_the_selection_and_the_place_starts_at_it() {
    document().set_selected_object(QStringLiteral("box"));
    QCOMPARE(panel_->object(), QStringLiteral("box"));
    document().set_selected_object(QStringLiteral("part"));
    QCOMPARE(panel_->object(), QStringLiteral("part"));
    // Until edited, the place is where the object stands: the user edits only what changes.
    QCOMPARE(panel_->place_position_box(0)->value(), 0.5);
    QCOMPARE(panel_->place_position_box(1)->value(), -0.35);
    QCOMPARE(panel_->place_position_box(2)->value(), 0.035);
    QCOMPARE(panel_->place_yaw_box()->value(), 0.0);
    panel_->place_position_box(0)->setValue(0.1);
    QTest::mouseClick(panel_->from_object_button(), Qt::LeftButton);
    QCOMPARE(panel_->place_position_box(0)->value(), 0.5);
    // The defaults come from the engine's request; millimetres in the panel.
    QCOMPARE(panel_->opening_box()->value(), PickPlaceRequest{}.gripper.max_opening * 1000.0);
    QCOMPARE(panel_->approach_box()->value(), PickPlaceRequest{}.approach_distance * 1000.0);
    QCOMPARE(panel_->place_rotations_box()->value(), PickPlaceRequest{}.place_yaw_steps);
    // The engine's default for the bare flange: link6 moves with it, link5's housing ends in its
    // face.
    QCOMPARE(panel_->touch_links_edit()->placeholderText(),
             QStringLiteral("default: link6, link5"));
    panel_->touch_links_edit()->setText(QStringLiteral(" link6,link5  link4"));
    const PickPlaceRequest request = panel_->request();
    QVERIFY(request.touch_links.has_value());
    QCOMPARE(*request.touch_links, (std::vector<std::string>{"link6", "link5", "link4"}));
    panel_->touch_links_edit()->clear();  // left out: the engine's default
    QVERIFY(!panel_->request().touch_links.has_value());
    QCOMPARE(request.object, std::string("part"));
    QVERIFY(near(request.place_pose.translation(), Vector3(0.5, -0.35, 0.035), 1e-12));
    // Selecting something that cannot be grasped (nothing) leaves the choice.
    document().set_selected_object({});
    QCOMPARE(panel_->object(), QStringLiteral("part"));
  }

  void plan_adds_the_task_with_its_scene_changes() {
    const std::size_t before = document().trajectories().size();
    QSignalSpy checks(&planning_->trajectories(), &TrajectoryFeatures::taskFinished);
    QVERIFY(plan_to(kPlace));
    QVERIFY2(outcome_.ok, qPrintable(outcome_.error + QStringLiteral(" / ") + outcome_.hint));
    const auto& list = document().trajectories();
    QCOMPARE(list.size(), before + 1);
    const NamedTrajectory& added = list.back();
    QCOMPARE(added.name, QStringLiteral("Pick part"));
    QCOMPARE(document().shown_trajectory(), static_cast<int>(list.size()) - 1);
    QVERIFY(added.trajectory == outcome_.timed.trajectory);

    // The world along it: as planned from the start, the part held from the grasp, put down at the
    // release.
    QCOMPARE(added.scene_changes.size(), std::size_t{3});
    const int grasp = stage_index(outcome_.result, TaskStage::Kind::Grasp);
    const int release = stage_index(outcome_.result, TaskStage::Kind::Release);
    QVERIFY(grasp >= 0 && release > grasp);
    QCOMPARE(added.scene_changes[0].time, added.trajectory.start_time());
    QCOMPARE(scene_json(added.scene_changes[0].scene), scene_json(example_scene()));
    QCOMPARE(added.scene_changes[1].time,
             outcome_.timed.stage_start[static_cast<std::size_t>(grasp)]);
    QCOMPARE(added.scene_changes[2].time,
             outcome_.timed.stage_start[static_cast<std::size_t>(release)]);
    const PlanningScene& held = added.scene_changes[1].scene;
    QVERIFY(held.has_attached("part") && !held.has_obstacle("part"));
    QCOMPARE(held.attached("part").link, std::string("tool0"));
    const PlanningScene& released = added.scene_changes[2].scene;
    QVERIFY(released.has_obstacle("part") && !released.has_attached("part"));
    QVERIFY(near(released.obstacle("part").pose.translation(), kPlace, 1e-6));

    // The panel: the stages with their durations, the outcome in words, Apply offered.
    QCOMPARE(panel_->stage_table()->rowCount(), 8);
    QVERIFY(panel_->stage_table()->item(0, 0)->text().startsWith(QStringLiteral("1. ")));
    QVERIFY(panel_->stage_table()->item(2, 0)->text().contains(QStringLiteral("grasp")));
    QVERIFY2(panel_->status_label()->text().contains(QStringLiteral("Picked 'part'")),
             qPrintable(panel_->status_label()->text()));
    QVERIFY(panel_->status_label()->text().contains(QStringLiteral("seed 7")));
    QVERIFY(panel_->apply_button()->isEnabled());
    QVERIFY(panel_->plan_button()->isEnabled() && !panel_->cancel_button()->isEnabled());

    // It arrives validated, as a plan does: each stretch in the scene in force then.
    const auto validated = [&] {
      for (const QList<QVariant>& args : checks)
        if (args.at(0).toString() == QStringLiteral("validate")) return true;
      return false;
    };
    QVERIFY(QTest::qWaitFor(validated, 60000));
    const ValidationStatus status =
        planning_->trajectories().validation_status(static_cast<int>(list.size()) - 1);
    QVERIFY(status.report);
    QVERIFY2(status.report->ok(), status.report->summary().c_str());
  }

  void playback_shows_the_part_carried_and_put_down() {
    QVERIFY(ensure_planned());
    PlaybackController& playback = planning_->trajectories().playback();
    playback.pause();
    const auto& starts = outcome_.timed.stage_start;
    const int transfer = stage_index(outcome_.result, TaskStage::Kind::Transfer);
    QVERIFY(transfer >= 0 && transfer + 1 < static_cast<int>(starts.size()));
    const double mid_carry = 0.5 * (starts[static_cast<std::size_t>(transfer)] +
                                    starts[static_cast<std::size_t>(transfer) + 1]);

    playback.seek(mid_carry);
    QVERIFY(document().playback_scene().has_value());
    QVERIFY(document().playback_scene()->has_attached("part"));
    // The document's own scene is untouched: the part still stands where it was.
    QVERIFY(near(document().scene().obstacle("part").pose.translation(), Vector3(0.5, -0.35, 0.035),
                 1e-12));

    // Drawn where the ghost's flange carries it, not at the robot's (which stands at home).
    const AttachedObject& part = document().playback_scene()->attached("part");
    const ForwardKinematics fk(*document().robot());
    const Vector3 carried =
        (fk.link_pose(*document().playback_joints(), document().robot()->link_index("tool0")) *
         part.pose)
            .translation();
    QVERIFY(test::wait_for_still_view(*studio_->viewport));
    const QImage held = test::grab_viewport(*studio_->viewport);
    const QString shot =
        QCoreApplication::applicationDirPath() + QStringLiteral("/task_mid_carry.png");
    QVERIFY(held.save(shot));
    qDebug("mid-carry screenshot: %s (part at %.3f %.3f %.3f)", qPrintable(shot), carried.x(),
           carried.y(), carried.z());

    // Without the playback scene the same frame has no part there.
    document().set_playback_scene(std::nullopt);
    QVERIFY(test::wait_for_still_view(*studio_->viewport));
    const QImage bare = test::grab_viewport(*studio_->viewport);
    const auto at = studio_->viewport->project(carried);
    QVERIFY(at.has_value());

    const qreal scale = studio_->viewport->devicePixelRatio();
    const QRect around(static_cast<int>(at->x() * scale) - 6, static_cast<int>(at->y() * scale) - 6,
                       13, 13);
    QVERIFY(held.rect().contains(around));
    QVERIFY2(test::differing_pixels(held.copy(around), bare.copy(around)) > 40,
             "the held part is not drawn at the ghost's flange");

    playback.seek(outcome_.timed.trajectory.end_time());
    QVERIFY(document().playback_scene().has_value());
    QVERIFY(document().playback_scene()->has_obstacle("part"));
    QVERIFY(near(document().playback_scene()->obstacle("part").pose.translation(), kPlace, 1e-6));
    playback.seek(0.0);
    QVERIFY(near(document().playback_scene()->obstacle("part").pose.translation(),
                 Vector3(0.5, -0.35, 0.035), 1e-12));

    playback.stop();
    QVERIFY(!document().playback_scene().has_value());
    QVERIFY(!document().playback_joints().has_value());
  }

  void apply_is_one_undo_step() {
    QVERIFY(ensure_planned());
    const std::string scene_before = scene_json(document().scene());
    const JointVector joints_before = document().joints();
    const int steps = document().undo_stack().count();
    QVERIFY(panel_->apply_button()->isEnabled());
    QTest::mouseClick(panel_->apply_button(), Qt::LeftButton);

    const Trajectory& trajectory = document().trajectories().back().trajectory;
    QCOMPARE(trajectory.joint_names(),
             document().robot()->variable_names());  // model order on the UR5e
    const JointVector end = trajectory.samples().back().position;
    const auto check_applied = [&] {
      QVERIFY(document().scene().has_obstacle("part"));
      QVERIFY(near(document().scene().obstacle("part").pose.translation(), kPlace, 1e-6));
      QCOMPARE(document().joints(), end);
    };
    check_applied();
    QCOMPARE(document().undo_stack().count(), steps + 1);
    QCOMPARE(document().undo_stack().text(steps), QStringLiteral("Pick and place part"));
    QVERIFY(!panel_->apply_button()->isEnabled());  // once

    document().undo_stack().undo();
    QCOMPARE(scene_json(document().scene()), scene_before);
    QCOMPARE(document().joints(), joints_before);
    document().undo_stack().redo();
    check_applied();
  }

  void a_place_inside_the_box_is_refused_naming_it() {
    const std::size_t trajectories = document().trajectories().size();
    QVERIFY(plan_to(Vector3(0.5, 0.0, 0.15)));
    QVERIFY(!outcome_.ok);
    const QString status = panel_->status_label()->text();
    QVERIFY2(status.contains(QStringLiteral("Planning failed")) &&
                 status.contains(QStringLiteral("box")),
             qPrintable(status));
    QVERIFY2(status.contains(outcome_.error.toHtmlEscaped()), qPrintable(status));
    QCOMPARE(document().trajectories().size(), trajectories);
    QCOMPARE(panel_->stage_table()->rowCount(), 0);
    QVERIFY(!panel_->apply_button()->isEnabled());
  }

  // A failure describes the setup and state it was planned from: once the setup changes (the
  // place turned) it gives way to a note, as the Planner panel's does.
  void a_failure_goes_once_what_it_describes_changes() {
    QVERIFY(plan_to(Vector3(0.5, 0.0, 0.15)));
    QVERIFY(!outcome_.ok);
    QVERIFY(panel_->showing_failure());
    panel_->place_yaw_box()->setValue(panel_->place_yaw_box()->value() + 15.0);
    QVERIFY(!panel_->showing_failure());
    QVERIFY2(!panel_->status_label()->text().contains(QStringLiteral("Planning failed")),
             qPrintable(panel_->status_label()->text()));
  }

  // A pick plans in milliseconds, faster than a click on Cancel: here it cannot succeed. The arm
  // starts straight up ("home") inside a collar round its elbow, so every move to a pre-grasp
  // plans its whole budget (the grasps themselves are reachable: the collar is far above them).
  // The collar is centred on the elbow housing, which spans y from -0.183 to 0.038 m at home
  // (the upper arm sits 0.138 m to the side of the base by the shoulder offset).
  void cancel_leaves_the_document_untouched() {
    PlanningScene scene = example_scene();
    const double half_x = 0.10, half_y = 0.14, centre_y = -0.0725, wall = 0.02, height = 0.3,
                 z = 0.6;
    scene.add_obstacle("collar_front", Shape::box(Vector3(wall, 2 * half_y, height)),
                       Pose(Eigen::Translation3d(half_x + wall / 2, centre_y, z)));
    scene.add_obstacle("collar_back", Shape::box(Vector3(wall, 2 * half_y, height)),
                       Pose(Eigen::Translation3d(-half_x - wall / 2, centre_y, z)));
    scene.add_obstacle("collar_left", Shape::box(Vector3(2 * half_x + 2 * wall, wall, height)),
                       Pose(Eigen::Translation3d(0.0, centre_y + half_y + wall / 2, z)));
    scene.add_obstacle("collar_right", Shape::box(Vector3(2 * half_x + 2 * wall, wall, height)),
                       Pose(Eigen::Translation3d(0.0, centre_y - half_y - wall / 2, z)));
    document().set_scene(scene);
    document().undo_stack().clear();
    auto* planner_panel = planning_->planner_panel();
    const double timeout = planner_panel->timeout_box()->value();
    const int iterations = planner_panel->iterations_box()->value();
    planner_panel->timeout_box()->setValue(2000.0);
    planner_panel->iterations_box()->setValue(1000000000);

    // The task as set up (sessions keep the Task panel's setup): what must come through a cancel.
    select_and_place(kPlace);
    const std::string session_before = session_to_json(document());
    const int steps = document().undo_stack().count();
    QSignalSpy finished(task_, &TaskFeature::taskFinished);
    QTest::mouseClick(panel_->plan_button(), Qt::LeftButton);
    QVERIFY(!panel_->plan_button()->isEnabled() && panel_->cancel_button()->isEnabled());
    QTest::mouseClick(panel_->cancel_button(), Qt::LeftButton);
    QVERIFY(finished.wait(kPlanTimeoutMs));
    const auto outcome = finished.first().at(0).value<TaskOutcome>();
    QVERIFY2(outcome.error_code == ErrorCode::Cancelled, qPrintable(outcome.error));
    QVERIFY2(panel_->status_label()->text().contains(QStringLiteral("cancelled")),
             qPrintable(panel_->status_label()->text()));
    QCOMPARE(session_to_json(document()), session_before);
    QCOMPARE(document().undo_stack().count(), steps);
    QVERIFY(panel_->plan_button()->isEnabled());
    planner_panel->timeout_box()->setValue(timeout);
    planner_panel->iterations_box()->setValue(iterations);
  }

  // The straight stages move as the Planner panel's Cartesian group says (step sizes, jump
  // threshold, closed-form IK on the UR5e), but always check collisions with no margin: its
  // Avoid collisions and margin are for free-standing lines.
  void the_straight_stages_take_the_planner_panels_cartesian_line() {
    panels::PlannerPanel& planner = *planning_->planner_panel();
    const CartesianOptions before = planner.cartesian_options();
    const auto restore = qScopeGuard([&] { planner.set_cartesian_options(before); });
    planner.translation_step_box()->setValue(10.0);  // mm: the default is 1
    planner.closed_form_ik_box()->setChecked(true);
    // Not the task's (the engine would refuse the first; with the second the flange could not
    // reach the part).
    planner.avoid_collisions_box()->setChecked(false);
    planner.cartesian_margin_box()->setValue(50.0);  // mm
    QVERIFY(plan_to(kPlace));
    QVERIFY2(outcome_.ok, qPrintable(outcome_.error + QStringLiteral(" / ") + outcome_.hint));
    const ForwardKinematics fk(*document().robot());
    const int flange = document().robot()->link_index("tool0");
    const auto tcp = [&](const JointVector& q) -> Vector3 {
      return fk.link_pose(q, flange).translation();
    };
    for (const TaskStage& stage : outcome_.result.stages) {
      if (stage.kind != TaskStage::Kind::Approach && stage.kind != TaskStage::Kind::Lift &&
          stage.kind != TaskStage::Kind::Place && stage.kind != TaskStage::Kind::Retreat)
        continue;
      // 0.1 m in 10 mm steps, both ends.
      QVERIFY2(stage.path.size() <= 12,
               qPrintable(QString::fromStdString(stage.name) +
                          QStringLiteral(": %1 waypoints").arg(stage.path.size())));
      // Closed-form steps put the TCP exactly on the line.
      const Vector3 a = tcp(stage.path.front()), b = tcp(stage.path.back());
      const Vector3 along = (b - a).normalized();
      for (const JointVector& q : stage.path) {
        const Vector3 v = tcp(q) - a;
        QVERIFY2((v - v.dot(along) * along).norm() < 1e-9, stage.name.c_str());
      }
    }
    // A jump threshold no 10 mm step keeps: every straight line stops at once, and the engine
    // says why with the panel's threshold.
    planner.jump_threshold_box()->setValue(0.002);
    QVERIFY(plan_to(kPlace));
    QVERIFY(!outcome_.ok);
    QVERIFY2(outcome_.error.contains(QStringLiteral("(threshold 0.002 rad)")),
             qPrintable(outcome_.error));
  }

  void a_session_keeps_the_scene_changes() {
    QVERIFY(ensure_planned());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("task.kinetic-session"));
    QVERIFY(save_session(document(), path).isEmpty());
    StudioDocument restored;
    const SessionLoadResult result = load_session(restored, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    const auto& saved = document().trajectories();
    QCOMPARE(restored.trajectories().size(), saved.size());
    const auto& changes = restored.trajectories().back().scene_changes;
    QCOMPARE(changes.size(), std::size_t{3});
    QCOMPARE(changes.size(), saved.back().scene_changes.size());
    for (std::size_t i = 0; i < changes.size(); ++i) {
      QCOMPARE(changes[i].time,
               saved.back().scene_changes[i].time);  // bit-exact (shortest round-trip doubles)
      QVERIFY(same_world(changes[i].scene, saved.back().scene_changes[i].scene));
    }
    QVERIFY(changes[1].scene.has_attached("part"));
  }

 private:
  StudioDocument& document() { return *studio_->document; }

  void select_and_place(const Vector3& place) {
    document().set_selected_object(QStringLiteral("part"));
    for (int axis = 0; axis < 3; ++axis) panel_->place_position_box(axis)->setValue(place[axis]);
    panel_->place_yaw_box()->setValue(0.0);
    // The built-in UR5e has no hand: a suction cup on its flange holds the part on its surface,
    // and the default touch links (link6, link5) are the bodies that end there.
    panel_->gripper_combo()->setCurrentIndex(
        panel_->gripper_combo()->findData(int(GripperSpec::Kind::Suction)));
    panel_->touch_links_edit()->clear();  // the engine's default
  }

  // Plans with the Plan button and waits for the answer (kept in outcome_).
  bool plan_to(const Vector3& place) {
    select_and_place(place);
    QSignalSpy finished(task_, &TaskFeature::taskFinished);
    if (!panel_->plan_button()->isEnabled()) return false;
    QTest::mouseClick(panel_->plan_button(), Qt::LeftButton);
    if (panel_->plan_button()->isEnabled()) return false;  // disabled while planning
    if (!finished.wait(kPlanTimeoutMs)) return false;
    outcome_ = finished.first().at(0).value<TaskOutcome>();
    planned_ = outcome_.ok && place == kPlace;
    return true;
  }

  // The example's task planned, added and not yet applied (for a test run on its own).
  bool ensure_planned() {
    if (planned_ && !document().trajectories().empty() &&
        document().trajectories().back().name.startsWith("Pick part") &&
        panel_->apply_button()->isEnabled())
      return true;
    return plan_to(kPlace) && outcome_.ok;
  }

  std::unique_ptr<Studio> studio_;
  TaskFeature* task_ = nullptr;
  TaskPanel* panel_ = nullptr;
  PlanningFeatures* planning_ = nullptr;
  TaskOutcome outcome_;
  bool planned_ = false;
};

QTEST_MAIN(TaskPanelWindowTest)
#include "task_panel_window_test.moc"
