// Qt Test: the plan worker with real engine calls on the UR5e — plans around a box into a
// collision-free trajectory within limits, names the colliding links of a goal in collision, and
// cancels a hopeless long plan promptly while the GUI event loop keeps running.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "app/hopeless_plan.hpp"
#include "app/planning/plan_worker.hpp"
#include "engine/model/robot_loader.hpp"

using namespace kinetic;
using kinetic::app::PlanOutcome;
using kinetic::app::PlanRequest;
using kinetic::app::PlanWorker;

namespace {

JointVector arm(double pan) { return (JointVector(6) << pan, -1.2, 1.2, -1.57, -1.57, 0.0).finished(); }

// A box where the TCP passes when the arm swings from pan -1.2 to +1.2 straight.
PlanningScene box_between(const RobotModelPtr& robot) {
  Planner probe(robot);
  PlanningScene scene;
  scene.add_obstacle("box1", Shape::box(Vector3(0.2, 0.2, 0.2)), Pose(Eigen::Translation3d(probe.tcp_pose(arm(0.0)).translation())));
  return scene;
}

PlanOutcome wait_for(QSignalSpy& spy, int timeout_ms) {
  if (spy.isEmpty() && !spy.wait(timeout_ms)) return {};
  return qvariant_cast<PlanOutcome>(spy.takeFirst().at(0));
}

}  // namespace

class PlanWorkerTest : public QObject {
  Q_OBJECT
 private slots:
  void plans_around_a_box() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    const PlanningScene scene = box_between(robot);
    CollisionChecker checker(robot);
    checker.set_scene(scene);
    QVERIFY(!checker.in_collision(arm(-1.2)));
    QVERIFY(!checker.in_collision(arm(1.2)));
    QVERIFY2(checker.in_collision(arm(0.0)), "the straight swing must hit the box");

    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest request;
    request.robot = robot;
    request.scene = scene;
    request.start = arm(-1.2);
    request.goal = JointGoal{arm(1.2)};
    request.options.timeout_ms = 5000;
    request.options.seed = 11;
    request.name = QStringLiteral("plan 1 · RRT-Connect");
    const quint64 id = worker.submit(request);
    QVERIFY(worker.busy());
    const PlanOutcome outcome = wait_for(spy, 30000);
    QCOMPARE(outcome.id, id);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY(!worker.busy());
    QCOMPARE(outcome.name, request.name);
    QVERIFY(outcome.stats.path.size() >= 2);
    QVERIFY(outcome.stats.length_after <= outcome.stats.length_before + 1e-9);
    QVERIFY(outcome.stats.planning_time_ms > 0.0);
    const Trajectory& t = outcome.trajectory;
    QVERIFY(t.duration() > 0.0);
    QVERIFY((t.samples().front().position - arm(-1.2)).norm() < 1e-6);
    QVERIFY((t.samples().back().position - arm(1.2)).norm() < 1e-6);
    // Every sample, and instants between them, collision free and within the limits.
    for (double time = t.start_time(); time <= t.end_time(); time += 0.01) {
      const JointVector q = t.sample(time).position;
      QVERIFY2(!checker.in_collision(q), qPrintable(QStringLiteral("collision at t = %1").arg(time)));
      QVERIFY(robot->within_limits(q, 1e-6));
    }
    QVERIFY2(outcome.validation.ok(), outcome.validation.summary().c_str());
  }

  void goal_in_collision_names_the_links() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest request;
    request.robot = robot;
    request.scene = box_between(robot);
    request.start = arm(-1.2);
    request.goal = JointGoal{arm(0.0)};
    worker.submit(request);
    const PlanOutcome outcome = wait_for(spy, 10000);
    QVERIFY(!outcome.ok);
    QCOMPARE(outcome.error_code, ErrorCode::InCollision);
    QVERIFY2(outcome.error.contains(QStringLiteral("goal")) && outcome.error.contains(QStringLiteral("'box1'")) &&
                 outcome.error.contains(QStringLiteral("link")),
             qPrintable(outcome.error));
    QVERIFY(!app::likely_fix(outcome).isEmpty());
  }

  void start_out_of_limits_is_reported() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest request;
    request.robot = robot;
    JointVector start = arm(0.0);
    start[2] = 10.0;
    request.start = start;
    request.goal = JointGoal{arm(1.0)};
    worker.submit(request);
    const PlanOutcome outcome = wait_for(spy, 10000);
    QCOMPARE(outcome.error_code, ErrorCode::OutOfLimits);
    QVERIFY2(outcome.error.contains(QStringLiteral("joint3")), qPrintable(outcome.error));
  }

  void cancel_of_a_hopeless_plan_is_prompt() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    const auto problem = kinetic::test::hopeless_ur5e_plan(robot);
    QVERIFY2(problem, "the post must block the shoulder pan at several angles");

    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    QSignalSpy progress(&worker, &PlanWorker::progress);
    PlanRequest request;
    request.robot = robot;
    request.scene = problem->scene;
    request.start = problem->start;
    request.goal = JointGoal{problem->goal};
    request.options = offline_preset();
    request.options.timeout_ms = 60000;
    request.options.max_iterations = 100000000;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(10);
    worker.submit(request);
    QTest::qWait(1500);
    QVERIFY2(spy.isEmpty(), "the hopeless plan must still be running");
    QVERIFY2(ticks > 50, qPrintable(QStringLiteral("only %1 timer ticks while planning").arg(ticks)));
    QVERIFY(progress.count() >= 5);
    QElapsedTimer clock;
    clock.start();
    worker.cancel();
    const PlanOutcome outcome = wait_for(spy, 1000);
    const qint64 cancel_ms = clock.elapsed();
    QCOMPARE(outcome.error_code, ErrorCode::Cancelled);
    QVERIFY2(cancel_ms < 1000, qPrintable(QStringLiteral("cancel took %1 ms").arg(cancel_ms)));
    qDebug("cancel returned after %lld ms", static_cast<long long>(cancel_ms));
  }

  void newest_request_wins() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest first;
    first.robot = robot;
    first.start = arm(-1.2);
    first.goal = JointGoal{arm(1.2)};
    PlanRequest second = first;
    second.goal = JointGoal{arm(0.6)};
    worker.submit(first);
    const quint64 newest = worker.submit(second);
    const PlanOutcome outcome = wait_for(spy, 20000);
    QCOMPARE(outcome.id, newest);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY((outcome.trajectory.samples().back().position - arm(0.6)).norm() < 1e-6);
    QTest::qWait(100);
    QCOMPARE(spy.count(), 0);  // the replaced request is never answered
  }
};

QTEST_MAIN(PlanWorkerTest)
#include "plan_worker_test.moc"
