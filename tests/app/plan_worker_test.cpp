// Qt Test: the plan worker with real engine calls on the UR5e — plans around a box into a
// collision-free trajectory within limits, names the colliding links of a goal in collision,
// cancels a hopeless long plan promptly while the GUI event loop keeps running, and plans straight
// TCP lines with the request's Cartesian options (step, jump threshold, closed-form IK).
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "app/hopeless_plan.hpp"
#include "app/planning/plan_worker.hpp"
#include "engine/model/robot_loader.hpp"
#include "real_time_checks.hpp"
#include "ur5e_beside_box.hpp"

using namespace kinetic;
using kinetic::app::PlanOutcome;
using kinetic::app::PlanRequest;
using kinetic::app::PlanWorker;

namespace {

// A box where the TCP passes when the arm swings from pan -1.2 to +1.2 straight.
PlanningScene box_between(const RobotModelPtr& robot) {
  Planner probe(robot);
  PlanningScene scene;
  scene.add_obstacle("box1", Shape::box(Vector3(0.2, 0.2, 0.2)),
                     Pose(Eigen::Translation3d(probe.tcp_pose(test::ur5e_arm(0.0)).translation())));
  return scene;
}

PlanOutcome wait_for(QSignalSpy& spy, int timeout_ms) {
  if (spy.isEmpty() && !spy.wait(timeout_ms)) return {};
  return qvariant_cast<PlanOutcome>(spy.takeFirst().at(0));
}

// The TCP straight up 10 cm from test::ur5e_arm(0) in Cartesian mode, no obstacles. With 1 mm steps
// the largest joint change per step grows from 0.0025 to 0.0038 rad along it.
PlanOutcome plan_line_up(const RobotModelPtr& robot, const CartesianOptions& options) {
  Planner probe(robot);
  Pose goal = probe.tcp_pose(test::ur5e_arm(0.0));
  goal.translation().z() += 0.1;
  PlanWorker worker;
  QSignalSpy spy(&worker, &PlanWorker::finished);
  PlanRequest request;
  request.robot = robot;
  request.start = test::ur5e_arm(0.0);
  request.goal = PoseGoal{goal};
  request.cartesian = true;
  request.cartesian_options = options;
  worker.submit(request);
  return wait_for(spy, 30000);
}

// The largest distance of the path's TCP from the vertical line through its start (m).
double largest_distance_from_the_line(const RobotModelPtr& robot, const JointPath& path) {
  Planner probe(robot);
  const Vector3 start = probe.tcp_pose(path.front()).translation();
  double largest = 0.0;
  for (const JointVector& q : path)
    largest = std::max(largest, (probe.tcp_pose(q).translation() - start).head<2>().norm());
  return largest;
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
    QVERIFY(!checker.in_collision(test::ur5e_arm(-1.2)));
    QVERIFY(!checker.in_collision(test::ur5e_arm(1.2)));
    QVERIFY2(checker.in_collision(test::ur5e_arm(0.0)), "the straight swing must hit the box");

    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest request;
    request.robot = robot;
    request.scene = scene;
    request.start = test::ur5e_arm(-1.2);
    request.goal = JointGoal{test::ur5e_arm(1.2)};
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
    QVERIFY((t.samples().front().position - test::ur5e_arm(-1.2)).norm() < 1e-6);
    QVERIFY((t.samples().back().position - test::ur5e_arm(1.2)).norm() < 1e-6);
    // Every sample, and instants between them, collision free and within the limits.
    for (double time = t.start_time(); time <= t.end_time(); time += 0.01) {
      const JointVector q = t.sample(time).position;
      QVERIFY2(!checker.in_collision(q),
               qPrintable(QStringLiteral("collision at t = %1").arg(time)));
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
    request.start = test::ur5e_arm(-1.2);
    request.goal = JointGoal{test::ur5e_arm(0.0)};
    worker.submit(request);
    const PlanOutcome outcome = wait_for(spy, 10000);
    QVERIFY(!outcome.ok);
    QCOMPARE(outcome.error_code, ErrorCode::InCollision);
    QVERIFY2(outcome.error.contains(QStringLiteral("goal")) &&
                 outcome.error.contains(QStringLiteral("'box1'")) &&
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
    JointVector start = test::ur5e_arm(0.0);
    start[2] = 10.0;
    request.start = start;
    request.goal = JointGoal{test::ur5e_arm(1.0)};
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
    kinetic::test::StallWatch stalls;
    ticker.start(10);
    worker.submit(request);
    QTest::qWait(1500);
    QVERIFY2(spy.isEmpty(), "the hopeless plan must still be running");
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, ticks > 50,
        qPrintable(QStringLiteral("only %1 timer ticks while planning").arg(ticks)));
    QVERIFY(progress.count() >= 5);
    QElapsedTimer clock;
    clock.start();
    worker.cancel();
    const PlanOutcome outcome = wait_for(spy, 10000);  // how long it took is checked below
    const qint64 cancel_ms = clock.elapsed();
    QCOMPARE(outcome.error_code, ErrorCode::Cancelled);
    KINETIC_VERIFY_IN_REAL_TIME(stalls, cancel_ms < 1000,
                                qPrintable(QStringLiteral("cancel took %1 ms").arg(cancel_ms)));
    qDebug("cancel returned after %lld ms", static_cast<long long>(cancel_ms));
  }

  void cartesian_steps_follow_the_requested_step_size() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    const PlanOutcome fine = plan_line_up(robot, CartesianOptions{});
    QVERIFY2(fine.ok && fine.cartesian, qPrintable(fine.error));
    QVERIFY(fine.cartesian->complete());
    QCOMPARE(fine.cartesian->path.size(), std::size_t(101));  // 100 steps of 1 mm
    CartesianOptions coarse;
    coarse.max_translation_step = 0.01;
    const PlanOutcome outcome = plan_line_up(robot, coarse);
    QVERIFY2(outcome.ok && outcome.cartesian, qPrintable(outcome.error));
    QVERIFY(outcome.cartesian->complete());
    QCOMPARE(outcome.cartesian->path.size(), std::size_t(11));  // 10 steps of 1 cm
  }

