// Qt Test (offscreen): the Teleop panel in the real studio (create_studio) driving the real
// engine's servo loop on the built-in UR5e: jogging by holding the on-screen buttons (as a user's
// mouse press and release), frames, joint mode, speed, halting before an obstacle, one undo step
// per session, recording, a spacemouse that is not there. The machine may be a loaded 2-core VM:
// distances are checked against speed × time with broad tolerances.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <cmath>
#include <memory>

#include "app/goal/tcp_kinematics.hpp"
#include "app/planning/planning_features.hpp"
#include "app/servo/teleop_controller.hpp"
#include "app/studio_window_factory.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "engine/collision/collision_checker.hpp"
#include "fake_spacenavd.hpp"
#include "panels/servo_panel.hpp"
#include "real_time_checks.hpp"
#include "teleop_studio.hpp"
#include "user_actions.hpp"

using namespace kinetic;
using kinetic::app::Studio;
using kinetic::app::TcpKinematics;
using kinetic::app::TeleopController;
using kinetic::panels::ServoPanel;

namespace {

constexpr int kX = 0, kY = 1, kZ = 2;

using kinetic::test::rotation_between;

}  // namespace

class TeleopPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void init() {
    studio_ = test::open_teleop_studio();
    QVERIFY(studio_);
    panel_ = studio_->window->teleop().panel;
    controller_ = studio_->window->teleop().controller;
    kinematics_ = std::make_unique<TcpKinematics>(studio_->document->robot());
  }

  void cleanup() {
    if (controller_) controller_->disable();
    kinematics_.reset();
    studio_.reset();
  }

  void the_dock_sits_with_the_others_and_the_view_menu_toggles_it() {
    auto* dock = studio_->window->findChild<QDockWidget*>(QStringLiteral("TeleopDock"));
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QStringLiteral("Teleop"));
    QCOMPARE(studio_->window->dockWidgetArea(dock), Qt::RightDockWidgetArea);
    QVERIFY(studio_->window->view_menu()->actions().contains(dock->toggleViewAction()));
    // The group's six joints have a −/+ pair each; the speed starts at 50 %.
    QCOMPARE(panel_->jog_pad()->joint_count(), 6);
    QCOMPARE(panel_->speed_slider()->value(), 50);
    // Off until enabled: the jog buttons do nothing yet, so they are disabled.
    QVERIFY(!panel_->jog_pad()->isEnabled());
    QVERIFY(panel_->status_label()->text().startsWith(QStringLiteral("Off")));
    QVERIFY(!panel_->enable_button()->toolTip().isEmpty());
    QVERIFY(!panel_->jog_pad()->axis_button(kZ, +1)->toolTip().isEmpty());
  }

  void holding_plus_z_raises_the_tcp_and_release_stops_it() {
    const JointVector start = joints();
    const Pose before = tcp(start);
    enable();
    QVERIFY(panel_->jog_pad()->isEnabled());
    test::StallWatch stalls;
    const double held_s = hold(panel_->jog_pad()->axis_button(kZ, +1), 300);
    QTest::qWait(60);  // the last frames reach the document
    const Pose after = tcp(joints());
    const Eigen::Vector3d moved = after.translation() - before.translation();
    // 50 % of 0.25 m/s for the time the button was down (the loop starts and stops within a frame
    // or two of the press and release; a loaded machine can lose some of its cycles).
    const double expected = 0.5 * controller_->options().max_linear_speed * held_s;
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, moved.z() > 0.4 * expected && moved.z() < 1.3 * expected + 0.005,
        qPrintable(QStringLiteral("rose %1 m, expected about %2 m").arg(moved.z()).arg(expected)));
    QVERIFY2(moved.head<2>().norm() < 0.15 * moved.z() + 0.002,
             qPrintable(QStringLiteral("drifted %1 m sideways").arg(moved.head<2>().norm())));
    QVERIFY2(rotation_between(before, after) < 0.01,
             qPrintable(QStringLiteral("turned %1 rad").arg(rotation_between(before, after))));
    // Released: nothing moves any more.
    const JointVector stopped = joints();
    QTest::qWait(200);
    QCOMPARE(joints(), stopped);
    QVERIFY(panel_->status_label()->text().startsWith(QStringLiteral("Ready")));
    QVERIFY(controller_->enabled());
  }

  // A slow frame does not stop a held jog: the GUI thread busy for 350 ms (lavapipe drew frames of
  // 200-400 ms) read "Stopped: no new command for 100 ms" and the arm moved in jerks, as the
  // command was renewed only when the GUI thread got round to it. It is renewed by its own clock.
  void a_slow_frame_does_not_stop_a_held_jog() {
    enable();
    QStringList statuses;
    connect(controller_, &TeleopController::statusChanged, this,
            [&] { statuses << controller_->status().text; });
    const Pose before = tcp(joints());
    QPushButton* up = panel_->jog_pad()->axis_button(kZ, +1);
    test::StallWatch stalls;
    QElapsedTimer clock;
    QTest::mousePress(up, Qt::LeftButton);
    clock.start();
    QTest::qWait(150);
    QThread::msleep(350);  // a slow frame: nothing else runs on the GUI thread meanwhile
    QTest::qWait(100);
    QTest::mouseRelease(up, Qt::LeftButton);
    const double held_s = clock.nsecsElapsed() / 1e9;
    QTest::qWait(60);
    disconnect(controller_, &TeleopController::statusChanged, this, nullptr);
    for (const QString& status : statuses)
      KINETIC_VERIFY_IN_REAL_TIME(stalls, !status.contains(QStringLiteral("no new command")),
                                  qPrintable(statuses.join(QStringLiteral(" | "))));
    // It rose for the whole hold, the slow frame included (within a loaded machine's tolerance).
    const double rose = tcp(joints()).translation().z() - before.translation().z();
    const double expected = 0.5 * controller_->options().max_linear_speed * held_s;
    KINETIC_VERIFY_IN_REAL_TIME(stalls, rose > 0.6 * expected && rose < 1.3 * expected + 0.005,
             qPrintable(QStringLiteral("rose %1 m, expected about %2 m").arg(rose).arg(expected)));
  }

  void tool_frame_moves_along_the_tcp_axes() {
    // In "ready" the tool's z axis points down (it approaches the table), so +Z in the tool frame
    // lowers the TCP while +Z in the base frame raises it.
    const Eigen::Vector3d tool_z = tcp(joints()).linear().col(2);
    QVERIFY2(tool_z.z() < -0.9, "expected the tool to point down in 'ready'");
    enable();
    const Eigen::Vector3d base_move = displacement_while_holding(kZ, +1, 250);
    panel_->frame_combo()->setCurrentIndex(
        panel_->frame_combo()->findData(int(panels::JogFrame::Tool)));
    QCOMPARE(controller_->frame(), ServoCommand::Frame::Tool);
    const Eigen::Vector3d tool_move = displacement_while_holding(kZ, +1, 250);
    QVERIFY2(base_move.normalized().dot(Eigen::Vector3d::UnitZ()) > 0.95,
             "base +Z did not move up");
    QVERIFY2(tool_move.normalized().dot(tool_z) > 0.95,
             "tool +Z did not move along the tool's z axis");
    // And +X of the tool is the tool's own x axis, not the base's.
    const Eigen::Vector3d tool_x = tcp(joints()).linear().col(0);
    const Eigen::Vector3d x_move = displacement_while_holding(kX, +1, 250);
    QVERIFY2(x_move.normalized().dot(tool_x) > 0.95,
             "tool +X did not move along the tool's x axis");
  }

  void joint_mode_moves_only_that_joint() {
    panel_->mode_combo()->setCurrentIndex(
        panel_->mode_combo()->findData(int(panels::JogMode::Joint)));
    QVERIFY(panel_->frame_combo()->isEnabled() == false);  // frames are for Cartesian jogging
    enable();
    const JointVector start = joints();
    const int joint = 2;  // elbow_joint, chain order = model order on the UR5e
    test::StallWatch stalls;
    const double held_s = hold(panel_->jog_pad()->joint_button(joint, -1), 300);
    QTest::qWait(60);
    const JointVector change = joints() - start;
    for (int i = 0; i < change.size(); ++i)
      if (i != joint)
        QVERIFY2(std::abs(change[i]) < 1e-9, qPrintable(QStringLiteral("joint %1 moved").arg(i)));
    // 50 % of 1 rad/s, in the negative direction.
    const double expected = -0.5 * controller_->options().max_angular_speed * held_s;
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, change[joint] < 0.4 * expected && change[joint] > 1.3 * expected - 0.01,
        qPrintable(
            QStringLiteral("turned %1 rad, expected about %2").arg(change[joint]).arg(expected)));
  }

  void joint_at_its_limit_is_reported() {
    // The base joint just inside its upper limit (a turn of the whole arm: nothing collides);
    // jogging it further stops there and says why.
    JointVector q = joints();
    const int joint = 0;
    q[joint] = studio_->document->robot()->upper_limits()[joint] - 0.021;
    studio_->document->set_joints(q);
    panel_->mode_combo()->setCurrentIndex(
        panel_->mode_combo()->findData(int(panels::JogMode::Joint)));
    enable();
    QTest::mousePress(panel_->jog_pad()->joint_button(joint, +1), Qt::LeftButton);
    const bool reported = QTest::qWaitFor(
        [&] { return panel_->status_label()->text().contains(QStringLiteral("limit")); }, 3000);
    const QString status = panel_->status_label()->text();
    QTest::mouseRelease(panel_->jog_pad()->joint_button(joint, +1), Qt::LeftButton);
    QVERIFY2(reported, qPrintable(status));
    const QString name =
        QString::fromStdString(studio_->document->robot()->variable_joint(joint).name);
    QVERIFY2(status.startsWith(QStringLiteral("Joint '%1' is at its upper limit").arg(name)),
             qPrintable(status));
    QVERIFY(joints()[joint] <= studio_->document->robot()->upper_limits()[joint]);
  }

  void speed_slider_scales_the_motion() {
    enable();
    panel_->speed_slider()->setValue(100);
    QCOMPARE(controller_->speed(), 1.0);
    double held_s = 0.0;
    const double fast = displacement_while_holding(kZ, +1, 250, &held_s).norm() / held_s;
    panel_->speed_slider()->setValue(25);
    QCOMPARE(controller_->speed(), 0.25);
    const double slow = displacement_while_holding(kZ, -1, 250, &held_s).norm() / held_s;
    const double ratio = fast / slow;
    QVERIFY2(ratio > 2.5 && ratio < 6.0,
             qPrintable(QStringLiteral("100 %% vs 25 %%: %1x faster").arg(ratio)));
  }

  void a_box_above_the_tcp_halts_the_arm_before_it() {
    enable();
    // Added while teleoperating: the running loop must hear about it.
    const Pose tool = kinematics_->tcp_in_world(joints());
    PlanningScene scene = studio_->document->scene();
    Pose box = Pose::Identity();
    // The tool points down in "ready": the wrist is 10 cm above the TCP, the lid 10 cm above that.
    box.translation() = tool.translation() + Eigen::Vector3d(0.0, 0.0, 0.22);
    scene.add_obstacle("lid", Shape::box(Vector3(0.15, 0.15, 0.02)), box);
    studio_->document->edit_scene(scene, QStringLiteral("Add box"));
    CollisionChecker checker(studio_->document->robot());
    checker.set_scene(studio_->document->scene());
    QVERIFY(!checker.in_collision(joints()));

    panel_->speed_slider()->setValue(100);
    QPushButton* up = panel_->jog_pad()->axis_button(kZ, +1);
    QTest::mousePress(up, Qt::LeftButton);
    const bool halted = QTest::qWaitFor(
        [&] { return panel_->status_label()->text().startsWith(QStringLiteral("Halted")); }, 5000);
    const QString status = panel_->status_label()->text();
    QTest::qWait(200);  // still held: it stays halted
    const JointVector held_at = joints();
    QTest::mouseRelease(up, Qt::LeftButton);
    qDebug("status while held: %s", qPrintable(status));
    QVERIFY2(halted, qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("'lid'")), qPrintable(status));
    QVERIFY(!checker.in_collision(held_at));
    QVERIFY(!checker.in_collision(joints()));
    // It got close: the lid's underside is 21 cm above where the TCP started, the wrist's top a
    // few centimetres above the TCP's start plus its rise.
    const double rose =
        kinematics_->tcp_in_world(joints()).translation().z() - tool.translation().z();
    QVERIFY2(rose > 0.02 && rose < 0.2, qPrintable(QString::number(rose)));
  }

  void a_session_is_one_undo_step() {
    const JointVector start = joints();
    QUndoStack& stack = studio_->document->undo_stack();
    const int before = stack.count();
    enable();
    hold(panel_->jog_pad()->axis_button(kZ, +1), 200);
    hold(panel_->jog_pad()->axis_button(kY, -1), 200);
    hold(panel_->jog_pad()->axis_button(kX, +1), 200);
    QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);  // disable
    QVERIFY(!controller_->enabled());
    const JointVector end = joints();
    QVERIFY((end - start).norm() > 0.01);
    QCOMPARE(stack.count(), before + 1);
    QCOMPARE(stack.undoText(), QStringLiteral("Teleoperate"));
    stack.undo();
    QCOMPARE(joints(), start);
    stack.redo();
    QCOMPARE(joints(), end);
  }

  void an_edit_from_elsewhere_continues_from_there() {
    enable();
    hold(panel_->jog_pad()->axis_button(kZ, +1), 150);
    // As if the Joints panel's slider moved the base joint: the servo goes on from that state.
    JointVector edited = joints();
    edited[0] += 0.3;
    studio_->document->edit_joints(edited);
    QTest::qWait(100);
    QCOMPARE(joints(), edited);
    const Pose from = tcp(edited);
    hold(panel_->jog_pad()->axis_button(kZ, +1), 150);
    QTest::qWait(60);
    const Eigen::Vector3d moved = tcp(joints()).translation() - from.translation();
    QVERIFY2(moved.z() > 0.003 && moved.head<2>().norm() < 0.003,
             qPrintable(QString::number(moved.z())));
    // Undo steps: the motion before the edit, the edit, the motion after it.
    controller_->disable();
    QCOMPARE(studio_->document->undo_stack().count(), 3);
    studio_->document->undo_stack().undo();
    QCOMPARE(joints(), edited);
  }

  void disabling_stops_the_loop() {
    enable();
    QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(!controller_->enabled());
    QVERIFY(!panel_->enable_button()->isChecked());
    QVERIFY(!panel_->jog_pad()->isEnabled());
    QVERIFY(panel_->status_label()->text().startsWith(QStringLiteral("Off")));
    // Even a command sent past the panel moves nothing: there is no loop to run it.
    const JointVector still = joints();
    controller_->press(panels::JogMode::Cartesian, kZ, +1);
    QTest::qWait(200);
    controller_->release();
    QCOMPARE(joints(), still);
  }

  void spacemouse_without_spacenavd_is_explained_and_buttons_still_work() {
    QComboBox* source = panel_->source_combo();
    source->setCurrentIndex(source->findData(int(panels::TeleopSource::SpaceMouse)));
    if (controller_->source() == panels::TeleopSource::SpaceMouse)
      QSKIP("a spacemouse daemon answered on this machine; the failure path cannot be shown");
    // The engine's message and hint in the panel; the buttons are the input again.
    QVERIFY(panel_->note_label()->isVisibleTo(panel_));
    const QString note = panel_->note_label()->text();
    QVERIFY2(note.startsWith(QStringLiteral("Spacemouse unavailable:")), qPrintable(note));
    QVERIFY2(note.contains(QStringLiteral("spacenavd")), qPrintable(note));
    QCOMPARE(source->currentData().toInt(), int(panels::TeleopSource::OnScreen));
    QCOMPARE(controller_->source(), panels::TeleopSource::OnScreen);
    // Teleoperation with the buttons works as before.
    const double z = tcp(joints()).translation().z();
    enable();
    hold(panel_->jog_pad()->axis_button(kZ, +1), 200);
    QTest::qWait(60);
    QVERIFY(tcp(joints()).translation().z() > z + 0.005);
  }

  void spacemouse_moves_the_arm_and_losing_it_stops_the_arm() {
    QTemporaryDir folder;
    const QString socket = folder.filePath(QStringLiteral("spnav.sock"));
    kinetic::test::FakeSpacenavd daemon(socket);
    QVERIFY(choose_spacemouse(daemon, socket));
    QComboBox* source = panel_->source_combo();
    enable();
    QVERIFY(!panel_->jog_pad()->isEnabled());  // the spacemouse is the input now
    // The cap pulled up all the way (spacenavd's y is up): +Z at the slider's 50 %.
    const double z = tcp(joints()).translation().z();
    test::StallWatch stalls;
    QVERIFY(daemon.send_motion(0, 350, 0, 0, 0, 0));
    QTest::qWait(250);
    KINETIC_VERIFY_IN_REAL_TIME(stalls, tcp(joints()).translation().z() > z + 0.01,
                                qPrintable(panel_->status_label()->text()));
    // The daemon goes away with the cap still pulled: the arm stops, the panel says why and the
    // buttons are the input again.
    daemon.hang_up();
    QVERIFY(QTest::qWaitFor(
        [this] { return controller_->source() == panels::TeleopSource::OnScreen; }, 2000));
    QTest::qWait(60);  // the frame that was on its way
    const JointVector stopped = joints();
    QTest::qWait(200);
    QCOMPARE(joints(), stopped);
    const QString note = panel_->note_label()->text();
    QVERIFY2(note.contains(QStringLiteral("went away")) &&
                 note.contains(QStringLiteral("The arm was stopped")),
             qPrintable(note));
    QCOMPARE(source->currentData().toInt(), int(panels::TeleopSource::OnScreen));
    QVERIFY(panel_->jog_pad()->isEnabled());
    QVERIFY(controller_->enabled());
  }

  // The hands stay on the device: its left button switches the frame, its right one steps through
  // what the cap moves; the panel follows. Translate only: a twist of the cap does not turn the
  // tool.
  void spacemouse_buttons_switch_the_frame_and_what_the_cap_moves() {
    QTemporaryDir folder;
    const QString socket = folder.filePath(QStringLiteral("spnav.sock"));
    kinetic::test::FakeSpacenavd daemon(socket);
    QVERIFY(choose_spacemouse(daemon, socket));
    QComboBox* source = panel_->source_combo();
    QVERIFY(panel_->spacemouse_axes_combo()->isVisible());
    QVERIFY(panel_->note_label()->text().contains(QStringLiteral("left button")));
    QCOMPARE(panel_->frame(), panels::JogFrame::Base);

    QVERIFY(daemon.send_button(0, true));
    QVERIFY(daemon.send_button(0, false));
    QVERIFY(QTest::qWaitFor([this] { return controller_->frame() == ServoCommand::Frame::Tool; },
                            2000));
    QCOMPARE(panel_->frame(), panels::JogFrame::Tool);
    QVERIFY(daemon.send_button(1, true));
    QVERIFY(daemon.send_button(1, false));
    QVERIFY(QTest::qWaitFor(
        [this] { return controller_->spacemouse_axes() == panels::SpaceMouseAxes::Translation; },
        2000));
    QCOMPARE(panel_->spacemouse_axes(), panels::SpaceMouseAxes::Translation);

    // Pulled up and twisted at once: only the pull counts.
    QVERIFY(daemon.send_motion(0, 350, 0, 0, 350, 0));
    QVERIFY(QTest::qWaitFor([this] { return !controller_->spacemouse().axes().isZero(); }, 2000));
    QVERIFY(controller_->spacemouse().axes().tail<3>().norm() > 0.5);  // the device reads the twist
    ServoCommand command = controller_->current_command();
    QVERIFY(command.twist.head<3>().norm() > 0.0);
    QCOMPARE(command.twist.tail<3>().norm(), 0.0);
    QCOMPARE(command.frame, ServoCommand::Frame::Tool);
    // Rotate only, from the panel: the other way round.
    panel_->spacemouse_axes_combo()->setCurrentIndex(
        panel_->spacemouse_axes_combo()->findData(int(panels::SpaceMouseAxes::Rotation)));
    command = controller_->current_command();
    QCOMPARE(command.twist.head<3>().norm(), 0.0);
    QVERIFY(command.twist.tail<3>().norm() > 0.0);
    // A third press of the right button comes back to both.
    QVERIFY(daemon.send_button(1, true));
    QVERIFY(QTest::qWaitFor(
        [this] { return controller_->spacemouse_axes() == panels::SpaceMouseAxes::All; }, 2000));
    command = controller_->current_command();
    QVERIFY(command.twist.head<3>().norm() > 0.0 && command.twist.tail<3>().norm() > 0.0);

    // On-screen buttons as the input: the row goes, the device's buttons no longer count.
    source->setCurrentIndex(source->findData(int(panels::TeleopSource::OnScreen)));
    QVERIFY(!panel_->spacemouse_axes_combo()->isVisible());
    panel_->frame_combo()->setCurrentIndex(
        panel_->frame_combo()->findData(int(panels::JogFrame::Base)));
    QCOMPARE(controller_->frame(), ServoCommand::Frame::Base);
  }

  void recording_adds_the_motion_to_the_trajectories() {
    const JointVector start = joints();
    panel_->record_box()->setChecked(true);  // armed: records from the start of the session
    app::TrajectoryRecorder& recorder =
        studio_->window->planning_features()->trajectories().recorder();
    QVERIFY(!recorder.recording());
    enable();
    QVERIFY(recorder.recording());
    hold(panel_->jog_pad()->axis_button(kZ, +1), 300);
    QTest::qWait(60);
    const JointVector end = joints();
    QSignalSpy finished(&recorder, &app::TrajectoryRecorder::finished);
    QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);  // disabling ends the recording
    QVERIFY(!recorder.recording());
    QVERIFY(!panel_->record_box()->isChecked());
    QVERIFY(finished.wait(10000) || !finished.isEmpty());
    QCOMPARE(finished.first().at(0).toInt(), 0);
    const auto& list = studio_->document->trajectories();
    QCOMPARE(list.size(), std::size_t(1));
    QCOMPARE(list[0].name, QStringLiteral("recording 1"));
    QVERIFY2(panel_->note_label()->text().contains(QStringLiteral("'recording 1'")),
             qPrintable(panel_->note_label()->text()));
    // The samples follow the motion: from the start to the end, the TCP rising all the way.
    const Trajectory& recorded = list[0].trajectory;
    QVERIFY(recorded.samples().size() >= 3);
    QVERIFY((recorded.samples().front().position - start).norm() < 1e-9);
    QVERIFY((recorded.samples().back().position - end).norm() < 1e-9);
    double previous_z = -1e9;
    for (const auto& sample : recorded.samples()) {
      const double z = tcp(sample.position).translation().z();
      QVERIFY2(z > previous_z - 1e-4, "the recorded TCP went down while +Z was held");
      previous_z = z;
    }
  }

  void closing_the_window_stops_the_arm_before_asking() {
    enable();
    QTest::mousePress(panel_->jog_pad()->axis_button(kZ, +1), Qt::LeftButton);
    QTest::qWait(100);
    // The session changed the joints, so closing asks about unsaved changes; by then the arm
    // has stopped.
    bool enabled_when_asked = true;
    kinetic::test::ModalAnswers answers({[&](QWidget* modal) {
      auto* box = qobject_cast<QMessageBox*>(modal);
      QVERIFY2(box, "expected the unsaved-changes question");
      enabled_when_asked = controller_->enabled();
      QTimer::singleShot(0, box->button(QMessageBox::Discard), &QAbstractButton::click);
    }});
    QVERIFY(studio_->window->close());
    QCOMPARE(answers.answered(), std::size_t(1));
    QVERIFY(!enabled_when_asked);
    QVERIFY(!controller_->enabled());
  }

  void another_robot_restarts_teleoperation_for_it() {
    enable();
    QVERIFY(studio_->document->load_robot(QStringLiteral("panda")).isEmpty());
    QVERIFY(controller_->enabled());
    QCOMPARE(panel_->jog_pad()->joint_count(), 7);
    TcpKinematics panda(studio_->document->robot());
    // (It kept the UR5e's values for the joints named alike; its own home pose has room to move.)
    studio_->document->set_joints(studio_->document->robot()->named_pose("home"));
    const double z = panda.tcp_in_base(joints()).translation().z();
    hold(panel_->jog_pad()->axis_button(kZ, +1), 200);
    QTest::qWait(60);
    QVERIFY2(panda.tcp_in_base(joints()).translation().z() > z + 0.005,
             qPrintable(panel_->status_label()->text()));
  }

 private:
  JointVector joints() const { return studio_->document->joints(); }
  Pose tcp(const JointVector& q) const { return kinematics_->tcp_in_base(q); }

  void enable() {
    if (!panel_->enable_button()->isChecked())
      QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(controller_->enabled());
  }

  // The spacemouse chosen as the input in the panel, connected to `daemon` listening at `socket`.
  bool choose_spacemouse(kinetic::test::FakeSpacenavd& daemon, const QString& socket) {
    if (!daemon.listening()) return false;
    qputenv("SPNAV_SOCKET", socket.toLocal8Bit());
    QComboBox* source = panel_->source_combo();
    source->setCurrentIndex(source->findData(int(panels::TeleopSource::SpaceMouse)));
    qunsetenv("SPNAV_SOCKET");
    return controller_->source() == panels::TeleopSource::SpaceMouse && daemon.accept_client();
  }

  // Presses the button, keeps the event loop running for `ms`, releases; the seconds it was down.
  static double hold(QPushButton* button, int ms) {
    QElapsedTimer clock;
    QTest::mousePress(button, Qt::LeftButton);
    clock.start();
    QTest::qWait(ms);
    QTest::mouseRelease(button, Qt::LeftButton);
    return clock.nsecsElapsed() / 1e9;
  }

  Eigen::Vector3d displacement_while_holding(int axis, int direction, int ms,
                                             double* held_s = nullptr) {
    const Eigen::Vector3d from = tcp(joints()).translation();
    const double held = hold(panel_->jog_pad()->axis_button(axis, direction), ms);
    if (held_s) *held_s = held;
    QTest::qWait(60);
    return tcp(joints()).translation() - from;
  }

  std::unique_ptr<Studio> studio_;
  ServoPanel* panel_ = nullptr;
  TeleopController* controller_ = nullptr;
  std::unique_ptr<TcpKinematics> kinematics_;
};

QTEST_MAIN(TeleopPanelTest)
#include "teleop_panel_test.moc"
