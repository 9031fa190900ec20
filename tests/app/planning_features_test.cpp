// Qt Test: the planning features installed in a plain main window with a real document —
// Plan button to a playing trajectory, failures with their reasons, export / import round trip,
// rename / delete / duplicate (undoable), re-time, blend, validation, Space's toggle_play, the
// Planner panel's Cartesian settings in the plan, closed-form IK steps offered per robot, and the
// robot moved to a trajectory's end or playhead (Robot to end / Robot here).
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "app/session/new_session.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"
#include "ur5e_beside_box.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

using Fixture = test::Ur5eBesideBox;

// A one-second motion from a to b (at rest at both ends).
Trajectory two_samples(const std::string& robot, const std::vector<std::string>& joints,
                       const JointVector& a, const JointVector& b) {
  const JointVector rest = JointVector::Zero(a.size());
  return Trajectory(robot, joints, std::vector<PositionUnit>(joints.size(), PositionUnit::Radian),
                    {{0.0, a, rest, rest}, {1.0, b, rest, rest}});
}

}  // namespace

class PlanningFeaturesTest : public QObject {
  Q_OBJECT
 private slots:
  void installs_docks_parented_to_the_window() {
    Fixture f;
    QCOMPARE(f.features->parent(), &f.window);
    QVERIFY(f.window.findChild<QDockWidget*>(QStringLiteral("PlannerDock")));
    QVERIFY(f.window.findChild<QDockWidget*>(QStringLiteral("TrajectoriesDock")));
    QCOMPARE(f.window.findChild<PlanningFeatures*>(), f.features);
  }

  void plan_button_adds_and_plays_the_trajectory() {
    Fixture f;
    const PlanOutcome outcome = f.plan_to(test::ur5e_arm(1.2));
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
    QCOMPARE(f.document.trajectories()[0].name, QStringLiteral("plan 1 · RRT-Connect"));
    QVERIFY(f.features->trajectories().playback().playing());
    QVERIFY(f.document.playback_joints().has_value());
    QVERIFY(f.features->last_plan_to_playback_ms() > 0.0);
    QVERIFY(
        f.features->planner_panel()->result_label()->text().contains(QStringLiteral("waypoints")));
    QCOMPARE(f.features->trajectories().trajectory_panel()->current(), 0);
    // Space: pause and resume.
    f.features->trajectories().toggle_play();
    QVERIFY(!f.features->trajectories().playback().playing());
    f.features->trajectories().play_pause();
    QVERIFY(f.features->trajectories().playback().playing());
    // Start from the previous goal next time.
    f.features->planner_panel()->start_combo()->setCurrentIndex(3);
    const PlanOutcome back = f.plan_to(test::ur5e_arm(-1.2));
    QVERIFY2(back.ok, qPrintable(back.error));
    QVERIFY((back.start - test::ur5e_arm(1.2)).norm() < 1e-9);
  }

  void failure_names_links_and_offers_a_fix() {
    Fixture f;
    const PlanOutcome outcome = f.plan_to(test::ur5e_arm(0.0));
    QVERIFY(!outcome.ok);
    const QString text = f.features->planner_panel()->result_label()->text();
    QVERIFY2(text.contains(QStringLiteral("box1")) && text.contains(QStringLiteral("Try:")),
             qPrintable(text));
    QVERIFY(f.document.trajectories().empty());
  }

  // A failure says why the state it was planned from cannot be planned; after undoing into a free
  // pose it would be stale ("start state is in collision" stayed, in red): it gives way to a note.
  void a_failure_goes_once_the_state_it_describes_changes() {
    Fixture f;
    f.document.edit_joints(test::ur5e_arm(0.0));  // into the box
    const PlanOutcome outcome = f.plan_to(test::ur5e_arm(1.2));
    QVERIFY(!outcome.ok);
    panels::ResultLabel* result = f.features->planner_panel()->result_label();
    QVERIFY2(result->text().contains(QStringLiteral("Planning failed")) &&
                 result->text().contains(QStringLiteral("collision")),
             qPrintable(result->text()));
    f.document.undo_stack().undo();  // back beside the box: free
    QVERIFY2(!result->text().contains(QStringLiteral("Planning failed")) &&
                 !result->text().contains(QStringLiteral("in collision")),
             qPrintable(result->text()));
    QVERIFY(!f.features->planner_panel()->showing_failure());
  }

