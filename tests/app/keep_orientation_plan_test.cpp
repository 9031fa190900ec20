// Qt Test: "Keep TCP orientation" from the Planner panel through the plan worker on the UR5e —
// every waypoint keeps the start's TCP orientation and the result says so; a goal (or a random
// start's goal) with another orientation fails with the engine's message naming the violation.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "panels/planner_panel.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

constexpr double kToleranceDegrees = 5.0;
constexpr double kTolerance = kToleranceDegrees * M_PI / 180.0;

double orientation_distance(const Pose& a, const Pose& b) {
  return Quaternion(a.linear()).angularDistance(Quaternion(b.linear()));
}

struct Fixture {
  QMainWindow window;
  StudioDocument document;
  PlanningFeatures* features = nullptr;
  JointVector start;
  Fixture() {
    if (!document.load_robot(QStringLiteral("ur5e")).isEmpty()) qFatal("ur5e did not load");
    features = install_planning_features(window, document);
    start = document.robot()->named_pose("ready");
    document.set_joints(start);
    panels::PlannerPanel* panel = features->planner_panel();
    panel->keep_orientation_box()->setChecked(true);
    panel->orientation_tolerance_box()->setValue(kToleranceDegrees);
    panel->timeout_box()->setValue(test::generous_ms(10000.0));
    panel->iterations_box()->setValue(1000000);
    panel->seed_edit()->setText(QStringLiteral("7"));
  }
  Pose tcp(const JointVector& q) const { return Planner(document.robot()).tcp_pose(q); }
  PlanOutcome plan_to(const JointVector& goal) {
    GoalState g;
    g.joints = goal;
    document.set_goal(g);
    QSignalSpy done(features, &PlanningFeatures::planFinished);
    features->planner_panel()->plan_button()->click();
    if (!done.wait(static_cast<int>(test::generous_ms(60000.0)))) return {};
    return qvariant_cast<PlanOutcome>(done.first().at(0));
  }
  QString result_text() const { return features->planner_panel()->result_label()->text(); }
};

}  // namespace

class KeepOrientationPlanTest : public QObject {
  Q_OBJECT
 private slots:
  void every_waypoint_keeps_the_start_orientation() {
    Fixture f;
    // A goal with the start's TCP orientation, swung 1.2 rad about the base z axis. With the tool
    // tilted (wrist 2 off -pi/2) the straight joint move there turns the TCP beyond the tolerance.
    f.start[4] = -0.9;
    f.document.set_joints(f.start);
    Planner probe(f.document.robot());
    const Pose from = probe.tcp_pose(f.start);
    Pose target = from;
    target.translation() = Eigen::AngleAxisd(1.2, Vector3::UnitZ()) * from.translation();
    const JointVector goal = probe.resolve_goal(f.start, PoseGoal{target}).front();
    QVERIFY(orientation_distance(probe.tcp_pose(goal), from) < 1e-3);
    QVERIFY2(orientation_distance(probe.tcp_pose(0.5 * (f.start + goal)), from) > kTolerance + 0.02,
             "the straight joint move must break the orientation");

    const PlanOutcome outcome = f.plan_to(goal);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY((outcome.start - f.start).norm() < 1e-12);
    QCOMPARE(outcome.stats.planner, std::string("constrained_rrt_connect"));
    QVERIFY(outcome.stats.path.size() >= 2);
    for (const JointVector& q : outcome.stats.path) {
      const double off = orientation_distance(probe.tcp_pose(q), from);
      QVERIFY2(off <= kTolerance + 1e-3,
               qPrintable(QStringLiteral("waypoint %1 rad off").arg(off)));
    }
    // What the arm does: the timed trajectory, between its samples too (dense path, small slack).
    const Trajectory& t = outcome.trajectory;
    QVERIFY((t.samples().back().position - goal).norm() < 1e-6);
    for (int i = 0; i <= 500; ++i) {
      const double time = t.start_time() + (t.end_time() - t.start_time()) * i / 500.0;
      const double off = orientation_distance(probe.tcp_pose(t.sample(time).position), from);
      QVERIFY2(off <= kTolerance + 0.003,
               qPrintable(QStringLiteral("%1 rad off at t = %2 s").arg(off).arg(time)));
    }
    // Timed and validated as any other plan.
    QVERIFY2(outcome.validation.ok(), outcome.validation.summary().c_str());
    QVERIFY2(
        f.result_text().contains(QStringLiteral("RRT-Connect, TCP orientation kept within 5.0°")),
        qPrintable(f.result_text()));
    QCOMPARE(f.document.trajectories().back().name,
             QStringLiteral("plan 1 · RRT-Connect, TCP orientation kept within 5.0°"));
  }

  void another_planner_is_named_as_not_used() {
    Fixture f;
    auto* combo = f.features->planner_panel()->planner_combo();
    combo->setCurrentIndex(combo->findText(QStringLiteral("RRT*")));
    JointVector goal = f.start;  // J2 + J3 + J4 constant, J1, J5, J6 unchanged: same orientation
    goal[1] -= 0.3;
    goal[2] += 0.5;
    goal[3] -= 0.2;
    QVERIFY(orientation_distance(f.tcp(goal), f.tcp(f.start)) < 1e-9);
    const PlanOutcome outcome = f.plan_to(goal);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QCOMPARE(outcome.stats.planner, std::string("constrained_rrt_connect"));
    QVERIFY2(f.result_text().contains(QStringLiteral("rrt_star does not plan constrained motions")),
             qPrintable(f.result_text()));
  }

  void goal_with_another_orientation_fails_naming_the_violation() {
    Fixture f;
    JointVector goal = f.start;
    goal[5] += 0.5;  // the last wrist joint turns the TCP by 0.5 rad
    const PlanOutcome outcome = f.plan_to(goal);
    QVERIFY(!outcome.ok);
    QCOMPARE(outcome.error_code, ErrorCode::InvalidValue);
    QVERIFY2(outcome.error.contains(QStringLiteral("goal violates the path constraints")) &&
                 outcome.error.contains(QStringLiteral("TCP orientation is 0.5000 rad")),
             qPrintable(outcome.error));
    const QString text = f.result_text();
    QVERIFY2(text.contains(QStringLiteral("Planning failed")) &&
                 text.contains(QStringLiteral("TCP orientation")) &&
                 text.contains(QStringLiteral("Try:")) && text.contains(QStringLiteral("5.0°")),
             qPrintable(text));
    QVERIFY(f.document.trajectories().empty());
  }

  void a_random_start_is_its_own_reference() {
    Fixture f;
    f.features->planner_panel()->start_combo()->setCurrentIndex(2);  // random valid state
    QCOMPARE(f.features->planner_panel()->start_type(), panels::PlanStartType::RandomValid);
    const PlanOutcome outcome = f.plan_to(f.start);
    // The start drawn on the worker keeps its own orientation; the fixed goal does not, and the
    // violation is measured from that start's orientation.
    QVERIFY(!outcome.ok);
    QCOMPARE(outcome.start.size(), f.start.size());
    QVERIFY((outcome.start - f.start).norm() > 1e-3);
    const double off = orientation_distance(f.tcp(f.start), f.tcp(outcome.start));
    const QString distance = QString::number(off, 'f', 4);
    QVERIFY2(outcome.error.startsWith(QStringLiteral("goal violates the path constraints")) &&
                 outcome.error.contains(QStringLiteral("TCP orientation is %1 rad").arg(distance)),
             qPrintable(outcome.error + QStringLiteral(" (expected %1 rad)").arg(distance)));
  }
};

QTEST_MAIN(KeepOrientationPlanTest)
#include "keep_orientation_plan_test.moc"
