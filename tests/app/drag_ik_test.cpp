// Qt Test: IK for a gizmo drag on the Panda (7 DOF, the sweep solver). A drag step asks only for
// the solution nearest the seed (one numeric solve, fast, the arm's configuration kept); a step
// that solve cannot reach falls back to the full solve; collision-aware steps stay collision-
// aware; the drag's end counts every solution for the Goal panel.
#include <QSignalSpy>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/ik_worker.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "real_time_checks.hpp"
#include "support/ik_test_support.hpp"

using kinetic::JointVector;
using kinetic::Pose;
using kinetic::app::GoalController;
using kinetic::app::IkAnswer;
using kinetic::app::IkRequest;
using kinetic::app::IkWorker;
using kinetic::app::StudioDocument;
using kinetic::app::TcpKinematics;

using kinetic::test::pose_error;
using kinetic::test::with_an_hour_of_ik;

namespace {

constexpr int kIkTimeoutMs = 20000;  // a loaded two-core machine

// A reachable pose behind and above the Panda's shoulder (found by search): one numeric solve from
// the "ready" pose ends in a local minimum there, the sweep finds three solutions.
JointVector behind_the_shoulder() {
  JointVector q(7);
  q << 0.85, 0.03, 1.84, -1.13, 0.27, 2.18, -1.63;
  return q;
}

}  // namespace