  // Plans are numbered on from the ones the work holds: after reopening a session with "plan 2",
  // the next is "plan 3" (it was a second "plan 1"); a new session starts at 1.
  void plans_are_numbered_on_from_those_the_session_holds() {
    Fixture f;
    f.document.start_new_work();  // as opening a session does, then its trajectories
    const Trajectory saved = two_samples("ur5e", f.document.robot()->variable_names(),
                                         test::ur5e_arm(-1.2), test::ur5e_arm(-1.0));
    f.document.set_trajectories({{QStringLiteral("plan 2 · RRT-Connect"), saved, {}}});
    const PlanOutcome outcome = f.plan_to(test::ur5e_arm(1.2));
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QCOMPARE(f.document.trajectories().back().name, QStringLiteral("plan 3 · RRT-Connect"));
    f.document.start_new_work();
    f.document.set_trajectories({});
    QVERIFY(f.plan_to(test::ur5e_arm(1.0)).ok);
    QCOMPARE(f.document.trajectories().back().name, QStringLiteral("plan 1 · RRT-Connect"));
  }

  void cartesian_settings_go_from_the_panel_into_the_plan() {
    Fixture f;
    f.document.set_scene(PlanningScene{});
    f.document.set_joints(test::ur5e_arm(0.0));
    panels::PlannerPanel* panel = f.features->planner_panel();
    panel->planner_combo()->setCurrentIndex(
        panel->planner_combo()->findData(QStringLiteral("cartesian")));
    GoalState goal;
    goal.tcp_pose = Planner(f.document.robot()).tcp_pose(test::ur5e_arm(0.0));
    goal.tcp_pose->translation().z() += 0.1;  // straight up 10 cm
    f.document.set_goal(goal);
    QCOMPARE(panel->goal_type(), panels::PlanGoalType::TcpPose);
    const auto plan = [&] {
      QSignalSpy done(f.features, &PlanningFeatures::planFinished);
      panel->plan_button()->click();
      return done.wait(30000) ? qvariant_cast<PlanOutcome>(done.first().at(0)) : PlanOutcome{};
    };
    // 1 cm steps: 10 of them, the whole line.
    panel->translation_step_box()->setValue(10.0);
    const PlanOutcome coarse = plan();
    QVERIFY2(coarse.ok && coarse.cartesian, qPrintable(coarse.error));
    QVERIFY(coarse.cartesian->complete());
    QCOMPARE(coarse.cartesian->path.size(), std::size_t(11));
    // 1 mm steps and a jump threshold the last steps' joint changes exceed: stopped part way.
    panel->translation_step_box()->setValue(1.0);
    panel->jump_threshold_box()->setValue(0.003);
    const PlanOutcome tight = plan();
    QVERIFY2(tight.ok && tight.cartesian, qPrintable(tight.error));
    QVERIFY2(tight.cartesian->fraction > 0.0 && tight.cartesian->fraction < 1.0,
             qPrintable(QString::number(tight.cartesian->fraction)));
    const QString text = panel->result_label()->text();
    QVERIFY2(
        text.contains(QStringLiteral("stopped")) && text.contains(QStringLiteral("would jump")),
        qPrintable(text));
  }

  void closed_form_ik_steps_are_offered_for_robots_that_have_them() {
    Fixture f;  // UR5e: the UR closed form
    panels::PlannerPanel* panel = f.features->planner_panel();
    panel->planner_combo()->setCurrentIndex(
        panel->planner_combo()->findData(QStringLiteral("cartesian")));
    QVERIFY(panel->closed_form_ik_box()->isEnabled());
    panel->closed_form_ik_box()->setChecked(true);
    QVERIFY(panel->cartesian_options().closed_form_ik);
    QVERIFY(f.document.load_robot(QStringLiteral("panda")).isEmpty());  // 7 DOF: numeric steps only
    QVERIFY(!panel->closed_form_ik_box()->isEnabled());
    QVERIFY(!panel->cartesian_options().closed_form_ik);
    QVERIFY(f.document.load_robot(QStringLiteral("irb2400")).isEmpty());  // OPW
    QVERIFY(panel->closed_form_ik_box()->isEnabled());
    QVERIFY(panel->cartesian_options().closed_form_ik);  // the choice is kept across robots
  }

