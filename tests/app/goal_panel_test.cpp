// Qt Test (offscreen): the goal panel shows a real UR5e TCP pose, reports typed poses in both
// orientation forms, its solution / status / transfer controls, and moving the goal by an offset.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include "app/goal/tcp_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "panels/goal_offset.hpp"
#include "panels/goal_panel.hpp"

Q_DECLARE_METATYPE(kinetic::Pose)

using kinetic::Pose;
using kinetic::panels::GoalPanel;

namespace {

Pose ur5e_tcp() {
  const auto robot = kinetic::load_builtin_robot("ur5e");
  kinetic::JointVector q(6);
  q << 0.3, -1.2, 1.4, -0.5, 1.1, 0.2;
  return kinetic::app::TcpKinematics(robot).tcp_in_base(q);
}

void type_value(QDoubleSpinBox* field, double value) {
  field->setValue(value);  // keyboard tracking is off: one valueChanged, as after Return
}

}  // namespace

class GoalPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void shows_pose_without_emitting() {
    GoalPanel panel;
    QSignalSpy edited(&panel, &GoalPanel::poseEdited);
    const Pose tcp = ur5e_tcp();
    panel.set_pose(tcp);
    QCOMPARE(edited.count(), 0);
    for (int i = 0; i < 3; ++i)
      QVERIFY(std::abs(panel.position_field(i)->value() - tcp.translation()[i]) < 1e-4);
    // The fields round-trip to the same pose (to the precision shown: 0.01° and 1e-4 m).
    const Pose back = panel.pose();
    QVERIFY((back.translation() - tcp.translation()).norm() < 1e-4);
    QVERIFY(Eigen::AngleAxisd(back.linear().transpose() * tcp.linear()).angle() < 1e-3);
  }

  void typed_position_and_rpy_are_reported() {
    GoalPanel panel;
    panel.set_pose(ur5e_tcp());
    QSignalSpy edited(&panel, &GoalPanel::poseEdited);
    type_value(panel.position_field(0), 0.42);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(qvariant_cast<Pose>(edited.last().first()).translation().x(), 0.42);
    type_value(panel.rpy_field(0), 180.0);
    type_value(panel.rpy_field(1), 0.0);
    type_value(panel.rpy_field(2), 90.0);
    const Pose typed = qvariant_cast<Pose>(edited.last().first());
    // roll 180° then yaw 90°: the tool's z points down, its x along world y.
    QVERIFY((typed.linear().col(2) - Eigen::Vector3d(0, 0, -1)).norm() < 1e-9);
    QVERIFY((typed.linear().col(0) - Eigen::Vector3d(0, 1, 0)).norm() < 1e-9);
    // The quaternion fields follow: (x, y, z, w) = (±0.7071, ±0.7071, 0, 0).
    QVERIFY(std::abs(std::abs(panel.quaternion_field(0)->value()) - 0.70711) < 1e-4);
    QVERIFY(std::abs(panel.quaternion_field(3)->value()) < 1e-4);
  }

  void typed_quaternion_is_normalised() {
    GoalPanel panel;
    panel.set_orientation_mode(GoalPanel::Orientation::Quaternion);
    QSignalSpy edited(&panel, &GoalPanel::poseEdited);
    type_value(panel.quaternion_field(3), 0.0);  // w = 0
    type_value(panel.quaternion_field(2), 1.0);  // z = 1: 180° about z
    const Pose typed = qvariant_cast<Pose>(edited.last().first());
    QVERIFY((typed.linear() - Eigen::Matrix3d(Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitZ())))
                .norm() < 1e-9);
    QVERIFY(std::abs(std::abs(panel.rpy_field(2)->value()) - 180.0) < 1e-6);
  }

  void solution_cycling_and_status() {
    GoalPanel panel;
    panel.set_solution(0, 0);  // nothing solved yet: not called a failure
    QVERIFY(panel.solution_text().isEmpty());
    QVERIFY(!panel.next_button()->isEnabled());
    panel.set_solution(2, 8);
    QCOMPARE(panel.solution_text(), QStringLiteral("solution 3 of 8"));
    QVERIFY(panel.next_button()->isEnabled());
    QSignalSpy next(&panel, &GoalPanel::nextSolutionRequested);
    QSignalSpy previous(&panel, &GoalPanel::previousSolutionRequested);
    QTest::mouseClick(panel.next_button(), Qt::LeftButton);
    QTest::mouseClick(panel.previous_button(), Qt::LeftButton);
    QCOMPARE(next.count(), 1);
    QCOMPARE(previous.count(), 1);
    panel.set_ik_status(QStringLiteral("unreachable: no IK solution"), true);
    QCOMPARE(panel.ik_status(), QStringLiteral("unreachable: no IK solution"));
  }

  void toggles_and_transfer_buttons_emit() {
    GoalPanel panel;
    // Collision-aware IK starts on (as RViz checks IK goals for collisions): the click turns it
    // off.
    QVERIFY(panel.collision_aware());
    QVERIFY(panel.collision_aware_box()->isChecked());
    QSignalSpy aware(&panel, &GoalPanel::collisionAwareChanged);
    QSignalSpy local(&panel, &GoalPanel::localFrameChanged);
    QSignalSpy from_current(&panel, &GoalPanel::goalFromCurrentRequested);
    QSignalSpy to_current(&panel, &GoalPanel::currentFromGoalRequested);
    panel.collision_aware_box()->click();
    panel.local_frame_box()->click();
    panel.goal_from_current_button()->click();
    panel.current_from_goal_button()->click();
    QCOMPARE(aware.count(), 1);
    QCOMPARE(aware.first().first().toBool(), false);
    QCOMPARE(local.count(), 1);
    QCOMPARE(from_current.count(), 1);
    QCOMPARE(to_current.count(), 1);
    panel.set_collision_aware(true);  // setters stay silent
    QCOMPARE(aware.count(), 1);
    QVERIFY(panel.collision_aware());
  }

  // The offset itself: in the tool's axes it follows the TCP's orientation, in the base's it does
  // not; a turn is about the TCP, which stays where it is.
  void offsets_go_along_the_tool_or_the_base_axes() {
    using kinetic::Vector3;
    using kinetic::panels::OffsetAxes;
    Pose tool_down = Pose::Identity();
    tool_down.translation() = Vector3(0.4, 0.1, 0.3);
    tool_down.linear() =
        Eigen::AngleAxisd(M_PI, Vector3::UnitX()).toRotationMatrix();  // tool z points down
    const Pose approach = kinetic::panels::offset_pose(tool_down, Vector3(0, 0, 0.1),
                                                       Vector3::Zero(), OffsetAxes::Tool);
    QVERIFY((approach.translation() - Vector3(0.4, 0.1, 0.2)).norm() <
            1e-12);  // 10 cm down, along tool z
    const Pose up = kinetic::panels::offset_pose(tool_down, Vector3(0, 0, 0.1), Vector3::Zero(),
                                                 OffsetAxes::Base);
    QVERIFY((up.translation() - Vector3(0.4, 0.1, 0.4)).norm() < 1e-12);
    const Pose turned = kinetic::panels::offset_pose(tool_down, Vector3::Zero(),
                                                     Vector3(0, 0, M_PI / 2), OffsetAxes::Base);
    QVERIFY((turned.translation() - tool_down.translation()).norm() < 1e-12);
    QVERIFY((turned.linear() * Vector3::UnitX() - Vector3::UnitY()).norm() <
            1e-12);  // tool x turned to base y
    const Pose rolled = kinetic::panels::offset_pose(tool_down, Vector3::Zero(),
                                                     Vector3(0, 0, M_PI / 2), OffsetAxes::Tool);
    QVERIFY((rolled.linear() * Vector3::UnitX() - Vector3(0, -1, 0)).norm() <
            1e-12);  // about tool z (down)
  }

  void move_goal_applies_the_typed_offset_and_reports_the_goal() {
    GoalPanel panel;
    const Pose tcp = ur5e_tcp();
    panel.set_pose(tcp);
    QSignalSpy edited(&panel, &GoalPanel::poseEdited);
    QVERIFY(!panel.offset_translation_field(2)->isVisibleTo(&panel));  // folded at first
    panel.offset_toggle()->click();
    QVERIFY(panel.offset_translation_field(2)->isVisibleTo(&panel));
    type_value(panel.offset_translation_field(2), 100.0);    // 100 mm along the tool's z
    QCOMPARE(edited.count(), 0);                             // typing the offset moves nothing
    QCOMPARE(panel.offset_axes_combo()->currentIndex(), 0);  // the tool's axes first
    panel.move_goal_button()->click();
    QCOMPARE(edited.count(), 1);
    const Pose moved = edited.first().at(0).value<Pose>();
    const kinetic::Vector3 expected = tcp.translation() + tcp.linear().col(2) * 0.1;
    QVERIFY((moved.translation() - expected).norm() <
            1e-4);  // the fields keep 4 decimals of a metre
    QVERIFY((panel.pose().translation() - moved.translation()).norm() <
            1e-4);  // the fields show it
    // Again along the base's axes: straight up.
    panel.offset_axes_combo()->setCurrentIndex(1);
    panel.move_goal_button()->click();
    QCOMPARE(edited.count(), 2);
    const Pose up = edited.last().at(0).value<Pose>();
    QVERIFY((up.translation() - (moved.translation() + kinetic::Vector3(0, 0, 0.1))).norm() < 1e-4);
  }
};

QTEST_MAIN(GoalPanelTest)
#include "goal_panel_test.moc"