class DragIkTest : public QObject {
  Q_OBJECT
 private slots:
  void a_drag_step_answers_the_solution_nearest_the_seed_at_once() {
    const auto robot = with_an_hour_of_ik("panda");
    QVERIFY2(robot, "the Panda's kinetic.toml has an [ik] table");
    QCOMPARE(kinetic::make_ik_solver(robot)->name(), std::string("sweep"));
    const TcpKinematics frame(robot);
    IkWorker worker;
    worker.set_robot(robot);
    QSignalSpy solved(&worker, &IkWorker::solved);
    QSignalSpy failed(&worker, &IkWorker::failed);
    const JointVector seed = robot->named_pose("ready");
    IkRequest step;
    step.target = frame.tcp_in_base(seed);
    step.target.translation().y() += 0.01;  // a drag step: a centimetre
    step.seed = seed;
    step.nearest_only = true;
    kinetic::test::StallWatch stalls;
    QElapsedTimer clock;
    clock.start();
    worker.request(step);
    // The full solve would sweep for the hour.
    QTRY_VERIFY_WITH_TIMEOUT(solved.count() + failed.count() == 1, kIkTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    KINETIC_VERIFY_IN_REAL_TIME(stalls, clock.elapsed() < 5000,
                                qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    const auto answer = solved.first().at(1).value<IkAnswer>();
    QVERIFY(pose_error(frame.tcp_in_base(answer.joints), step.target) < 1e-3);
    QCOMPARE(answer.solution_count, 0);  // not counted: no other solution was looked for
    QCOMPARE(answer.solution_index, 0);
    // The arm keeps its configuration: a centimetre of TCP moves no joint far.
    QVERIFY2((answer.joints - seed).cwiseAbs().maxCoeff() < 0.1,
             qPrintable(QStringLiteral("a joint moved %1 rad")
                            .arg((answer.joints - seed).cwiseAbs().maxCoeff())));
  }

  void a_drag_step_the_nearest_solve_cannot_reach_still_answers() {
    const auto robot = kinetic::load_builtin_robot("panda");
    const TcpKinematics frame(robot);
    const JointVector seed = robot->named_pose("ready");
    IkRequest step;
    step.target = frame.tcp_in_base(behind_the_shoulder());
    step.seed = seed;
    step.nearest_only = true;
    // The premise: one numeric solve from the seed does not get there.
    const kinetic::NumericIkSolver single(frame.chain());
    kinetic::IkOptions once = kinetic::ik_options_from_config(*robot);
    once.timeout_ms = 0.0;
    QVERIFY(!single.solve(step.target, frame.chain().to_chain(seed), once).converged);

    IkWorker worker;
    worker.set_robot(robot);
    QSignalSpy solved(&worker, &IkWorker::solved);
    QSignalSpy failed(&worker, &IkWorker::failed);
    worker.request(step);
    QTRY_VERIFY_WITH_TIMEOUT(solved.count() + failed.count() == 1, kIkTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    const auto answer = solved.first().at(1).value<IkAnswer>();
    QVERIFY(pose_error(frame.tcp_in_base(answer.joints), step.target) < 1e-3);
    QVERIFY2(answer.solution_count >= 1, "the full solve answered (and counted)");
  }

  void a_collision_aware_drag_step_does_not_answer_a_colliding_solution() {
    const auto robot = kinetic::load_builtin_robot("panda");
    const TcpKinematics frame(robot);
    const JointVector seed = robot->named_pose("ready");
    IkWorker worker;
    worker.set_robot(robot);
    IkRequest step;
    step.target = frame.tcp_in_base(seed);
    step.target.translation().y() += 0.01;
    step.seed = seed;
    step.nearest_only = true;
    // A box around the target: every solution puts the hand inside it.
    kinetic::PlanningScene scene;
    Pose box_pose = Pose::Identity();
    box_pose.translation() = frame.base_in_world(seed) * step.target.translation();
    scene.add_obstacle("crate", kinetic::Shape::box(kinetic::Vector3(0.25, 0.25, 0.25)), box_pose);
    worker.set_scene(scene);

    QSignalSpy solved(&worker, &IkWorker::solved);
    QSignalSpy failed(&worker, &IkWorker::failed);
    worker.request(step);  // collision-blind: the nearest solution
    QTRY_COMPARE_WITH_TIMEOUT(solved.count(), 1, kIkTimeoutMs);
    QCOMPARE(solved.first().at(1).value<IkAnswer>().solution_count, 0);
    step.collision_aware = true;
    worker.request(step);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kIkTimeoutMs);
    QCOMPARE(solved.count(), 1);
    const QString reason = failed.first().at(1).toString();
    QVERIFY2(
        reason.contains(QStringLiteral("collision")) && reason.contains(QStringLiteral("crate")),
        qPrintable(reason));
  }

  void the_end_of_a_drag_counts_every_solution() {
    StudioDocument document;
    QCOMPARE(document.load_robot(QStringLiteral("panda")), QString());
    GoalController goal(document);
    QVERIFY(goal.kinematics());
    document.set_joints(document.robot()->named_pose("ready"));
    const auto start = goal.shown_pose_world();
    QVERIFY(start);
    JointVector previous = document.joints();
    for (int i = 1; i <= 4; ++i) {
      Pose pose = *start;
      pose.translation().x() += 0.01 * i;
      goal.drag_goal_world(pose);
      QTRY_VERIFY_WITH_TIMEOUT(!goal.ik_busy(), kIkTimeoutMs);
      QVERIFY2(!goal.ik_failed(), qPrintable(goal.ik_status()));
      QVERIFY(document.goal().joints);
      // Each step stays on the previous step's configuration and counts nothing.
      QVERIFY((*document.goal().joints - previous).cwiseAbs().maxCoeff() < 0.1);
      previous = *document.goal().joints;
      QCOMPARE(goal.solution_count(), 0);
      QVERIFY2(goal.ik_status().contains(QStringLiteral("nearest")), qPrintable(goal.ik_status()));
    }
    kinetic::test::StallWatch stalls;  // the full solve has the robot's IK time budget
    goal.end_drag();
    QVERIFY(goal.ik_busy());
    QTRY_VERIFY_WITH_TIMEOUT(!goal.ik_busy(), kIkTimeoutMs);
    QVERIFY2(!goal.ik_failed(), qPrintable(goal.ik_status()));
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, goal.solution_count() > 1,
        qPrintable(QStringLiteral("%1 solution(s) counted").arg(goal.solution_count())));
    QCOMPARE(goal.solution_index(), 0);
    QVERIFY2(goal.ik_status().contains(QStringLiteral("solution 1 of")),
             qPrintable(goal.ik_status()));
    // Solution 1 is the configuration the drag left the arm in.
    QVERIFY((*document.goal().joints - previous).cwiseAbs().maxCoeff() < 0.05);
    // A second end (a click on the gizmo without a move) asks nothing.
    goal.end_drag();
    QVERIFY(!goal.ik_busy());
  }
};

QTEST_MAIN(DragIkTest)
#include "drag_ik_test.moc"
