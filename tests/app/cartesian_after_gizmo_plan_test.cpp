// Qt Test: the MoveIt user's order — drag the goal gizmo first (a goal with joints and a TCP pose),
// then choose the Cartesian planner and plan. The Planner panel switches its goal to the TCP pose,
// so the plan runs the straight line instead of failing with "Cartesian mode needs a TCP pose
// goal"; back on RRT-Connect it plans to the goal joints again.
#include <QComboBox>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "panels/planner_panel.hpp"

using namespace kinetic;
using namespace kinetic::app;

class CartesianAfterGizmoPlanTest : public QObject {
  Q_OBJECT
 private slots:
  void cartesian_chosen_after_the_gizmo_plans_the_line_to_its_pose() {
    QMainWindow window;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    PlanningFeatures* features = install_planning_features(window, document);
    panels::PlannerPanel* panel = features->planner_panel();
    const JointVector start = (JointVector(6) << 0.0, -1.2, 1.2, -1.57, -1.57, 0.0).finished();
    document.set_joints(start);

    // What a gizmo drag leaves: the IK solution and the pose, 10 cm straight up.
    GoalState goal;
    goal.tcp_pose = Planner(document.robot()).tcp_pose(start);
    goal.tcp_pose->translation().z() += 0.1;
    goal.joints = start;  // any IK solution: the Cartesian line must not use it
    document.set_goal(goal);
    QCOMPARE(panel->goal_type(), panels::PlanGoalType::Joints);  // a search planner's default

    panel->planner_combo()->setCurrentIndex(
        panel->planner_combo()->findData(QStringLiteral("cartesian")));
    QCOMPARE(panel->goal_type(), panels::PlanGoalType::TcpPose);
    QVERIFY(panel->plan_button()->isEnabled());
    const auto plan = [&] {
      QSignalSpy done(features, &PlanningFeatures::planFinished);
      panel->plan_button()->click();
      return done.wait(30000) ? qvariant_cast<PlanOutcome>(done.first().at(0)) : PlanOutcome{};
    };
    const PlanOutcome line = plan();
    QVERIFY2(line.ok && line.cartesian, qPrintable(line.error));
    QVERIFY(line.cartesian->complete());

    panel->planner_combo()->setCurrentIndex(
        panel->planner_combo()->findText(QStringLiteral("RRT-Connect")));
    QCOMPARE(panel->goal_type(), panels::PlanGoalType::Joints);
  }
};

QTEST_MAIN(CartesianAfterGizmoPlanTest)
#include "cartesian_after_gizmo_plan_test.moc"
