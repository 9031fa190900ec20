// Qt Test: CommandRenewal, the teleop command's own clock, against the real servo loop on the
// built-in UR5e (100 ms command timeout). Held input keeps the arm moving while the GUI thread is
// slow (the renewal re-sends it), a GUI thread silent for longer than kGuiSilence is taken as hung
// and the loop's timeout stops the arm (the watchdog), a new command moves it again, and a Stop
// is renewed as a Stop. Timings have broad margins: the machine may be a loaded 2-core VM.
#include <QtTest>

#include <chrono>
#include <thread>

#include "app/servo/command_renewal.hpp"
#include "real_time_checks.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/servo/servo_loop.hpp"

using namespace kinetic;
using namespace std::chrono_literals;

namespace {

ServoCommand jog_first_joint(double speed) {
  ServoCommand command;
  command.kind = ServoCommand::Kind::JointJog;
  command.joint_velocities = JointVector::Zero(6);
  command.joint_velocities[0] = speed;
  return command;
}

}  // namespace

class CommandRenewalTest : public QObject {
  Q_OBJECT

 private:
  RobotModelPtr robot_ = load_builtin_robot("ur5e");
  std::unique_ptr<ServoLoop> loop_;
  JointVector start_;

  double first_joint() const { return loop_->latest().step.q[0]; }

 private slots:
  void init() {
    loop_ = std::make_unique<ServoLoop>(std::make_unique<Servo>(robot_, "", ServoOptions{}), 100ms);
    start_ = robot_->named_pose("ready");
    loop_->start(start_);
  }
  void cleanup() { loop_.reset(); }

  void a_held_command_keeps_moving_while_the_gui_thread_sleeps() {
    test::StallWatch stalls;
    app::CommandRenewal renewal(*loop_);
    renewal.set_command(jog_first_joint(0.3));
    std::this_thread::sleep_for(300ms);  // three times the loop's timeout, no set_command
    const ServoLoopState midway = loop_->latest();
    KINETIC_VERIFY_IN_REAL_TIME(stalls, midway.step.status != ServoStatus::Stopped,
                                midway.step.message.c_str());
    std::this_thread::sleep_for(200ms);
    const double travelled = first_joint() - start_[0];
    // 0.5 s at 0.3 rad/s is 0.15 rad; stopped at the timeout it would be about 0.03.
    KINETIC_VERIFY_IN_REAL_TIME(stalls, travelled > 0.08,
                                qPrintable(QStringLiteral("moved %1 rad").arg(travelled)));
    QVERIFY(first_joint() > midway.step.q[0]);
  }

  void a_gui_thread_silent_past_the_watchdog_stops_the_arm() {
    test::StallWatch stalls;
    app::CommandRenewal renewal(*loop_);
    renewal.set_command(jog_first_joint(0.3));
    // kGuiSilence (1 s), then the loop's 100 ms timeout, then some slack for a loaded machine.
    std::this_thread::sleep_for(app::CommandRenewal::kGuiSilence + 500ms);
    const ServoLoopState stopped = loop_->latest();
    QCOMPARE(stopped.step.status, ServoStatus::Stopped);
    QVERIFY2(stopped.step.message.find("no new command") != std::string::npos,
             stopped.step.message.c_str());
    // It moved for about a second before that.
    KINETIC_VERIFY_IN_REAL_TIME(stalls, stopped.step.q[0] > start_[0] + 0.1,
                                qPrintable(QStringLiteral("moved %1 rad before it stopped")
                                               .arg(stopped.step.q[0] - start_[0])));
    std::this_thread::sleep_for(100ms);
    QCOMPARE(first_joint(), stopped.step.q[0]);  // and stays put
    // The GUI thread speaks again: the arm moves again.
    renewal.set_command(jog_first_joint(0.3));
    QVERIFY(QTest::qWaitFor([&] { return first_joint() > stopped.step.q[0] + 0.01; }, 2000));
  }

  void a_stop_is_renewed_as_a_stop() {
    app::CommandRenewal renewal(*loop_);
    renewal.set_command(jog_first_joint(0.3));
    QVERIFY(QTest::qWaitFor([&] { return first_joint() > start_[0] + 0.01; }, 2000));
    renewal.set_command(ServoCommand{});
    QVERIFY(
        QTest::qWaitFor([&] { return loop_->latest().step.status == ServoStatus::Stopped; }, 1000));
    const double held = first_joint();
    std::this_thread::sleep_for(
        300ms);  // renewals of the Stop: nothing moves, and no older jog returns
    QCOMPARE(first_joint(), held);
    QCOMPARE(loop_->latest().step.status, ServoStatus::Stopped);
  }
};

QTEST_GUILESS_MAIN(CommandRenewalTest)
#include "command_renewal_test.moc"
