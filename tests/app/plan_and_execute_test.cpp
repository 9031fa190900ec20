// Qt Test: the Planner panel's Plan & Execute in a plain main window with a real document (the
// UR5e beside a box). The robot itself ends at the goal when the playback reaches the end, as one
// undo step, whatever start the panel names; a failing plan, a pause before the end, or the robot
// moved while planning leave it where it was.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_execution.hpp"
#include "app/planning/planning_features.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"
#include "ur5e_beside_box.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

using Fixture = test::Ur5eBesideBox;

// Seed 5, a time budget a loaded machine meets (the default 50 ms is not), and a fast playback
// (the tests wait for its end).
void prepare(Fixture& f) {
  f.features->planner_panel()->seed_edit()->setText(QStringLiteral("5"));
  f.features->planner_panel()->timeout_box()->setValue(5000.0);
  f.features->trajectories().playback().set_speed(4.0);
}

// Sets the goal joints and presses Plan & Execute; the plan's outcome, or an empty one when none
// came in a minute.
PlanOutcome plan_and_execute(Fixture& f, const JointVector& goal) {
  GoalState g;
  g.joints = goal;
  f.document.set_goal(g);
  prepare(f);
  QSignalSpy done(f.features, &PlanningFeatures::planFinished);
  if (!f.features->planner_panel()->plan_execute_button()->isEnabled()) return {};
  f.features->planner_panel()->plan_execute_button()->click();
  if (!done.wait(60000)) return {};
  return qvariant_cast<PlanOutcome>(done.first().at(0));
}

bool at(const JointVector& q, const JointVector& expected) {
  return q.size() == expected.size() && (q - expected).norm() < 1e-9;
}

}  // namespace

class PlanAndExecuteTest : public QObject {
  Q_OBJECT
 private slots:
  void the_robot_ends_at_the_goal_in_one_undo_step() {
    Fixture f;
    // Plan & Execute starts where the robot stands: with "Previous goal" and none yet, Plan fails.
    f.features->planner_panel()->start_combo()->setCurrentIndex(
        f.features->planner_panel()->start_combo()->findData(
            int(panels::PlanStartType::PreviousGoal)));
    const int steps_before = f.document.undo_stack().count();
    QSignalSpy executed(&f.features->execution(), &PlanExecution::finished);
    const PlanOutcome outcome = plan_and_execute(f, test::ur5e_arm(1.2));
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY(at(outcome.start, test::ur5e_arm(-1.2)));
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
    // Until the playback gets to the end only the ghost moves.
    QVERIFY(f.features->trajectories().playback().playing());
    QVERIFY(f.features->execution().pending());
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.2)));
    QVERIFY2(f.features->planner_panel()->result_label()->text().contains(
                 QStringLiteral("Plan &amp; Execute")),
             qPrintable(f.features->planner_panel()->result_label()->text()));

    QVERIFY(executed.wait(30000));
    QCOMPARE(executed.first().at(0).toBool(), true);
    const Trajectory& plan = f.document.trajectories()[0].trajectory;
    QVERIFY(at(f.document.joints(), plan.samples().back().position));
    QVERIFY((f.document.joints() - test::ur5e_arm(1.2)).norm() < 1e-6);
    // The plan added, then the robot moved: undo takes the move back and keeps the plan.
    QCOMPARE(f.document.undo_stack().count(), steps_before + 2);
    f.document.undo_stack().undo();
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.2)));
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
  }

  void a_failing_plan_moves_nothing() {
    Fixture f;
    const int steps_before = f.document.undo_stack().count();
    QSignalSpy executed(&f.features->execution(), &PlanExecution::finished);
    const PlanOutcome outcome =
        plan_and_execute(f, test::ur5e_arm(0.0));  // the goal is inside the box
    QVERIFY(!outcome.ok);
    const QString text = f.features->planner_panel()->result_label()->text();
    QVERIFY2(
        text.contains(QStringLiteral("Planning failed")) && text.contains(QStringLiteral("box1")),
        qPrintable(text));
    QVERIFY(!f.features->execution().pending());
    QVERIFY(f.document.trajectories().empty());
    QTest::qWait(300);
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.2)));
    QCOMPARE(f.document.undo_stack().count(), steps_before);
    QCOMPARE(executed.count(), 0);
  }

  void a_pause_before_the_end_calls_it_off() {
    Fixture f;
    QSignalSpy executed(&f.features->execution(), &PlanExecution::finished);
    QVERIFY(plan_and_execute(f, test::ur5e_arm(1.2)).ok);
    QVERIFY(f.features->execution().pending());
    f.features->trajectories().toggle_play();  // Space
    QCOMPARE(executed.count(), 1);
    QCOMPARE(executed.first().at(0).toBool(), false);
    QVERIFY(!f.features->execution().pending());
    const QString message = f.features->trajectories().trajectory_panel()->message_label()->text();
    QVERIFY2(message.contains(QStringLiteral("not executed")), qPrintable(message));
    // Played on to the end, it stays a preview.
    f.features->trajectories().toggle_play();
    QVERIFY(
        QTest::qWaitFor([&] { return !f.features->trajectories().playback().playing(); }, 30000));
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.2)));
  }

  // The plan starts from the state the robot had when asked: moved since, it is not executed.
  void the_robot_moved_while_planning_is_not_executed() {
    Fixture f;
    GoalState g;
    g.joints = test::ur5e_arm(1.2);
    f.document.set_goal(g);
    prepare(f);
    QSignalSpy done(f.features, &PlanningFeatures::planFinished);
    f.features->planner_panel()->plan_execute_button()->click();
    f.document.edit_joints(test::ur5e_arm(-1.0));  // before the plan's answer can be delivered
    QVERIFY(done.wait(60000));
    QVERIFY(qvariant_cast<PlanOutcome>(done.first().at(0)).ok);
    const QString text = f.features->planner_panel()->result_label()->text();
    QVERIFY2(text.contains(QStringLiteral("Not executed")) &&
                 text.contains(QStringLiteral("moved while planning")),
             qPrintable(text));
    QVERIFY(!f.features->execution().pending());
    QVERIFY(
        QTest::qWaitFor([&] { return !f.features->trajectories().playback().playing(); }, 30000));
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.0)));
  }

  // The newest request wins: a Plan pressed while Plan & Execute plans is only a plan.
  void a_plan_asked_for_after_it_is_not_executed() {
    Fixture f;
    GoalState g;
    g.joints = test::ur5e_arm(1.2);
    f.document.set_goal(g);
    prepare(f);
    QSignalSpy done(f.features, &PlanningFeatures::planFinished);
    f.features->planner_panel()->plan_execute_button()->click();
    f.features->plan();
    QVERIFY(done.wait(60000));
    QVERIFY(qvariant_cast<PlanOutcome>(done.last().at(0)).ok);
    QVERIFY(!f.features->execution().pending());
    QVERIFY(
        QTest::qWaitFor([&] { return !f.features->trajectories().playback().playing(); }, 30000));
    QVERIFY(at(f.document.joints(), test::ur5e_arm(-1.2)));
    QCOMPARE(f.document.trajectories().size(), std::size_t(1));
  }
};

QTEST_MAIN(PlanAndExecuteTest)
#include "plan_and_execute_test.moc"
