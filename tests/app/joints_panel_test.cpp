// Qt Test: the joints panel on a real built-in robot (offscreen platform).
#include <QSignalSpy>
#include <QSlider>
#include <QDoubleSpinBox>
#include <QtTest>
#include <numbers>

#include "engine/model/robot_loader.hpp"
#include "panels/joints_panel.hpp"

Q_DECLARE_METATYPE(kinetic::JointVector)

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
    QVERIFY(std::abs(panel.spin_box(1)->value() - robot->upper_limits()[1] * 180.0 / std::numbers::pi) < 1e-2);
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

  void set_values_does_not_emit() {
    kinetic::panels::JointsPanel panel;
    const auto robot = kinetic::load_builtin_robot("ur5e");
    panel.set_robot(robot);
    QSignalSpy spy(&panel, &kinetic::panels::JointsPanel::valuesEdited);
    panel.set_values(robot->mid_configuration());
    QCOMPARE(spy.count(), 0);
    QCOMPARE(panel.values(), robot->mid_configuration());
  }
};

QTEST_MAIN(JointsPanelTest)
#include "joints_panel_test.moc"
