// Qt Test (offscreen): the panels inside the real studio (create_studio: StudioDocument,
// MainWindow, goal controller with IK on its worker thread), driven through their widgets and
// checked against the document. Without Vulkan on the offscreen platform the 3D view is the
// fallback label.
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QTreeWidget>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/studio_window_factory.hpp"
#include "engine/model/robot_loader.hpp"
#include "panels/goal_panel.hpp"
#include "panels/joints_panel.hpp"
#include "panels/robot_library_panel.hpp"
#include "support/units.hpp"

using kinetic::JointVector;
using kinetic::Pose;
using kinetic::app::GoalController;
using kinetic::app::Studio;
using kinetic::panels::GoalPanel;
using kinetic::panels::JointsPanel;
using kinetic::panels::RobotLibraryPanel;

namespace {

using kinetic::test::kDegree;
constexpr int kIkTimeoutMs = 20000;

// Types `value` into a spin box as a user would: select the text, type the number, press Return.
void type_into(QDoubleSpinBox* field, double value) {
  field->selectAll();
  QTest::keyClicks(field, field->locale().toString(value, 'f', field->decimals()));
  QTest::keyClick(field, Qt::Key_Return);
}

QPushButton* button_with_text(QWidget* parent, const QString& text) {
  for (QPushButton* button : parent->findChildren<QPushButton*>())
    if (button->text() == text) return button;
  return nullptr;
}

// The roll / pitch / yaw (radians) the goal panel shows for a rotation: R = Rz(yaw) Ry(pitch)
// Rx(roll), pitch within ±90°.
Eigen::Vector3d rpy_of(const Eigen::Matrix3d& r) {
  return {std::atan2(r(2, 1), r(2, 2)), std::asin(std::clamp(-r(2, 0), -1.0, 1.0)),
          std::atan2(r(1, 0), r(0, 0))};
}

double rotation_error(const Pose& a, const Pose& b) {
  return Eigen::AngleAxisd(a.linear().transpose() * b.linear()).angle();
}

bool poses_equal(const Pose& a, const Pose& b, double tolerance) {
  return (a.translation() - b.translation()).norm() < tolerance && rotation_error(a, b) < tolerance;
}

}  // namespace

class PanelsWithDocumentTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // Run outside CTest too without the modal crash-recovery question.
    qputenv("KINETIC_NO_RECOVERY", "1");
  }

  void init() {
    studio_ = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio_);
    QVERIFY(studio_->window);
    QCOMPARE(studio_->document->robot()->name(), std::string("ur5e"));
    studio_->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio_->window.get()));
  }

  void cleanup() { studio_.reset(); }

  // --- Joints panel -------------------------------------------------------------------------

  void slider_moves_document_joint_and_undo_restores() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    const auto robot = document.robot();
    const JointVector before = document.joints();
    QSlider* slider = panel->slider(1);
    slider->setValue(slider->maximum() / 4);  // what a drag to a quarter of the range reports
    const double lower = robot->lower_limits()[1], upper = robot->upper_limits()[1];
    const double expected = lower + 0.25 * (upper - lower);
    QVERIFY2(
        std::abs(document.joints()[1] - expected) < 1e-9,
        qPrintable(
            QStringLiteral("joint 2 is %1, expected %2").arg(document.joints()[1]).arg(expected)));
    for (int v = 0; v < robot->dof(); ++v)
      if (v != 1) QCOMPARE(document.joints()[v], before[v]);
    // The spin box of the row follows, in degrees.
    QVERIFY(std::abs(panel->spin_box(1)->value() - expected / kDegree) < 0.01);

    QVERIFY(document.undo_stack().canUndo());
    document.undo_stack().undo();  // Ctrl+Z
    QCOMPARE(document.joints(), before);
    QCOMPARE(panel->values(), before);
    QVERIFY(std::abs(panel->spin_box(1)->value() - before[1] / kDegree) < 0.01);
    document.undo_stack().redo();
    QVERIFY(std::abs(document.joints()[1] - expected) < 1e-9);
  }

  // MoveIt's Joints tab: the sliders set a joint-space goal; the robot stays where it is.
  void sliders_can_move_the_goal_instead_of_the_robot() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    const JointVector robot_before = document.joints();
    panel->target_combo()->setCurrentIndex(1);  // Sliders move the goal
    QCOMPARE(panel->target(), JointsPanel::Target::Goal);
    QCOMPARE(panel->values(), robot_before);  // no joint goal yet: it starts where the robot is
    QSlider* slider = panel->slider(0);
    slider->setValue(slider->maximum() / 4);
    QVERIFY(document.goal().joints.has_value());
    const double moved = (*document.goal().joints)[0];
    QVERIFY(std::abs(moved - robot_before[0]) > 0.1);
    QCOMPARE(document.joints(), robot_before);      // the robot stayed
    QVERIFY(document.goal().tcp_pose.has_value());  // the goal has its TCP pose for the ghost
    // Back to the robot: the sliders show it again; the goal keeps its joints.
    panel->target_combo()->setCurrentIndex(0);
    QCOMPARE(panel->values(), robot_before);
    QCOMPARE((*document.goal().joints)[0], moved);
    // The goal edit is one undo step like any goal edit.
    document.undo_stack().undo();
    QVERIFY(!document.goal().joints || std::abs((*document.goal().joints)[0] - moved) > 1e-9);
  }

  void typed_spin_box_value_moves_document_joint_and_undo_restores() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    const JointVector before = document.joints();
    QDoubleSpinBox* spin = panel->spin_box(2);
    QVERIFY(panel->uses_degrees());
    // A value with decimals: every keystroke is reported (keyboard tracking), and the panel must
    // not rewrite the text under the user's fingers.
    type_into(spin, -30.5);
    QVERIFY2(std::abs(document.joints()[2] - (-30.5 * kDegree)) < 1e-9,
             qPrintable(QStringLiteral("typed -30.5°, the document has %1°")
                            .arg(document.joints()[2] / kDegree)));
    QVERIFY(std::abs(spin->value() - (-30.5)) < 1e-9);
    QCOMPARE(document.joints()[0], before[0]);
    // The keystrokes of one typed value are one undo step.
    document.undo_stack().undo();
    QCOMPARE(document.joints(), before);
    QVERIFY(std::abs(spin->value() - before[2] / kDegree) < 0.01);
  }

  void keyboard_steps_move_document_joint() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    const JointVector before = document.joints();
    QTest::keyClick(panel->spin_box(0), Qt::Key_PageUp);  // +10°
    QVERIFY(std::abs(document.joints()[0] - (before[0] + 10 * kDegree)) < 1e-9);
    QTest::keyClick(panel->slider(0), Qt::Key_Down);  // -1°
    QVERIFY(std::abs(document.joints()[0] - (before[0] + 9 * kDegree)) < 1e-9);
  }

  void named_pose_applied_from_panel() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    const auto robot = document.robot();
    // Move away from home first (the studio opens there).
    panel->slider(0)->setValue(panel->slider(0)->maximum() / 3);
    QVERIFY(document.joints() != robot->named_pose("home"));

    const int index = panel->named_poses()->findText(QStringLiteral("home"));
    QVERIFY(index >= 0);
    panel->named_poses()->setCurrentIndex(index);
    QPushButton* apply = button_with_text(panel, QStringLiteral("Apply"));
    QVERIFY(apply);
    QVERIFY(apply->isEnabled());
    QTest::mouseClick(apply, Qt::LeftButton);
    QCOMPARE(document.joints(), robot->named_pose("home"));
    QCOMPARE(panel->values(), robot->named_pose("home"));

    // And another one, so a panel that always applied "home" fails here.
    panel->named_poses()->setCurrentIndex(panel->named_poses()->findText(QStringLiteral("ready")));
    QTest::mouseClick(apply, Qt::LeftButton);
    QCOMPARE(document.joints(), robot->named_pose("ready"));
    document.undo_stack().undo();
    QCOMPARE(document.joints(), robot->named_pose("home"));
  }

  void loading_another_robot_rebuilds_rows() {
    auto& document = *studio_->document;
    JointsPanel* panel = studio_->window->joints_panel();
    QCOMPARE(panel->findChildren<QSlider*>().size(), qsizetype(6));
    QCOMPARE(panel->findChildren<QDoubleSpinBox*>().size(), qsizetype(6));

    // Through the robot library: search, pick, Load.
    auto* library = studio_->window->findChild<RobotLibraryPanel*>();
    QVERIFY(library);
    library->search_box()->clear();
    QTest::keyClicks(library->search_box(), QStringLiteral("panda"));
    QCOMPARE(library->visible_names(), QStringList{QStringLiteral("panda")});
    QPushButton* load = button_with_text(library, QStringLiteral("Load"));
    QVERIFY(load);
    QVERIFY(load->isEnabled());
    QTest::mouseClick(load, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(document.robot()->name(), std::string("panda"),
                              10000);  // loads in the background

    const int dof = document.robot()->dof();
    QCOMPARE(dof, 7);
    QCOMPARE(panel->findChildren<QSlider*>().size(), qsizetype(dof));
    QCOMPARE(panel->findChildren<QDoubleSpinBox*>().size(), qsizetype(dof));
    // Each row shows the new robot's limits and the document's values.
    const JointVector upper = document.robot()->upper_limits();
    for (int v = 0; v < dof; ++v) {
      QVERIFY(std::abs(panel->spin_box(v)->maximum() - upper[v] / kDegree) < 0.01);
      QVERIFY(std::abs(panel->spin_box(v)->value() - document.joints()[v] / kDegree) < 0.01);
    }
    QCOMPARE(panel->values(), document.joints());
    // The new rows edit the new robot.
    panel->spin_box(6)->setValue(45.0);
    QVERIFY(std::abs(document.joints()[6] - 45.0 * kDegree) < 1e-9);
    // The named poses are the new robot's.
    QCOMPARE(panel->named_poses()->count(),
             static_cast<int>(document.robot()->named_pose_names().size()));
  }

  void continuous_joint_wraps_instead_of_clamping() {
    // The Kinova Gen3's joint1 is continuous, joint2 is revolute with limits.
    auto& document = *studio_->document;
    QVERIFY(document.load_robot(QStringLiteral("gen3")).isEmpty());
    JointsPanel* panel = studio_->window->joints_panel();
    const auto robot = document.robot();
    QCOMPARE(robot->variable_joint(0).type, kinetic::JointType::Continuous);
    QCOMPARE(robot->variable_joint(1).type, kinetic::JointType::Revolute);
    QVERIFY(panel->spin_box(0)->wrapping());
    QVERIFY(!panel->spin_box(1)->wrapping());

    JointVector q = document.joints();
    q[0] = 179.5 * kDegree;
    q[1] = robot->upper_limits()[1] - 0.5 * kDegree;
    document.set_joints(q);
    QVERIFY(std::abs(panel->spin_box(0)->value() - 179.5) < 1e-9);

    // One degree up from 179.5°: the continuous joint comes round to -179.5° ...
    QTest::keyClick(panel->spin_box(0), Qt::Key_Up);
    QVERIFY2(std::abs(document.joints()[0] - (-179.5 * kDegree)) < 1e-9,
             qPrintable(QStringLiteral("joint1 is %1°").arg(document.joints()[0] / kDegree)));
    QVERIFY(std::abs(panel->spin_box(0)->value() - (-179.5)) < 1e-9);
    // ... and back down past -180° to +179.5°.
    QTest::keyClick(panel->spin_box(0), Qt::Key_Down);
    QTest::keyClick(panel->spin_box(0), Qt::Key_Down);
    QVERIFY(std::abs(document.joints()[0] - 178.5 * kDegree) < 1e-9);
    // The revolute joint stops at its limit.
    QTest::keyClick(panel->spin_box(1), Qt::Key_Up);
    QCOMPARE(document.joints()[1], robot->upper_limits()[1]);

    // A pasted configuration wraps the continuous joint into ±180°.
    QApplication::clipboard()->setText(QStringLiteral("[4, 0, 0, 0, 0, 0, 0]"));
    QPushButton* paste = button_with_text(panel, QStringLiteral("Paste"));
    QVERIFY(paste);
    QTest::mouseClick(paste, Qt::LeftButton);
    QVERIFY2(std::abs(document.joints()[0] - (4.0 - 2.0 * std::numbers::pi)) < 1e-9,
             qPrintable(panel->last_message()));
  }

  // --- Goal panel ---------------------------------------------------------------------------

  void typed_goal_pose_is_solved_cycled_and_failures_keep_the_goal() {
    auto& document = *studio_->document;
    GoalPanel* panel = studio_->window->goal_panel();
    GoalController* goal = studio_->window->goal_controller();
    QVERIFY(goal->kinematics());
    QVERIFY(!document.goal().joints);
    QCOMPARE(panel->orientation_mode(), GoalPanel::Orientation::RollPitchYaw);

    // The UR5e's "ready" TCP, typed to the panel's precision (0.1 mm, 0.01°).
    const Pose ready = goal->kinematics()->tcp_in_base(document.robot()->named_pose("ready"));
    QVERIFY((ready.translation() - goal->kinematics()->tcp_in_base(document.joints()).translation())
                .norm() > 0.05);
    const Eigen::Vector3d rpy = rpy_of(ready.linear());
    for (int axis = 0; axis < 3; ++axis)
      type_into(panel->position_field(axis), ready.translation()[axis]);
    for (int axis = 0; axis < 3; ++axis) type_into(panel->rpy_field(axis), rpy[axis] / kDegree);
    const Pose typed = panel->pose();
    QVERIFY(poses_equal(typed, ready, 1e-3));

    // IK answers on its worker thread; the last typed pose wins.
    QTRY_VERIFY_WITH_TIMEOUT(!goal->ik_busy() && document.goal().joints &&
                                 document.goal().tcp_pose &&
                                 poses_equal(*document.goal().tcp_pose, typed, 1e-9),
                             kIkTimeoutMs);
    QVERIFY2(!goal->ik_failed(), qPrintable(goal->ik_status()));
    const JointVector first = *document.goal().joints;
    QCOMPARE(first.size(), document.robot()->dof());
    const Pose reached = goal->kinematics()->tcp_in_base(first);
    QVERIFY2((reached.translation() - typed.translation()).norm() < 1e-3,
             qPrintable(QStringLiteral("IK answer is %1 m from the typed position")
                            .arg((reached.translation() - typed.translation()).norm())));
    QVERIFY(rotation_error(reached, typed) < 1e-3);
    QVERIFY(document.robot()->within_limits(first));
    // The panel reports it.
    QVERIFY2(panel->ik_status().contains(QStringLiteral("IK ok")), qPrintable(panel->ik_status()));
    const int count = goal->solution_count();
    QVERIFY2(count > 1, "the UR5e's analytic IK should give several solutions for this pose");
    QCOMPARE(goal->solution_index(), 0);
    QCOMPARE(panel->solution_text(), QStringLiteral("solution 1 of %1").arg(count));
    QVERIFY(panel->next_button()->isEnabled());
    // The typed fields stay as typed.
    QVERIFY(poses_equal(panel->pose(), typed, 1e-6));

    // Next: another analytic solution of the same pose.
    QTest::mouseClick(panel->next_button(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!goal->ik_busy() && goal->solution_index() != 0, kIkTimeoutMs);
    QCOMPARE(goal->solution_index(), 1);
    QCOMPARE(panel->solution_text(), QStringLiteral("solution 2 of %1").arg(count));
    const JointVector second = *document.goal().joints;
    QVERIFY2((second - first).norm() > 1e-3, "Next did not change the goal joints");
    const Pose reached_second = goal->kinematics()->tcp_in_base(second);
    QVERIFY((reached_second.translation() - typed.translation()).norm() < 1e-3);
    QVERIFY(rotation_error(reached_second, typed) < 1e-3);

    // Unreachable (5 m away): a failure with the reason; the goal joints stay.
    type_into(panel->position_field(0), 5.0);
    QTRY_VERIFY_WITH_TIMEOUT(!goal->ik_busy() && goal->ik_failed(), kIkTimeoutMs);
    QVERIFY2(panel->ik_status().contains(QStringLiteral("unreachable")),
             qPrintable(panel->ik_status()));
    QCOMPARE(panel->ik_status(), goal->ik_status());
    QVERIFY(document.goal().joints);
    QCOMPARE(*document.goal().joints, second);
    // The field shows what was typed (no snapping back).
    QVERIFY(std::abs(panel->position_field(0)->value() - 5.0) < 1e-9);
  }

  // --- Robot library panel ------------------------------------------------------------------

  void maker_search_filters_and_load_sets_document_robot() {
    auto& document = *studio_->document;
    auto* library = studio_->window->findChild<RobotLibraryPanel*>();
    QVERIFY(library);
    const QStringList all = library->visible_names();
    QStringList kuka;
    for (const auto& robot : kinetic::builtin_robots())
      if (QString::fromStdString(robot.manufacturer) == QStringLiteral("KUKA"))
        kuka << QString::fromStdString(robot.name);
    kuka.sort();
    QVERIFY(kuka.size() >= 2);
    QVERIFY(all.size() > kuka.size());

    library->search_box()->clear();
    QTest::keyClicks(library->search_box(), QStringLiteral("KUKA"));
    QStringList shown = library->visible_names();
    shown.sort();
    QCOMPARE(shown, kuka);

    // Pick the iiwa 7 in the list and load it.
    const auto items = library->list()->findItems(QStringLiteral("iiwa7"), Qt::MatchExactly, 0);
    QCOMPARE(items.size(), qsizetype(1));
    QVERIFY(!items.first()->isHidden());
    library->list()->setCurrentItem(items.first());
    QCOMPARE(library->current_name(), QStringLiteral("iiwa7"));
    QPushButton* load = button_with_text(library, QStringLiteral("Load"));
    QVERIFY(load);
    QTest::mouseClick(load, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(document.robot()->name(), std::string("iiwa7"),
                              10000);  // loads in the background
    QCOMPARE(document.robot_reference(), QStringLiteral("iiwa7"));
    QCOMPARE(document.joints().size(), document.robot()->dof());
    // The rest of the studio follows: joints rows and the goal controller's kinematics.
    QCOMPARE(studio_->window->joints_panel()->findChildren<QSlider*>().size(),
             qsizetype(document.robot()->dof()));
    QVERIFY(studio_->window->goal_controller()->kinematics());

    // Another pick by keyboard (Return activates the current item).
    const auto kr6 =
        library->list()->findItems(QStringLiteral("kr6_r700_sixx"), Qt::MatchExactly, 0);
    QCOMPARE(kr6.size(), qsizetype(1));
    library->list()->setCurrentItem(kr6.first());
    QTest::keyClick(library->list(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(document.robot()->name(), std::string("kr6_r700_sixx"), 10000);
  }

 private:
  std::unique_ptr<Studio> studio_;
};

QTEST_MAIN(PanelsWithDocumentTest)
#include "panels_with_document_test.moc"
