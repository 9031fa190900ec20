// Qt Test (offscreen): keyboard jogging in the real studio (create_studio) on the built-in UR5e,
// the real engine's servo loop behind it. The key map itself, holding a key (the matching button
// shows pressed), auto-repeat, release, joint mode's digit keys, and every way a key must NOT jog:
// teleoperation off, a slider or spin box with the focus, Ctrl held, a spacemouse as the input,
// and a lost focus releasing a held key. Distances are checked against speed × time with broad
// tolerances (the machine may be a loaded 2-core VM).
#include <QAbstractItemView>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QtTest>
#include <cmath>
#include <memory>

#include "app/goal/tcp_kinematics.hpp"
#include "app/servo/keyboard_jog.hpp"
#include "app/servo/teleop_controller.hpp"
#include "app/studio_window_factory.hpp"
#include "panels/servo_panel.hpp"
#include "real_time_checks.hpp"
#include "teleop_studio.hpp"

using namespace kinetic;
using kinetic::app::KeyJog;
using kinetic::app::Studio;
using kinetic::app::TcpKinematics;
using kinetic::app::TeleopController;
using kinetic::panels::JogMode;
using kinetic::panels::ServoPanel;

namespace {
constexpr int kX = 0, kY = 1, kZ = 2, kRx = 3, kRy = 4, kRz = 5;

bool same(const std::optional<KeyJog>& jog, JogMode mode, int index, int direction) {
  return jog && jog->mode == mode && jog->index == index && jog->direction == direction;
}
}  // namespace

class KeyboardJogTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void init() {
    studio_ = test::open_teleop_studio();
    QVERIFY(studio_);
    panel_ = studio_->window->teleop().panel;
    controller_ = studio_->window->teleop().controller;
    QVERIFY(studio_->window->teleop().keyboard);
    kinematics_ = std::make_unique<TcpKinematics>(studio_->document->robot());
  }

  void cleanup() {
    if (controller_) controller_->disable();
    kinematics_.reset();
    studio_.reset();
  }

  void the_key_map_covers_six_axes_and_the_chosen_joint() {
    using app::key_jog;
    QVERIFY(same(key_jog(Qt::Key_Left, false, JogMode::Cartesian, 0), JogMode::Cartesian, kX, -1));
    QVERIFY(same(key_jog(Qt::Key_Right, false, JogMode::Cartesian, 0), JogMode::Cartesian, kX, +1));
    QVERIFY(same(key_jog(Qt::Key_Up, false, JogMode::Cartesian, 0), JogMode::Cartesian, kY, +1));
    QVERIFY(same(key_jog(Qt::Key_Down, false, JogMode::Cartesian, 0), JogMode::Cartesian, kY, -1));
    QVERIFY(
        same(key_jog(Qt::Key_PageUp, false, JogMode::Cartesian, 0), JogMode::Cartesian, kZ, +1));
    QVERIFY(
        same(key_jog(Qt::Key_PageDown, false, JogMode::Cartesian, 0), JogMode::Cartesian, kZ, -1));
    QVERIFY(same(key_jog(Qt::Key_Left, true, JogMode::Cartesian, 0), JogMode::Cartesian, kRx, -1));
    QVERIFY(same(key_jog(Qt::Key_Up, true, JogMode::Cartesian, 0), JogMode::Cartesian, kRy, +1));
    QVERIFY(
        same(key_jog(Qt::Key_PageDown, true, JogMode::Cartesian, 0), JogMode::Cartesian, kRz, -1));
    QVERIFY(!key_jog(Qt::Key_W, false, JogMode::Cartesian, 0));
    QVERIFY(same(key_jog(Qt::Key_Up, false, JogMode::Joint, 3), JogMode::Joint, 3, +1));
    QVERIFY(same(key_jog(Qt::Key_Right, false, JogMode::Joint, 3), JogMode::Joint, 3, +1));
    QVERIFY(same(key_jog(Qt::Key_Left, false, JogMode::Joint, 3), JogMode::Joint, 3, -1));
    QVERIFY(!key_jog(Qt::Key_PageUp, false, JogMode::Joint, 3));
    QVERIFY(!key_jog(Qt::Key_Up, false, JogMode::Joint, -1));  // no joint chosen
    QCOMPARE(app::joint_for_digit(Qt::Key_1, 6), std::optional<int>(0));
    QCOMPARE(app::joint_for_digit(Qt::Key_6, 6), std::optional<int>(5));
    QCOMPARE(app::joint_for_digit(Qt::Key_7, 6), std::optional<int>());
    QCOMPARE(app::joint_for_digit(Qt::Key_0, 6), std::optional<int>());
    QCOMPARE(app::joint_for_digit(Qt::Key_A, 6), std::optional<int>());
  }

  void the_panel_names_the_keys_for_each_mode() {
    QVERIFY(panel_->keys_label()->text().contains(QStringLiteral("PgUp")));
    set_mode(JogMode::Joint);
    QVERIFY2(panel_->keys_label()->text().contains(QStringLiteral("1–6")),
             qPrintable(panel_->keys_label()->text()));
    const QString first = controller_->joint_names().value(0);
    QVERIFY(!first.isEmpty());
    QVERIFY2(panel_->keys_label()->text().contains(first),
             qPrintable(panel_->keys_label()->text()));
  }

  void holding_page_up_raises_the_tcp_and_releasing_it_stops() {
    enable();
    test::StallWatch stalls;
    const Pose before = tcp(joints());
    QWidget* focus = panel_->enable_button();
    QTest::keyPress(focus, Qt::Key_PageUp);
    QVERIFY(panel_->jog_pad()->axis_button(kZ, +1)->isDown());  // the key shows on its button
    QElapsedTimer clock;
    clock.start();
    QTest::qWait(150);
    // Auto-repeat: a release and a press of the same key while it is held keep the arm going.
    send_key(focus, QEvent::KeyRelease, Qt::Key_PageUp, Qt::NoModifier, true);
    send_key(focus, QEvent::KeyPress, Qt::Key_PageUp, Qt::NoModifier, true);
    QVERIFY(controller_->current_command().kind != ServoCommand::Kind::Stop);
    QTest::qWait(150);
    QTest::keyRelease(focus, Qt::Key_PageUp);
    const double held_s = clock.nsecsElapsed() / 1e9;
    QVERIFY(!panel_->jog_pad()->axis_button(kZ, +1)->isDown());
    QCOMPARE(int(controller_->current_command().kind), int(ServoCommand::Kind::Stop));
    QTest::qWait(60);
    const Eigen::Vector3d moved = tcp(joints()).translation() - before.translation();
    const double expected = 0.5 * controller_->options().max_linear_speed * held_s;
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, moved.z() > 0.4 * expected && moved.z() < 1.3 * expected + 0.005,
        qPrintable(QStringLiteral("rose %1 m, expected about %2 m").arg(moved.z()).arg(expected)));
    QVERIFY2(moved.head<2>().norm() < 0.15 * moved.z() + 0.002,
             qPrintable(QStringLiteral("drifted %1 m sideways").arg(moved.head<2>().norm())));
    const JointVector stopped = joints();
    QTest::qWait(150);
    QCOMPARE(joints(), stopped);
  }

  void shift_turns_instead_of_moving() {
    enable();
    test::StallWatch stalls;
    const Pose before = tcp(joints());
    QTest::keyPress(panel_->enable_button(), Qt::Key_PageUp, Qt::ShiftModifier);
    QVERIFY(panel_->jog_pad()->axis_button(kRz, +1)->isDown());
    QTest::qWait(250);
    QTest::keyRelease(panel_->enable_button(), Qt::Key_PageUp, Qt::ShiftModifier);
    QTest::qWait(60);
    const Pose after = tcp(joints());
    const double turned = Eigen::AngleAxisd(before.linear().transpose() * after.linear()).angle();
    KINETIC_VERIFY_IN_REAL_TIME(stalls, turned > 0.02,
                                qPrintable(QStringLiteral("turned %1 rad").arg(turned)));
    QVERIFY2((after.translation() - before.translation()).norm() < 0.005,
             qPrintable(QStringLiteral("the TCP point moved %1 m")
                            .arg((after.translation() - before.translation()).norm())));
  }

  void digits_choose_the_joint_and_arrows_turn_it_alone() {
    set_mode(JogMode::Joint);
    enable();
    QWidget* focus = panel_->enable_button();
    QTest::keyClick(focus, Qt::Key_3);
    QCOMPARE(panel_->jog_pad()->key_joint(), 2);
    QVERIFY2(panel_->keys_label()->text().contains(controller_->joint_names().value(2)),
             qPrintable(panel_->keys_label()->text()));
    QTest::keyClick(focus, Qt::Key_9);  // the UR5e has six: nothing changes
    QCOMPARE(panel_->jog_pad()->key_joint(), 2);
    const JointVector start = joints();
    test::StallWatch stalls;
    QTest::keyPress(focus, Qt::Key_Down);
    QVERIFY(panel_->jog_pad()->joint_button(2, -1)->isDown());
    QTest::qWait(250);
    QTest::keyRelease(focus, Qt::Key_Down);
    QTest::qWait(60);
    const JointVector change = joints() - start;
    KINETIC_VERIFY_IN_REAL_TIME(stalls, change[2] < -0.02,
                                qPrintable(QStringLiteral("elbow turned %1 rad").arg(change[2])));
    for (int i = 0; i < change.size(); ++i)
      if (i != 2)
        QVERIFY2(std::abs(change[i]) < 1e-9, qPrintable(QStringLiteral("joint %1 moved").arg(i)));
  }

  void keys_do_nothing_while_teleoperation_is_off() {
    const JointVector start = joints();
    QTest::keyPress(panel_->enable_button(), Qt::Key_PageUp);
    QTest::qWait(150);
    QTest::keyRelease(panel_->enable_button(), Qt::Key_PageUp);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QCOMPARE(joints(), start);
  }

  void a_slider_with_the_focus_keeps_its_keys() {
    enable();
    const JointVector start = joints();
    const int speed = panel_->speed_slider()->value();
    panel_->speed_slider()->setFocus();
    QTest::keyClick(panel_->speed_slider(), Qt::Key_Up);
    QCOMPARE(panel_->speed_slider()->value(), speed + 1);  // the slider took the key
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QTest::qWait(100);
    QCOMPARE(joints(), start);
  }

  void ctrl_keys_stay_shortcuts() {
    enable();
    QTest::keyPress(panel_->enable_button(), Qt::Key_PageUp, Qt::ControlModifier);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QTest::keyRelease(panel_->enable_button(), Qt::Key_PageUp, Qt::ControlModifier);
  }

  void losing_the_focus_releases_a_held_key() {
    enable();
    QWidget* focus = panel_->enable_button();
    QTest::keyPress(focus, Qt::Key_Right);
    QVERIFY(studio_->window->teleop().keyboard->holding());
    QTest::qWait(100);
    QFocusEvent out(QEvent::FocusOut, Qt::ActiveWindowFocusReason);
    QCoreApplication::sendEvent(focus, &out);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QVERIFY(!panel_->jog_pad()->axis_button(kX, +1)->isDown());
    QCOMPARE(int(controller_->current_command().kind), int(ServoCommand::Kind::Stop));
    QTest::qWait(60);
    const JointVector stopped = joints();
    QTest::qWait(150);
    QCOMPARE(joints(), stopped);
  }

  void keys_jog_with_another_panel_or_nothing_focused() {
    // A click on another panel's button (or on empty space) leaves the focus outside the view and
    // the Teleop panel: the keys jog all the same, without a click into the view first.
    enable();
    auto* other = studio_->window->findChild<QDockWidget*>(QStringLiteral("PlannerDock"));
    QVERIFY(other);
    QPushButton* button = other->findChild<QPushButton*>();
    QVERIFY(button);
    QTest::keyPress(button, Qt::Key_PageUp);
    QVERIFY(studio_->window->teleop().keyboard->holding());
    QTest::qWait(100);
    QTest::keyRelease(button, Qt::Key_PageUp);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    if (QWidget* focus = QApplication::focusWidget()) focus->clearFocus();
    QTest::keyPress(studio_->window.get(),
                    Qt::Key_PageDown);  // no focus widget: the window gets the key
    QVERIFY(studio_->window->teleop().keyboard->holding());
    QTest::keyRelease(studio_->window.get(), Qt::Key_PageDown);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
  }

  void a_list_or_a_line_edit_keeps_its_keys() {
    enable();
    auto* list = studio_->window->findChild<QAbstractItemView*>();
    QVERIFY(list);
    QTest::keyPress(list, Qt::Key_Down);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QTest::keyRelease(list, Qt::Key_Down);
    // A line edit ignores ↑ and Qt passes it on to its parents: still the line edit's key.
    auto* edit = studio_->window->findChild<QLineEdit*>();
    QVERIFY(edit);
    QTest::keyPress(edit, Qt::Key_Up);
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QTest::keyRelease(edit, Qt::Key_Up);
  }

  void disabling_teleoperation_releases_a_held_key() {
    enable();
    QTest::keyPress(panel_->enable_button(), Qt::Key_Left);
    QVERIFY(studio_->window->teleop().keyboard->holding());
    controller_->disable();
    QVERIFY(!studio_->window->teleop().keyboard->holding());
    QVERIFY(!panel_->jog_pad()->axis_button(kX, -1)->isDown());
  }

 private:
  JointVector joints() const { return studio_->document->joints(); }
  Pose tcp(const JointVector& q) const { return kinematics_->tcp_in_base(q); }

  void enable() {
    if (!panel_->enable_button()->isChecked())
      QTest::mouseClick(panel_->enable_button(), Qt::LeftButton);
    QVERIFY(controller_->enabled());
  }

  void set_mode(JogMode mode) {
    panel_->mode_combo()->setCurrentIndex(panel_->mode_combo()->findData(int(mode)));
  }

  static void send_key(QWidget* to, QEvent::Type type, int key, Qt::KeyboardModifiers modifiers,
                       bool auto_repeat) {
    QKeyEvent event(type, key, modifiers, QString(), auto_repeat);
    QCoreApplication::sendEvent(to, &event);
  }

  std::unique_ptr<Studio> studio_;
  ServoPanel* panel_ = nullptr;
  TeleopController* controller_ = nullptr;
  std::unique_ptr<TcpKinematics> kinematics_;
};

QTEST_MAIN(KeyboardJogTest)
#include "keyboard_jog_test.moc"
