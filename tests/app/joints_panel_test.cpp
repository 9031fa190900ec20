// Qt Test: the joints panel on a real built-in robot (offscreen platform).
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>
#include <numbers>

#include "engine/model/robot_loader.hpp"
#include "panels/joints_panel.hpp"

Q_DECLARE_METATYPE(kinetic::JointVector)

namespace {
// A chain of `joints` revolute joints named j0 … j<joints-1>, limits ±1 rad.
kinetic::RobotModelPtr long_chain(int joints) {
  std::string urdf = "<robot name=\"chain\"><link name=\"l0\"/>";
  for (int i = 0; i < joints; ++i) {
    const std::string parent = "l" + std::to_string(i), child = "l" + std::to_string(i + 1);
    urdf += "<link name=\"" + child + "\"/><joint name=\"j" + std::to_string(i) +
            "\" type=\"revolute\"><parent link=\"" + parent + "\"/><child link=\"" + child +
            "\"/><origin xyz=\"0 0 0.01\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" "
            "upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>";
  }
  return kinetic::load_robot_string(urdf + "</robot>");
}
}  // namespace

class JointsPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void one_row_per_joint_with_limits() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    QCOMPARE(robot->dof(), 6);
    for (int v = 0; v < robot->dof(); ++v) {
      QVERIFY(panel.slider(v) != nullptr);
      QCOMPARE(panel.spin_box(v)->maximum(), robot->upper_limits()[v] * 180.0 / std::numbers::pi);
    }
  }

  void slider_edit_reports_new_values() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    panel.set_values(robot->zero_configuration());
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    panel.slider(1)->setValue(panel.slider(1)->maximum());
    QCOMPARE(spy.count(), 1);
    const auto q = qvariant_cast<kinetic::JointVector>(spy.first().first());
    QCOMPARE(q[1], robot->upper_limits()[1]);
    QCOMPARE(q[0], robot->zero_configuration()[0]);
    // The spin box follows the slider, in degrees.
    QVERIFY(std::abs(panel.spin_box(1)->value() -
                     robot->upper_limits()[1] * 180.0 / std::numbers::pi) < 1e-2);
  }

  void spin_box_in_radians() {
    kinetic::panels::JointsPanel panel;
    panel.set_robot(kinetic::load_builtin_robot("ur5e"));
    panel.set_uses_degrees(false);
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    panel.spin_box(2)->setValue(0.5);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.values()[2], 0.5);
  }

  // Typing a value into a joint's field is one edit, made when it is committed (Enter, or leaving
  // the field): "30" was two edits, the robot at 3° on the way, and two undo steps.
  void typing_a_value_is_one_edit_made_on_enter() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    panel.set_values(robot->zero_configuration());
    panel.show();
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    QDoubleSpinBox* field = panel.spin_box(2);
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("30"));
    QCOMPARE(spy.count(), 0);  // nothing moves while typing
    QCOMPARE(panel.values()[2], 0.0);
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    const auto q = qvariant_cast<kinetic::JointVector>(spy.first().first());
    QVERIFY2(std::abs(q[2] - 30.0 * std::numbers::pi / 180.0) < 1e-9,
             qPrintable(QString::number(q[2])));
    // Enter again without a change edits nothing.
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
  }

  // A robot with more joints than the panel shows editors for: the first kRowsShownAtMost have
  // editors, a name filter finds the others, and edits, values and paste still cover every joint.
  void a_robot_with_many_joints_gets_a_filter() {
    using kinetic::panels::JointsPanel;
    JointsPanel panel;
    panel.set_robot(kinetic::load_builtin_robot("ur5e"));
    QVERIFY(panel.joint_filter()->isHidden());  // six joints: no filter, every row shown
    QVERIFY(panel.shown_rows_note().isEmpty());
    const auto robot = long_chain(300);
    panel.set_robot(robot);
    QVERIFY(!panel.joint_filter()->isHidden());
    QVERIFY(panel.slider(JointsPanel::kRowsShownAtMost - 1) != nullptr);
    QVERIFY(panel.slider(JointsPanel::kRowsShownAtMost) == nullptr);
    QVERIFY2(panel.shown_rows_note().contains(QStringLiteral("300 joints")),
             qPrintable(panel.shown_rows_note()));
    // "j29" matches j29 and j290 … j299: eleven rows, the others have no editors.
    panel.joint_filter()->setText(QStringLiteral("J29"));
    QVERIFY2(panel.shown_rows_note().startsWith(QStringLiteral("11 of 300 joints")),
             qPrintable(panel.shown_rows_note()));
    QVERIFY(panel.slider(0) == nullptr);
    QVERIFY(panel.slider(29) != nullptr && panel.slider(299) != nullptr);
    QSignalSpy spy(&panel, &JointsPanel::valuesEdited);
    panel.slider(299)->setValue(panel.slider(299)->maximum());
    QCOMPARE(spy.count(), 1);
    const auto q = qvariant_cast<kinetic::JointVector>(spy.first().first());
    QCOMPARE(q.size(), 300);
    QCOMPARE(q[299], 1.0);
    // Values set from outside reach the shown editors; those of hidden rows are kept.
    kinetic::JointVector set = robot->zero_configuration();
    set[0] = 0.5;
    set[290] = -0.5;
    panel.set_values(set);
    QCOMPARE(panel.values()[0], 0.5);
    QVERIFY(std::abs(panel.spin_box(290)->value() + 0.5 * 180.0 / std::numbers::pi) < 1e-2);
    // Paste covers every joint, shown or not.
    QStringList numbers;
    for (int v = 0; v < 300; ++v) numbers << QStringLiteral("0.25");
    QVERIFY(panel.paste_text(numbers.join(QLatin1Char(','))));
    QCOMPARE(panel.values()[5], 0.25);
    panel.joint_filter()->setText(QStringLiteral("nothing"));
    QVERIFY(panel.shown_rows_note().contains(QStringLiteral("No joint name")));
    panel.joint_filter()->clear();
    QVERIFY(panel.slider(0) != nullptr);
    QVERIFY(std::abs(panel.spin_box(0)->value() - 0.25 * 180.0 / std::numbers::pi) < 1e-2);
  }

  void set_values_does_not_emit() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    panel.set_values(robot->mid_configuration());
    QCOMPARE(spy.count(), 0);
    QCOMPARE(panel.values(), robot->mid_configuration());
  }
  void named_poses_zero_and_mid() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    QVERIFY(panel.named_poses()->findText(QStringLiteral("home")) >= 0);
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    QVERIFY(panel.apply_named_pose(QStringLiteral("home")));
    QCOMPARE(panel.values(), robot->named_pose("home"));
    QVERIFY(!panel.apply_named_pose(QStringLiteral("nowhere")));
    QVERIFY(panel.last_message().contains(QStringLiteral("home")));  // lists the known poses
    panel.apply_mid();
    QCOMPARE(panel.values(), robot->mid_configuration());
    panel.apply_zero();
    QCOMPARE(panel.values(), robot->zero_configuration());
    QCOMPARE(spy.count(), 3);
  }

  void random_pose_is_collision_free_by_the_callback() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    panel.set_random_seed(7);
    // Accept only configurations with a positive first joint: the panel must keep sampling.
    int calls = 0;
    panel.set_state_check([&](const kinetic::JointVector& q) {
      ++calls;
      return q[0] > 0.0;
    });
    QVERIFY(panel.apply_random_free());
    QVERIFY(panel.values()[0] > 0.0);
    QVERIFY(robot->within_limits(panel.values()));
    // Nothing is ever free: a message after the attempts, values unchanged.
    const kinetic::JointVector before = panel.values();
    calls = 0;
    panel.set_state_check([&](const kinetic::JointVector&) { return ++calls, false; });
    QVERIFY(!panel.apply_random_free());
    QCOMPARE(calls, kinetic::panels::JointsPanel::kRandomFreeAttempts);
    QCOMPARE(panel.values(), before);
    QVERIFY(panel.last_message().contains(QStringLiteral("200")));
  }

  void random_pose_says_when_the_scene_was_not_checked() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    panel.set_random_seed(11);
    QString skipped =
        QStringLiteral("object 'fixture': collision mesh file not found: /cell/fixture.stl");
    panel.set_state_check([](const kinetic::JointVector&) { return true; },
                          [&] { return skipped; });
    QVERIFY(panel.apply_random_free());  // the pose is still set: free of self-collision
    QVERIFY2(panel.last_message().contains(
                 QStringLiteral("The scene was not checked: object 'fixture': collision mesh "
                                "file not found: /cell/fixture.stl.")) &&
                 panel.last_message().contains(QStringLiteral("free of self-collision only")),
             qPrintable(panel.last_message()));
    // Nothing free: the failure does not blame the scene's free space, which was never looked at.
    panel.set_state_check([](const kinetic::JointVector&) { return false; },
                          [&] { return skipped; });
    QVERIFY(!panel.apply_random_free());
    QVERIFY2(
        panel.last_message().contains(QStringLiteral("scene was not checked: object 'fixture'")) &&
            !panel.last_message().contains(QStringLiteral("little free space")),
        qPrintable(panel.last_message()));
    // Once the scene is checked again, nothing is said.
    skipped.clear();
    panel.set_state_check([](const kinetic::JointVector&) { return true; },
                          [&] { return skipped; });
    QVERIFY(panel.apply_random_free());
    QVERIFY2(panel.last_message().isEmpty(), qPrintable(panel.last_message()));
  }

  void copy_and_paste_as_text() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    kinetic::JointVector q = robot->mid_configuration();
    q[0] = 0.1;
    q[1] = -1.2;
    panel.set_values(q);
    panel.copy_to_clipboard();
    const QString text = QApplication::clipboard()->text();
    QVERIFY2(text.startsWith(QStringLiteral("[0.1, -1.2, ")), qPrintable(text));
    panel.apply_zero();
    QVERIFY(panel.paste_from_clipboard());
    QCOMPARE(panel.values(), q);  // shortest round-trip numbers: exact
    // Clear messages for bad text; nothing changes.
    QVERIFY(!panel.paste_text(QStringLiteral("[1, 2, 3]")));
    QVERIFY(panel.last_message().contains(QStringLiteral("3 values")));
    QVERIFY(panel.last_message().contains(QStringLiteral("6 joints")));
    QVERIFY(!panel.paste_text(QStringLiteral("[0, 0, nan, 0, 0, 0]")));
    QVERIFY(panel.last_message().contains(QStringLiteral("not a finite number")));
    QVERIFY(!panel.paste_text(QStringLiteral("0 0 0 0 0 abc")));
    QVERIFY(!panel.paste_text(QStringLiteral("[0, 9, 0, 0, 0, 0]")));
    QVERIFY(panel.last_message().contains(QStringLiteral("outside its limits")));
    QCOMPARE(panel.values(), q);
    // Spaces without brackets work too.
    QVERIFY(panel.paste_text(QStringLiteral("0 0.5 0 0 0 0")));
    QCOMPARE(panel.values()[1], 0.5);
  }

  void keyboard_steps_one_and_ten_degrees() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    panel.set_uses_degrees(false);  // steps are degrees whatever the display unit
    panel.set_values(robot->zero_configuration());
    const double degree = std::numbers::pi / 180.0;
    QTest::keyClick(panel.spin_box(2), Qt::Key_Up);
    QVERIFY(std::abs(panel.values()[2] - degree) < 1e-12);
    QTest::keyClick(panel.slider(2), Qt::Key_PageUp);
    QVERIFY(std::abs(panel.values()[2] - 11 * degree) < 1e-12);
    QTest::keyClick(panel.spin_box(2), Qt::Key_PageDown);
    QTest::keyClick(panel.spin_box(2), Qt::Key_Down);
    QVERIFY(std::abs(panel.values()[2]) < 1e-12);
    // Steps stop at the limit.
    kinetic::JointVector q = robot->zero_configuration();
    q[1] = robot->upper_limits()[1] - degree / 2;
    panel.set_values(q);
    QTest::keyClick(panel.spin_box(1), Qt::Key_PageUp);
    QCOMPARE(panel.values()[1], robot->upper_limits()[1]);
  }
};

QTEST_MAIN(JointsPanelTest)
#include "joints_panel_test.moc"
