// Qt Test (offscreen): the Teleop panel's Follow goal input in the real studio (create_studio)
// with the real engine's servo loop on the built-in UR5e. The goal is moved the way the 3D view's
// gizmo moves it (GoalController::move_goal_world: world frame, IK in the background) and the arm
// tracks it: it converges and says so, follows the goal again when it moves, halts before an
// obstacle the goal lies in, converges in the world frame on a mounted and turned robot, stops when
// the input changes, teleoperation is disabled, the goal is lost, the robot changes or the GUI
// stalls, waits when there is no goal; the speed slider caps it, recording and the one undo step
// per session work as for the other inputs. The machine may be a loaded 2-core VM: speeds are
// checked against speed × time with broad tolerances, convergence with generous timeouts.
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cmath>
#include <memory>
#include <numbers>
#include <thread>

#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/planning/planning_features.hpp"
#include "app/servo/teleop_controller.hpp"
#include "app/studio_window_factory.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/model/robot_loader.hpp"
#include "panels/servo_panel.hpp"
#include "real_time_checks.hpp"
#include "support/units.hpp"
#include "teleop_studio.hpp"

using namespace kinetic;
using kinetic::app::Studio;
using kinetic::app::TcpKinematics;
using kinetic::app::TeleopController;
using kinetic::panels::ServoPanel;
using kinetic::panels::TeleopSource;

namespace {

using kinetic::test::kDegree;
using kinetic::test::kMillimetre;
constexpr int kConvergeMs = 15000;  // a loaded machine; the motions take about a second

using kinetic::test::rotation_between;

// `pose` moved by `offset` (world) and turned by `angle` about `axis` (world, about its own
// origin).
Pose moved(const Pose& pose, const Vector3& offset, double angle = 0.0,
           const Vector3& axis = Vector3::UnitZ()) {
  Pose result = pose;
  result.translation() += offset;
  result.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix() * pose.linear();
  return result;
}

QString pose_error(const Pose& tcp, const Pose& goal) {
  return QStringLiteral("%1 mm, %2° off")
      .arg((tcp.translation() - goal.translation()).norm() / kMillimetre)
      .arg(rotation_between(tcp, goal) / kDegree);
}

}  // namespace

class TeleopFollowGoalTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void init() {
    studio_ = test::open_teleop_studio();
    QVERIFY(studio_);
    panel_ = studio_->window->teleop().panel;
    controller_ = studio_->window->teleop().controller;
    QVERIFY(studio_->document->goal().empty());
    stalls_ = std::make_unique<test::StallWatch>();
  }

  void cleanup() {
    if (controller_) controller_->disable();
    studio_.reset();
    stalls_.reset();
  }

  void goal_input_is_offered_and_shows_the_distance_to_the_goal() {
    QComboBox* source = panel_->source_combo();
    QVERIFY(source->findData(int(TeleopSource::Goal)) >= 0);
    QVERIFY(!panel_->goal_distance_label()->isVisible());
    choose_goal_input();
    QCOMPARE(controller_->source(), TeleopSource::Goal);
    // The goal sets the whole pose: mode and frame do not apply, the jog buttons are off.
    QVERIFY(!panel_->mode_combo()->isEnabled());
    QVERIFY(!panel_->frame_combo()->isEnabled());
    QVERIFY(!panel_->jog_pad()->isEnabled());
    QVERIFY(panel_->goal_distance_label()->isVisible());
    QVERIFY2(panel_->goal_distance_label()->text().startsWith(QStringLiteral("No goal yet")),
             qPrintable(panel_->goal_distance_label()->text()));
    // 3 cm, 4 cm and 12 cm away (13 cm) and turned by 20°: the line says so, before enabling too.
    move_goal(moved(tcp(), Vector3(0.03, -0.04, 0.12), 20.0 * kDegree, Vector3(1.0, 1.0, 0.0)));
    QCOMPARE(panel_->goal_distance_label()->text(), QStringLiteral("To the goal: 130.0 mm, 20.0°"));
    // Back to the buttons: the line goes, mode and frame come back.
    source->setCurrentIndex(source->findData(int(TeleopSource::OnScreen)));
    QVERIFY(!panel_->goal_distance_label()->isVisible());
    QVERIFY(panel_->mode_combo()->isEnabled() && panel_->frame_combo()->isEnabled());
  }

  void goal_input_converges_on_the_goal_and_says_reached() {
    const Pose goal =
        moved(tcp(), Vector3(0.03, -0.02, 0.04), 10.0 * kDegree, Vector3(1.0, 1.0, 0.0));
    move_goal(goal);
    choose_goal_input();
    enable();
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(),
             qPrintable(panel_->status_label()->text() + " / " + pose_error(tcp(), goal)));
    QVERIFY2((tcp().translation() - goal.translation()).norm() < kMillimetre,
             qPrintable(pose_error(tcp(), goal)));
    QVERIFY2(rotation_between(tcp(), goal) < kDegree, qPrintable(pose_error(tcp(), goal)));
    QCOMPARE(controller_->servo_status(), ServoStatus::TargetReached);
    // (Reached is within a tenth of a millimetre and a milliradian.)
    const QString distance = panel_->goal_distance_label()->text();
    QVERIFY2(QRegularExpression(QStringLiteral("^To the goal: 0\\.[01] mm, 0\\.0°$"))
                 .match(distance)
                 .hasMatch(),
             qPrintable(distance));
    // At the goal it stays there, still tracking it: the goal is re-sent every frame, so the
    // loop's command timeout (100 ms) does not take over.
    const JointVector there = joints();
    QTest::qWait(300);
    QCOMPARE(joints(), there);
    QCOMPARE(controller_->servo_status(), ServoStatus::TargetReached);
    QVERIFY2(panel_->status_label()->text().startsWith(QStringLiteral("Goal reached")),
             qPrintable(panel_->status_label()->text()));
  }

  void goal_input_follows_the_goal_again_when_it_moves() {
    move_goal(moved(tcp(), Vector3(0.0, 0.03, 0.03)));
    choose_goal_input();
    enable();
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
    const JointVector first = joints();
    // Dragged on: 5 cm back and 30° about the vertical.
    const Pose second = moved(tcp(), Vector3(-0.05, 0.0, -0.02), 30.0 * kDegree);
    move_goal(second);
    QVERIFY2(
        QTest::qWaitFor(
            [this] { return controller_->servo_status() != ServoStatus::TargetReached; }, 2000),
        "the arm did not set off for the moved goal");
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(),
             qPrintable(panel_->status_label()->text() + " / " + pose_error(tcp(), second)));
    QVERIFY((joints() - first).norm() > 0.05);
    QVERIFY2((tcp().translation() - second.translation()).norm() < kMillimetre,
             qPrintable(pose_error(tcp(), second)));
    QVERIFY2(rotation_between(tcp(), second) < kDegree, qPrintable(pose_error(tcp(), second)));
  }

  void goal_input_halts_before_a_goal_inside_an_obstacle() {
    // A wall 15 cm beside the TCP (the arm reaches out along -x in "ready"), the goal inside it:
    // the arm sets off, slows down and halts before touching it, and says what stopped it.
    const Pose start = tcp();
    const Pose goal = moved(start, Vector3(0.0, -0.15, 0.0));
    PlanningScene scene = studio_->document->scene();
    Pose block = Pose::Identity();
    block.translation() = goal.translation();
    scene.add_obstacle("block", Shape::box(Vector3(0.3, 0.08, 0.3)), block);
    studio_->document->edit_scene(scene, QStringLiteral("Add block"));
    CollisionChecker checker(studio_->document->robot());
    checker.set_scene(studio_->document->scene());
    QVERIFY(!checker.in_collision(joints()));

    move_goal(goal);
    choose_goal_input();
    enable();
    const bool halted = QTest::qWaitFor(
        [this] { return panel_->status_label()->text().startsWith(QStringLiteral("Halted")); },
        kConvergeMs);
    const QString status = panel_->status_label()->text();
    qDebug("status when halted: %s", qPrintable(status));
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, halted, qPrintable(status));
    QCOMPARE(controller_->servo_status(), ServoStatus::HaltForCollision);
    QVERIFY2(status.contains(QStringLiteral("'block'")), qPrintable(status));
    // It went towards the goal, stopped short of it, out of collision, and stays halted.
    const double travelled = -(tcp().translation() - start.translation()).y();
    QVERIFY2(travelled > 0.03, qPrintable(QString::number(travelled)));
    QVERIFY((tcp().translation() - goal.translation()).norm() > 0.02);
    QVERIFY(!checker.in_collision(joints()));
    QTest::qWait(100);  // (the frame on its way)
    const JointVector held_at = joints();
    QTest::qWait(250);
    QCOMPARE(joints(), held_at);
    QVERIFY(!checker.in_collision(joints()));
    QCOMPARE(controller_->servo_status(), ServoStatus::HaltForCollision);  // (not timed out)
  }

  void goal_input_converges_in_the_world_frame_on_a_mounted_turned_robot() {
    // The UR5e hung from a bracket: 40 cm over, 30 cm aside, 80 cm up and turned about all three
    // axes. The goal is dragged in the world; the servo works in the arm's base link.
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("robot.urdf")),
                  toml = dir.filePath(QStringLiteral("kinetic.toml"));
    QVERIFY(write_mounted_ur5e(urdf, toml));
    QCOMPARE(studio_->document->load_robot(urdf, {}, toml), QString());
    studio_->document->set_joints(studio_->document->robot()->named_pose("ready"));
    TcpKinematics kinematics(studio_->document->robot());
    const Pose base = kinematics.base_in_world(joints());
    QVERIFY(base.translation().norm() > 0.5 && Eigen::AngleAxisd(base.linear()).angle() > 1.0);

    const Pose start = kinematics.tcp_in_world(joints());
    const Pose goal =
        moved(start, Vector3(0.04, 0.03, -0.03), 15.0 * kDegree, Vector3(0.0, 1.0, 1.0));
    move_goal(goal);
    choose_goal_input();
    enable();
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text() + " / " +
                                              pose_error(kinematics.tcp_in_world(joints()), goal)));
    const Pose reached = kinematics.tcp_in_world(joints());
    QVERIFY2((reached.translation() - goal.translation()).norm() < kMillimetre,
             qPrintable(pose_error(reached, goal)));
    QVERIFY2(rotation_between(reached, goal) < kDegree, qPrintable(pose_error(reached, goal)));
  }

  void switching_input_away_from_goal_stops_the_arm() {
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, follow_a_far_goal(),
                                qPrintable(panel_->status_label()->text()));
    panel_->source_combo()->setCurrentIndex(
        panel_->source_combo()->findData(int(TeleopSource::OnScreen)));
    QCOMPARE(controller_->source(), TeleopSource::OnScreen);
    QCOMPARE(controller_->current_command().kind, ServoCommand::Kind::Stop);
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, stays_still(), "the arm moved on after it was stopped");
    QVERIFY(controller_->enabled());
    QVERIFY(panel_->jog_pad()->isEnabled());  // the buttons are the input now
  }

  void disabling_while_following_the_goal_stops_the_arm() {
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, follow_a_far_goal(),
                                qPrintable(panel_->status_label()->text()));
    QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(!controller_->enabled());
    QVERIFY(panel_->status_label()->text().startsWith(QStringLiteral("Off")));
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, stays_still(), "the arm moved on after it was stopped");
  }

  void goal_input_without_a_goal_says_so_and_keeps_still() {
    const JointVector start = joints();
    choose_goal_input();
    enable();
    QCOMPARE(controller_->current_command().kind, ServoCommand::Kind::Stop);
    QTest::qWait(300);
    QCOMPARE(joints(), start);
    QVERIFY2(panel_->status_label()->text().startsWith(QStringLiteral("No goal to follow")),
             qPrintable(panel_->status_label()->text()));
    QVERIFY(panel_->goal_distance_label()->text().startsWith(QStringLiteral("No goal yet")));
    // A goal appears (the first drag): the arm follows it.
    move_goal(moved(tcp(), Vector3(0.0, 0.0, 0.03)));
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
  }

  void losing_the_goal_stops_the_arm() {
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, follow_a_far_goal(),
                                qPrintable(panel_->status_label()->text()));
    // As a session opened without a goal, or undoing the first goal edit.
    studio_->document->set_goal(app::GoalState{});
    QCOMPARE(controller_->current_command().kind, ServoCommand::Kind::Stop);
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, stays_still(), "the arm moved on after it was stopped");
    QVERIFY2(panel_->status_label()->text().startsWith(QStringLiteral("No goal to follow")),
             qPrintable(panel_->status_label()->text()));
    QVERIFY(controller_->enabled());
  }

  void robot_change_stops_following_the_goal() {
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, follow_a_far_goal(),
                                qPrintable(panel_->status_label()->text()));
    // Another six-joint arm opens in its own rest pose without the old arm's goal, and nothing
    // pulls it along.
    QCOMPARE(studio_->document->load_robot(QStringLiteral("ur10e")), QString());
    QVERIFY(studio_->document->goal().empty());
    QCOMPARE(controller_->source(), TeleopSource::OnScreen);
    QCOMPARE(panel_->source(), TeleopSource::OnScreen);
    QVERIFY2(panel_->note_label()->text().contains(QStringLiteral("no longer follows the goal")),
             qPrintable(panel_->note_label()->text()));
    QVERIFY(controller_->enabled());  // teleoperation goes on for the new robot, with the buttons
    const JointVector after_load = joints();
    QTest::qWait(300);
    QCOMPARE(joints(), after_load);
  }

  void speed_slider_caps_the_follow_speed() {
    panel_->speed_slider()->setValue(10);  // 10 % of 0.25 m/s
    const Pose start = tcp();
    move_goal(moved(start, far_offset()));
    choose_goal_input();
    QElapsedTimer clock;
    enable();
    clock.start();
    QTest::qWait(500);
    const double seconds = clock.nsecsElapsed() / 1e9;
    const double travelled = (tcp().translation() - start.translation()).norm();
    const double cap = 0.1 * controller_->options().max_linear_speed;
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_,
                                travelled > 0.2 * cap * seconds &&
                                    travelled < 1.2 * cap * seconds + 0.002,
             qPrintable(QStringLiteral("%1 m in %2 s at a cap of %3 m/s")
                            .arg(travelled)
                            .arg(seconds)
                            .arg(cap)));
  }

  void a_slow_gui_frame_does_not_stop_following_the_goal() {
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, follow_a_far_goal(),
                                qPrintable(panel_->status_label()->text()));
    // The GUI thread blocks for 0.4 s (a slow frame on a software renderer): the command is renewed
    // by its own clock (CommandRenewal), so the arm keeps moving towards the goal instead of
    // stopping at the loop's 100 ms timeout; only a GUI silent for a whole second stops it.
    const Vector3 before = tcp().translation();
    constexpr double kStallS = 0.4;
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(kStallS * 1000)));
    const JointVector frozen = joints();
    QVERIFY(QTest::qWaitFor([&] { return joints() != frozen; },
                            2000));  // the first frame after the stall
    const double moved_during_stall = (tcp().translation() - before).norm();
    const double speed = 0.5 * controller_->options().max_linear_speed;  // (the slider's 50 %)
    // Stopped at the timeout it would have moved at most speed x (0.1 s + a frame): 15 mm.
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, moved_during_stall > 0.6 * speed * kStallS,
             qPrintable(QStringLiteral("moved %1 mm while the GUI stalled")
                            .arg(moved_during_stall / kMillimetre)));
    // It goes on afterwards: the command is re-sent every frame.
    const Vector3 after = tcp().translation();
    QTest::qWait(200);
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, (tcp().translation() - after).norm() > 0.005,
                                "the arm stopped after the stall");
  }

  void recording_a_follow_session_adds_it_to_the_trajectories() {
    const JointVector start = joints();
    const Pose goal = moved(tcp(), Vector3(0.02, 0.03, 0.02), 10.0 * kDegree);
    panel_->record_box()->setChecked(true);
    app::TrajectoryRecorder& recorder =
        studio_->window->planning_features()->trajectories().recorder();
    move_goal(goal);
    choose_goal_input();
    enable();
    QVERIFY(recorder.recording());
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
    const JointVector end = joints();
    QSignalSpy finished(&recorder, &app::TrajectoryRecorder::finished);
    QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(!recorder.recording());
    QVERIFY(finished.wait(10000) || !finished.isEmpty());
    QCOMPARE(finished.first().at(0).toInt(), 0);
    const auto& list = studio_->document->trajectories();
    QCOMPARE(list.size(), std::size_t(1));
    const Trajectory& recorded = list[0].trajectory;
    QVERIFY(recorded.samples().size() >= 3);
    QVERIFY((recorded.samples().front().position - start).norm() < 1e-9);
    QVERIFY((recorded.samples().back().position - end).norm() < 1e-9);
    const Pose last = tcp(recorded.samples().back().position);
    QVERIFY2((last.translation() - goal.translation()).norm() < kMillimetre,
             qPrintable(pose_error(last, goal)));
  }

  void follow_session_with_goal_drags_is_one_undo_step() {
    const JointVector start = joints();
    QUndoStack& stack = studio_->document->undo_stack();
    move_goal(moved(tcp(), Vector3(0.03, 0.0, 0.02)));
    choose_goal_input();
    enable();
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
    // Dragged on twice, each a goal edit of its own (past the merge window of a gesture).
    QTest::qWait(900);
    move_goal(moved(tcp(), Vector3(0.0, 0.03, 0.0)));
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
    QTest::qWait(900);
    move_goal(moved(tcp(), Vector3(0.0, 0.0, -0.03)));
    KINETIC_VERIFY_IN_REAL_TIME(*stalls_, wait_until_reached(), qPrintable(panel_->status_label()->text()));
    QVERIFY(
        QTest::qWaitFor([this] { return !studio_->window->goal_controller()->ik_busy(); }, 5000));
    controller_->disable();
    const JointVector end = joints();
    QVERIFY((end - start).norm() > 0.05);
    int teleop_steps = 0, goal_steps = 0;
    for (int i = 0; i < stack.count(); ++i) {
      if (stack.text(i) == QStringLiteral("Teleoperate"))
        ++teleop_steps;
      else if (stack.text(i) == QStringLiteral("Move goal"))
        ++goal_steps;
    }
    QCOMPARE(teleop_steps, 1);
    QVERIFY2(goal_steps >= 2, qPrintable(QString::number(goal_steps)));
    QCOMPARE(stack.count(), teleop_steps + goal_steps);
    // Undoing everything: the arm where it started, no goal; redoing: where it ended.
    while (stack.canUndo()) stack.undo();
    QCOMPARE(joints(), start);
    QVERIFY(studio_->document->goal().empty());
    while (stack.canRedo()) stack.redo();
    QCOMPARE(joints(), end);
  }

 private:
  JointVector joints() const { return studio_->document->joints(); }
  Pose tcp() const { return tcp(joints()); }
  Pose tcp(const JointVector& q) const {
    return TcpKinematics(studio_->document->robot()).tcp_in_world(q);
  }

  void enable() {
    if (!panel_->enable_button()->isChecked())
      QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(controller_->enabled());
  }

  void choose_goal_input() {
    QComboBox* source = panel_->source_combo();
    source->setCurrentIndex(source->findData(int(TeleopSource::Goal)));
    QCOMPARE(controller_->source(), TeleopSource::Goal);
  }

  // As a drag of the goal gizmo in the 3D view: the goal at once, IK in the background.
  void move_goal(const Pose& world) { studio_->window->goal_controller()->move_goal_world(world); }

  bool wait_until_reached() {
    return QTest::qWaitFor(
        [this] {
          return panel_->status_label()->text().startsWith(QStringLiteral("Goal reached"));
        },
        kConvergeMs);
  }

  // 20 cm away, straight: at 50 % the arm needs more than a second and a half to get there.
  static Vector3 far_offset() { return Vector3(-0.1, 0.15, 0.08); }

  // Follows a goal far away; whether the arm got well under way and is moving on.
  bool follow_a_far_goal() {
    const JointVector start = joints();
    move_goal(moved(tcp(), far_offset()));
    choose_goal_input();
    enable();
    return QTest::qWaitFor([&] { return (joints() - start).norm() > 0.02; }, 5000) &&
           controller_->servo_status() == ServoStatus::Ok &&
           panel_->status_label()->text().startsWith(QStringLiteral("Moving to the goal"));
  }

  // Whether the arm moves no more (after the frame that was on its way).
  bool stays_still() {
    QTest::qWait(60);
    const JointVector stopped = joints();
    QTest::qWait(250);
    return joints() == stopped;
  }

  // The built-in UR5e below a "world" link it hangs from, turned and offset.
  static bool write_mounted_ur5e(const QString& urdf, const QString& toml) {
    const QString builtin = QString::fromStdString(builtin_robot_directory() + "/ur5e");
    QFile source(builtin + QStringLiteral("/robot.urdf"));
    if (!source.open(QIODevice::ReadOnly)) return false;
    QString text = QString::fromUtf8(source.readAll());
    const QString root = QStringLiteral("<robot name=\"ur5e\">");
    if (!text.contains(root)) return false;
    text.replace(root, root + QStringLiteral(R"(
  <link name="world"/>
  <joint name="mount" type="fixed">
    <parent link="world"/>
    <child link="base_link"/>
    <origin xyz="0.4 -0.3 0.8" rpy="2.5 0.3 0.9"/>
  </joint>)"));
    QFile target(urdf);
    if (!target.open(QIODevice::WriteOnly) || target.write(text.toUtf8()) < 0) return false;
    target.close();
    return QFile::copy(builtin + QStringLiteral("/kinetic.toml"), toml);
  }

  std::unique_ptr<Studio> studio_;
  std::unique_ptr<test::StallWatch> stalls_;  // the whole test: each follows the goal in real time
  ServoPanel* panel_ = nullptr;
  TeleopController* controller_ = nullptr;
};

QTEST_MAIN(TeleopFollowGoalTest)
#include "teleop_follow_goal_test.moc"