  void a_tight_jump_threshold_stops_the_line_short() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    const PlanOutcome loose = plan_line_up(robot, CartesianOptions{});  // 0.05 rad
    QVERIFY2(loose.ok && loose.cartesian, qPrintable(loose.error));
    QCOMPARE(loose.cartesian->fraction, 1.0);
    CartesianOptions tight;
    tight.jump_threshold = 0.003;  // above the first steps' joint changes, below the last ones'
    const PlanOutcome outcome = plan_line_up(robot, tight);
    QVERIFY2(outcome.ok && outcome.cartesian, qPrintable(outcome.error));
    QVERIFY2(outcome.cartesian->fraction > 0.0 && outcome.cartesian->fraction < 1.0,
             qPrintable(QString::number(outcome.cartesian->fraction)));
    const QString why = QString::fromStdString(outcome.cartesian->stop_reason);
    QVERIFY2(why.contains(QStringLiteral("would jump")) &&
                 why.contains(QStringLiteral("threshold 0.003")),
             qPrintable(why));
    QVERIFY(outcome.trajectory.duration() > 0.0);  // the part achieved is timed and returned
  }

  // Closed-form steps put the TCP on the line to rounding; numeric ones within the IK tolerance.
  void closed_form_ik_steps_reach_the_engine() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    CartesianOptions closed_form;
    closed_form.closed_form_ik = true;
    const PlanOutcome exact = plan_line_up(robot, closed_form);
    const PlanOutcome numeric = plan_line_up(robot, CartesianOptions{});
    QVERIFY2(exact.ok && exact.cartesian && exact.cartesian->complete(), qPrintable(exact.error));
    QVERIFY2(numeric.ok && numeric.cartesian && numeric.cartesian->complete(),
             qPrintable(numeric.error));
    const double exact_off = largest_distance_from_the_line(robot, exact.cartesian->path);
    const double numeric_off = largest_distance_from_the_line(robot, numeric.cartesian->path);
    QVERIFY2(exact_off < 1e-9, qPrintable(QString::number(exact_off)));
    QVERIFY2(numeric_off > 1e-7 && numeric_off < 1e-4, qPrintable(QString::number(numeric_off)));
  }

  void newest_request_wins() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    PlanWorker worker;
    QSignalSpy spy(&worker, &PlanWorker::finished);
    PlanRequest first;
    first.robot = robot;
    first.start = test::ur5e_arm(-1.2);
    first.goal = JointGoal{test::ur5e_arm(1.2)};
    PlanRequest second = first;
    second.goal = JointGoal{test::ur5e_arm(0.6)};
    worker.submit(first);
    const quint64 newest = worker.submit(second);
    const PlanOutcome outcome = wait_for(spy, 20000);
    QCOMPARE(outcome.id, newest);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY((outcome.trajectory.samples().back().position - test::ur5e_arm(0.6)).norm() < 1e-6);
    QTest::qWait(100);
    QCOMPARE(spy.count(), 0);  // the replaced request is never answered
  }
};

QTEST_MAIN(PlanWorkerTest)
#include "plan_worker_test.moc"