  void export_import_round_trip_and_errors() {
    Fixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QTemporaryDir dir;
    for (const char* name : {"plan.json", "plan.csv"}) {
      const QString path = dir.filePath(QString::fromUtf8(name));
      const QString exported = f.features->trajectories().export_trajectory(0, path);
      QVERIFY2(exported.isEmpty(), qPrintable(exported));
      QVERIFY(f.features->trajectories().import_trajectory(path).isEmpty());
      QCOMPARE(f.document.trajectories().back().name, QStringLiteral("plan"));
      QVERIFY(f.document.trajectories().back().trajectory ==
              f.document.trajectories()[0].trajectory);
      f.document.set_trajectories({f.document.trajectories()[0]});
    }
    QFile bad(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{ not json");
    bad.close();
    const QString error = f.features->trajectories().import_trajectory(bad.fileName());
    QVERIFY(!error.isEmpty());
    QVERIFY(f.features->trajectories().trajectory_panel()->message_label()->text().contains(
        QStringLiteral("bad.json")));
    QVERIFY2(!error.contains(QStringLiteral("json.exception")),
             qPrintable(error));  // not nlohmann's tags
    // A number beyond a double: said plainly with the file's name, nothing imported.
    QByteArray overflow =
        QByteArray::fromStdString(trajectory_to_json(f.document.trajectories()[0].trajectory));
    overflow.replace("\"q\": [", "\"q\": [1e400, ");
    QFile huge(dir.filePath(QStringLiteral("huge.json")));
    QVERIFY(huge.open(QIODevice::WriteOnly));
    huge.write(overflow);
    huge.close();
    const QString overflow_error = f.features->trajectories().import_trajectory(huge.fileName());
    QVERIFY2(overflow_error.contains(QStringLiteral("number overflow parsing '1e400'")),
             qPrintable(overflow_error));
    QVERIFY2(!overflow_error.contains(QStringLiteral("json.exception")),
             qPrintable(overflow_error));
    QVERIFY(f.features->trajectories().trajectory_panel()->message_label()->text().contains(
        QStringLiteral("huge.json")));
    QCOMPARE(f.document.trajectories().size(), std::size_t{1});
    QVERIFY(!f.features->trajectories()
                 .export_trajectory(0, dir.filePath(QStringLiteral("plan.txt")))
                 .isEmpty());
  }

  void controller_exports_write_ros_yaml_and_urscript_and_refuse_to_import_them() {
    Fixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QTemporaryDir dir;
    const auto text_of = [](const QString& path) {
      QFile file(path);
      return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    };
    const QString yaml = dir.filePath(QStringLiteral("plan.yaml")),
                  script = dir.filePath(QStringLiteral("plan.script"));
    QVERIFY(f.features->trajectories().export_trajectory(0, yaml).isEmpty());
    QVERIFY(f.features->trajectories().trajectory_panel()->message_label()->text().contains(
        QStringLiteral("plan.yaml")));
    QVERIFY(
        text_of(yaml).startsWith(QStringLiteral("# trajectory_msgs/msg/JointTrajectory (ROS 2)")));
    QVERIFY(text_of(yaml).contains(QStringLiteral(
        "joint_names: ['joint1', 'joint2', 'joint3', 'joint4', 'joint5', 'joint6']")));
    QVERIFY(f.features->trajectories().export_trajectory(0, script).isEmpty());
    QVERIFY(text_of(script).contains(QStringLiteral("\ndef kinetic_trajectory():\n  textmsg(")));
    QVERIFY(text_of(script).contains(QStringLiteral("  servoj([")));
    // Export-only: importing one says to import the JSON, and adds nothing.
    const QString refused = f.features->trajectories().import_trajectory(yaml);
    QVERIFY2(refused.contains(QStringLiteral(".json")), qPrintable(refused));
    QCOMPARE(f.document.trajectories().size(), std::size_t{1});

    // The export dialog offers them, and a name typed without extension takes the chosen type's.
    QVERIFY(panels::export_file_filters().contains(QStringLiteral("(*.yaml)")));
    QVERIFY(panels::export_file_filters().contains(QStringLiteral("(*.script)")));
    QCOMPARE(
        panels::with_filter_extension(QStringLiteral("/tmp/pick"),
                                      QStringLiteral("URScript for Universal Robots (*.script)")),
        QStringLiteral("/tmp/pick.script"));
    QCOMPARE(panels::with_filter_extension(QStringLiteral("/tmp/pick.csv"),
                                           QStringLiteral("Trajectory JSON (*.json)")),
             QStringLiteral("/tmp/pick.csv"));
  }

  void urscript_export_of_a_panda_trajectory_says_why_not() {
    QMainWindow window;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    PlanningFeatures* features = install_planning_features(window, document);
    const RobotModel& model = *document.robot();
    const JointVector home = model.named_pose("home");
    JointVector other = home;
    other[0] += 0.3;
    GoalState goal;
    goal.joints = other;
    document.set_goal(goal);
    QSignalSpy done(features, &PlanningFeatures::planFinished);
    features->planner_panel()->plan_button()->click();
    QVERIFY(done.wait(30000));
    QVERIFY(qvariant_cast<PlanOutcome>(done.first().at(0)).ok);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("panda.script"));
    const QString error = features->trajectories().export_trajectory(0, path);
    QVERIFY2(error.contains(QStringLiteral("Universal Robots")), qPrintable(error));
    QVERIFY(features->trajectories().trajectory_panel()->message_label()->text().startsWith(
        QStringLiteral("Export failed")));
    QVERIFY(!QFile::exists(path));
    QVERIFY(features->trajectories()
                .export_trajectory(0, dir.filePath(QStringLiteral("panda.yaml")))
                .isEmpty());
  }

  void rename_duplicate_delete_are_undoable() {
    Fixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    panel->list()->item(0)->setText(QStringLiteral("around the box"));
    QCOMPARE(f.document.trajectories()[0].name, QStringLiteral("around the box"));
    emit panel->duplicateRequested(0);
    QCOMPARE(f.document.trajectories().size(), std::size_t(2));
    QCOMPARE(f.document.trajectories()[1].name, QStringLiteral("around the box copy"));
    emit panel->removeRequested({0, 1});
    QVERIFY(f.document.trajectories().empty());
    f.document.undo_stack().undo();
    QCOMPARE(f.document.trajectories().size(), std::size_t(2));
  }

  void retime_blend_and_validate() {
    Fixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    f.features->planner_panel()->start_combo()->setCurrentIndex(3);  // previous goal
    QVERIFY(f.plan_to(test::ur5e_arm(-1.2)).ok);
    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    panel->timing_combo()->setCurrentIndex(1);  // trapezoidal
    f.features->trajectories().retime(0);
    QVERIFY(tasks.wait(20000));
    QCOMPARE(tasks.last().at(1).toString(), QString());
    QCOMPARE(f.document.trajectories().size(), std::size_t(3));
    QVERIFY(f.document.trajectories()[2].name.endsWith(QStringLiteral("trapezoidal")));
    // Trapezoidal stops at every waypoint: not faster than time-optimal.
    QVERIFY(f.document.trajectories()[2].trajectory.duration() >=
            f.document.trajectories()[0].trajectory.duration() - 1e-6);

    f.features->trajectories().blend({0, 1});
    QVERIFY(tasks.wait(20000));
    QVERIFY2(tasks.last().at(1).toString().isEmpty(), qPrintable(tasks.last().at(1).toString()));
    QCOMPARE(f.document.trajectories().size(), std::size_t(4));
    const Trajectory& blended = f.document.trajectories()[3].trajectory;
    QVERIFY((blended.samples().back().position - test::ur5e_arm(-1.2)).norm() < 1e-6);

    f.features->trajectories().validate(3);
    QVERIFY(tasks.wait(20000));
    QCOMPARE(tasks.last().at(0).toString(), QStringLiteral("validate"));
    QVERIFY(panel->validation_list()->count() >= 1);
  }

  // RViz keeps one plan: with Replace last, a new plan takes the place of the one the last plan
  // added (one undo step) while it is unchanged; a renamed one is kept and the next plan is added.
  void replace_last_keeps_one_plan_until_the_user_keeps_it() {
    Fixture f;
    f.features->planner_panel()->replace_last_plan_box()->setChecked(true);
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QVERIFY(f.plan_to(test::ur5e_arm(1.0)).ok);
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
    QCOMPARE(f.document.trajectories()[0].name, QStringLiteral("plan 2 · RRT-Connect"));
    QCOMPARE(f.features->trajectories().trajectory_panel()->current(), 0);
    f.document.undo_stack().undo();  // the replacement, undone: the first plan is back
    QCOMPARE(f.document.trajectories()[0].name, QStringLiteral("plan 1 · RRT-Connect"));
    f.document.undo_stack().redo();
    f.features->trajectories().trajectory_panel()->list()->item(0)->setText(
        QStringLiteral("keep this one"));
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QCOMPARE(f.document.trajectories().size(), std::size_t(2));
    QCOMPARE(f.document.trajectories()[0].name, QStringLiteral("keep this one"));
    // Off (the default): every plan is kept.
    f.features->planner_panel()->replace_last_plan_box()->setChecked(false);
    QVERIFY(f.plan_to(test::ur5e_arm(1.0)).ok);
    QCOMPARE(f.document.trajectories().size(), std::size_t(3));
  }

  // A plan asked for by the work before a new session (or another session opened) is stopped and
  // never lands in the new work.
  void a_plan_of_the_work_before_a_new_session_is_not_added_to_it() {
    Fixture f;
    GoalState g;
    g.joints = test::ur5e_arm(1.2);
    f.document.set_goal(g);
    QSignalSpy done(f.features, &PlanningFeatures::planFinished);
    f.features->planner_panel()->plan_button()->click();
    kinetic::app::clear_to_new_session(f.document);  // before the queued plan's answer is delivered
    QVERIFY(done.wait(30000));
    QVERIFY(f.document.trajectories().empty());
    const QString text = f.features->planner_panel()->result_label()->text();
    QVERIFY2(
        text.contains(QStringLiteral("cancelled")) || text.contains(QStringLiteral("not added")),
        qPrintable(text));
    // The new work plans as usual.
    f.document.set_joints(test::ur5e_arm(-1.2));
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
  }

  // MoveIt's Execute: the robot itself (not the playback ghost) goes where the plan leaves it, so
  // the next plan starts there; or to the pose at the playhead. One undo step each.
  void the_robot_moves_to_a_trajectorys_end_or_playhead_and_back_with_undo() {
    Fixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    QVERIFY(panel->robot_to_end_button()->isEnabled());
    QVERIFY((f.document.joints() - test::ur5e_arm(-1.2)).norm() <
            1e-9);  // planning moved only the ghost
    panel->robot_to_end_button()->click();
    QVERIFY2((f.document.joints() - test::ur5e_arm(1.2)).norm() < 1e-9,
             qPrintable(panel->message_label()->text()));
    QVERIFY(panel->message_label()->text().contains(QStringLiteral("Undo")));
    f.document.undo_stack().undo();
    QVERIFY((f.document.joints() - test::ur5e_arm(-1.2)).norm() < 1e-9);

    const Trajectory& plan = f.document.trajectories()[0].trajectory;
    const double middle = plan.start_time() + 0.5 * plan.duration();
    f.features->trajectories().playback().seek(middle);
    panel->robot_here_button()->click();
    QVERIFY((f.document.joints() - plan.sample(middle).position).norm() < 1e-9);
    f.document.undo_stack().undo();
    QVERIFY((f.document.joints() - test::ur5e_arm(-1.2)).norm() < 1e-9);
  }

  // A pick and place changes the world as it goes: the robot goes with the scene of that moment
  // (the part held or placed), and one undo takes both back.
  void the_robot_takes_the_scene_of_that_moment_along() {
    Fixture f;
    const PlanningScene before = f.document.scene();
    PlanningScene placed = before;
    placed.add_obstacle("part", Shape::box(Vector3(0.05, 0.05, 0.05)),
                        Pose(Eigen::Translation3d(0.4, 0.3, 0.1)));
    const Trajectory motion = two_samples("ur5e", f.document.robot()->variable_names(),
                                          test::ur5e_arm(-1.2), test::ur5e_arm(-1.0));
    f.features->trajectories().show_and_play(
        f.document.add_trajectory(QStringLiteral("pick"), motion, {{0.0, before}, {0.5, placed}}));
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    panel->robot_to_end_button()->click();
    QVERIFY2((f.document.joints() - test::ur5e_arm(-1.0)).norm() < 1e-9,
             qPrintable(panel->message_label()->text()));
    QVERIFY(f.document.scene().has_obstacle("part"));
    QVERIFY(panel->message_label()->text().contains(QStringLiteral("scene")));
    f.document.undo_stack().undo();
    QVERIFY(!f.document.scene().has_obstacle("part"));
    QVERIFY((f.document.joints() - test::ur5e_arm(-1.2)).norm() < 1e-9);
  }

  // Trajectories stay when another robot is loaded. One that moves joints this robot does not have
  // is shown saying so (selecting it threw out of the slot and ended the studio), and the robot is
  // not moved to it, naming the joint.
  void a_trajectory_of_another_robot_does_not_move_this_one() {
    Fixture f;
    const Trajectory other =
        two_samples("panda", {"panda_joint1"}, JointVector::Zero(1), JointVector::Ones(1));
    f.features->trajectories().show_and_play(
        f.document.add_trajectory(QStringLiteral("panda move"), other));
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    QVERIFY2(panel->message_label()->text().contains(QStringLiteral("made for another robot")),
             qPrintable(panel->message_label()->text()));
    const int undo_steps = f.document.undo_stack().count();
    panel->robot_to_end_button()->click();
    QVERIFY((f.document.joints() - test::ur5e_arm(-1.2)).norm() < 1e-9);
    QVERIFY2(panel->message_label()->text().contains(QStringLiteral("panda_joint1")),
             qPrintable(panel->message_label()->text()));
    QCOMPARE(f.document.undo_stack().count(), undo_steps);
  }
};

QTEST_MAIN(PlanningFeaturesTest)
#include "planning_features_test.moc"
