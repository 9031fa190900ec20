// Qt Test: how a job step may move the TCP — Cartesian steps (a straight line to a pose or a
// relative goal, an arc) and path constraints on free-space steps — in the example pick-and-place
// job, as command-line flags, and every way of getting them wrong.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <sstream>

#include "app/headless/headless_runner.hpp"
#include "app/headless/job_execution.hpp"
#include "engine/planning/planner.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "headless_job_run.hpp"
#include "support/pose_difference.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using Run = kinetic::test::HeadlessRun;

Run run_motion_job_text(const std::string& text, const fs::path& dir) {
  return kinetic::test::run_job_text(text, dir);
}

// A UR5e job from the "ready" pose with these steps (JSON array text) and no outputs.
std::string ur5e_job(const std::string& steps) {
  return R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "ready", "steps": )" +
         steps + "}";
}

Run run_flags(kinetic::app::CommandLine line, const QTemporaryDir& dir) {
  line.headless = true;
  line.output_dir = dir.path();
  Run run;
  std::ostringstream out, err;
  run.code = run_headless(line, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

using kinetic::test::mentions;

using kinetic::test::rotation_between;

// Largest distance of the TCP from the straight line between its first and last positions, and
// of its orientation from the first, over every waypoint.
std::pair<double, double> straight_line_deviation(Planner& planner, const JointPath& path) {
  const Pose first = planner.tcp_pose(path.front()), last = planner.tcp_pose(path.back());
  const Vector3 direction = (last.translation() - first.translation()).normalized();
  double off_line = 0.0, turned = 0.0;
  for (const JointVector& q : path) {
    const Pose p = planner.tcp_pose(q);
    const Vector3 d = p.translation() - first.translation();
    off_line = std::max(off_line, (d - direction * d.dot(direction)).norm());
    turned = std::max(turned, rotation_between(p, first));
  }
  return {off_line, turned};
}

}  // namespace

class JobMotionTest : public QObject {
  Q_OBJECT
 private slots:
  // examples/jobs/ur5e_pick_and_place.json: over the part, straight down and up again, carried
  // upright around the box, straight down to place and up again (job_attach_test checks the part).
  void the_pick_and_place_example_moves_straight_and_keeps_upright() {
    const Job job = load_job(fs::path(kinetic::test::test_source_dir()) / ".." / "examples" /
                             "jobs" / "ur5e_pick_and_place.json");
    JobResult result;
    load_robot_and_scene(job, result);
    plan_steps(job, result);
    QCOMPARE(int(result.steps.size()), 8);
    const auto step = [&](const std::string& name) -> const StepResult& {
      for (const StepResult& s : result.steps)
        if (s.name == name) return s;
      qFatal("no step %s", name.c_str());
    };
    Planner planner(result.robot);
    for (const char* name : {"approach", "retreat", "place", "leave"}) {
      const StepResult& line = step(name);
      QCOMPARE(line.plan.planner, std::string("cartesian"));
      const auto [off_line, turned] = straight_line_deviation(planner, line.plan.path);
      QVERIFY2(off_line < 1e-3,
               (line.name + " leaves its line by " + std::to_string(off_line) + " m").c_str());
      QVERIFY2(turned < 1e-3,
               (line.name + " turns the TCP by " + std::to_string(turned) + " rad").c_str());
      // 10 cm, as asked: down along the tool's z axis (pointing down), or along the base's z.
      const double travelled = (planner.tcp_pose(line.plan.path.back()).translation() -
                                planner.tcp_pose(line.plan.path.front()).translation())
                                   .norm();
      QVERIFY2(std::abs(travelled - 0.1) < 1e-3,
               (line.name + " travelled " + std::to_string(travelled)).c_str());
      QVERIFY(line.plan.path.size() >= 100);  // 1 mm steps
    }
    const double approach_dz = planner.tcp_pose(step("approach").end).translation().z() -
                               planner.tcp_pose(step("over_part").end).translation().z();
    QVERIFY2(std::abs(approach_dz + 0.1) < 1e-3, std::to_string(approach_dz).c_str());
    const double retreat_dz = planner.tcp_pose(step("retreat").end).translation().z() -
                              planner.tcp_pose(step("approach").end).translation().z();
    QVERIFY2(std::abs(retreat_dz - 0.1) < 1e-3, std::to_string(retreat_dz).c_str());

    // The carry keeps the orientation it starts with within 0.1 rad: every waypoint, and the timed
    // motion between them.
    const StepResult& carry = step("carry");
    QCOMPARE(carry.plan.planner, std::string("constrained_rrt_connect"));
    const Pose carry_start = planner.tcp_pose(step("retreat").end);
    for (const JointVector& q : carry.plan.path)
      QVERIFY(rotation_between(planner.tcp_pose(q), carry_start) <= 0.1 + 1e-4);
    double worst = 0.0;
    for (double t = 0.0; t <= carry.trajectory.duration(); t += 0.005)
      worst = std::max(
          worst,
          rotation_between(planner.tcp_pose(carry.trajectory.sample(t).position), carry_start));
    QVERIFY2(worst <= 0.1 + 1e-3, std::to_string(worst).c_str());
    const Pose carry_end = planner.tcp_pose(carry.end);
    QVERIFY((carry_end.translation() - Vector3(0.45, 0.35, 0.22)).norm() < 1e-3);
  }

  void an_arc_goal_turns_the_tcp_about_its_axis() {
    QTemporaryDir dir;
    const Run run = run_motion_job_text(ur5e_job(R"([{"name": "swing", "planner": "cartesian",
        "goal": {"arc": {"center": [0, 0, 0], "axis": [0, 0, 1], "angle": 0.5}}}])"),
                                        dir.path().toStdString());
    QVERIFY2(run.code == kExitOk, run.err.c_str());
    QVERIFY(mentions(run.out, "step 1/1 \"swing\": cartesian"));
    // In-process again for the path: every waypoint at the same height and distance from the axis.
    const Job job = parse_job(ur5e_job(R"([{"planner": "cartesian",
        "goal": {"arc": {"center": [0, 0, 0], "axis": [0, 0, 1], "angle": 0.5}}}])"),
                              "job.json", dir.path().toStdString());
    JobResult result;
    load_robot_and_scene(job, result);
    plan_steps(job, result);
    Planner planner(result.robot);
    const Vector3 first = planner.tcp_pose(result.start).translation();
    for (const JointVector& q : result.steps[0].plan.path) {
      const Vector3 p = planner.tcp_pose(q).translation();
      QVERIFY(std::abs(p.z() - first.z()) < 1e-3);
      QVERIFY(std::abs(p.head<2>().norm() - first.head<2>().norm()) < 1e-3);
    }
    const Vector3 last = planner.tcp_pose(result.steps[0].end).translation();
    const double turned = std::atan2(last.y(), last.x()) - std::atan2(first.y(), first.x());
    QVERIFY2(std::abs(turned - 0.5) < 1e-3, std::to_string(turned).c_str());
  }

  // A line the arm cannot finish fails, saying how far it got and why; min_fraction accepts it.
  void a_line_that_stops_short_fails_unless_min_fraction_accepts_it() {
    QTemporaryDir dir;
    const std::string out_of_reach = R"({"relative": {"xyz": [0, 0, 2.0], "frame": "base"}})";
    const Run short_line = run_motion_job_text(
        ur5e_job(R"([{"name": "up", "planner": "cartesian", "goal": )" + out_of_reach + "}]"),
        dir.path().toStdString());
    QCOMPARE(short_line.code, int(kExitPlanningFailed));
    QVERIFY2(mentions(short_line.err, "steps[0] (\"up\"): the TCP's straight line stopped at ") &&
                 mentions(short_line.err, "% of the way: IK failed") &&
                 mentions(short_line.err, "min_fraction"),
             short_line.err.c_str());
    const Run accepted = run_motion_job_text(
        ur5e_job(R"([{"name": "up", "planner": "cartesian", "cartesian": {"min_fraction": 0.1},
        "goal": )" +
                 out_of_reach + "}]"),
        dir.path().toStdString());
    QVERIFY2(accepted.code == kExitOk, accepted.err.c_str());
    QVERIFY2(mentions(accepted.err, "warning: step \"up\": the TCP's straight line stopped at "),
             accepted.err.c_str());
  }

  // "closed_form_ik" solves the UR5e's steps in closed form: the same straight line, and the same
  // end as the numeric steps, within the IK tolerance.
  void closed_form_ik_steps_follow_the_same_line() {
    QTemporaryDir dir;
    const auto plan_up = [&](const std::string& cartesian) {
      const Job job =
          parse_job(ur5e_job(R"([{"planner": "cartesian", "cartesian": )" + cartesian +
                             R"(, "goal": {"relative": {"xyz": [0, 0, 0.1], "frame": "base"}}}])"),
                    "job.json", dir.path().toStdString());
      JobResult result;
      load_robot_and_scene(job, result);
      plan_steps(job, result);
      return std::make_pair(job, result);
    };
    const auto [closed_job, closed] = plan_up(R"({"closed_form_ik": true})");
    const auto [numeric_job, numeric] = plan_up(R"({"closed_form_ik": false})");
    QVERIFY(closed_job.steps[0].cartesian_options.closed_form_ik);
    QVERIFY(!numeric_job.steps[0].cartesian_options.closed_form_ik);
    Planner planner(closed.robot);
    const Vector3 first = planner.tcp_pose(closed.start).translation();
    for (const JointVector& q : closed.steps[0].plan.path)
      QVERIFY((planner.tcp_pose(q).translation().head<2>() - first.head<2>()).norm() < 1e-3);
    const Vector3 closed_end = planner.tcp_pose(closed.steps[0].end).translation();
    const Vector3 numeric_end = planner.tcp_pose(numeric.steps[0].end).translation();
    QVERIFY2(std::abs(closed_end.z() - first.z() - 0.1) < 1e-3,
             std::to_string(closed_end.z() - first.z()).c_str());
    QVERIFY((closed_end - numeric_end).norm() < 1e-3);
    // Not a boolean: a job error naming the field.
    const Run bad = run_motion_job_text(
        ur5e_job(R"([{"planner": "cartesian", "cartesian": {"closed_form_ik": 1},
        "goal": {"relative": {"xyz": [0, 0, 0.1]}}}])"),
        dir.path().toStdString());
    QCOMPARE(bad.code, int(kExitBadJob));
    QVERIFY2(mentions(bad.err, "steps[0].cartesian.closed_form_ik: expected true or false"),
             bad.err.c_str());
  }

  void a_goal_that_breaks_the_constraint_is_refused_with_the_violation() {
    QTemporaryDir dir;
    const Run run = run_motion_job_text(ur5e_job(R"([{"goal": {"relative": {"rpy": [0.5, 0, 0]}},
        "constraints": {"orientation": {"tolerance": 0.1}}}])"),
                                        dir.path().toStdString());
    QCOMPARE(run.code, int(kExitPlanningFailed));
    QVERIFY2(mentions(run.err, "goal violates the path constraints: TCP orientation is 0.5"),
             run.err.c_str());
  }

  void joint_and_position_constraints_are_kept() {
    QTemporaryDir dir;
    const Job job =
        parse_job(ur5e_job(R"([{"goal": {"relative": {"xyz": [0.15, 0.1, 0], "frame": "base"}},
        "constraints": {"position": {"min": [-1, -1, 0.2], "max": [1, 1, 1.5]},
                        "joints": [{"joint": "joint6", "min": -0.5, "max": 0.5}]}}])"),
                  "job.json", dir.path().toStdString());
    JobResult result;
    load_robot_and_scene(job, result);
    plan_steps(job, result);
    Planner planner(result.robot);
    const int joint6_index = result.robot->variable_index("joint6");
    for (const JointVector& q : result.steps[0].plan.path) {
      QVERIFY(std::abs(q[joint6_index]) <= 0.5 + 1e-6);
      QVERIFY(planner.tcp_pose(q).translation().z() >= 0.2 - 1e-4);
    }
  }

  void motion_settings_that_do_not_go_together_are_job_errors() {
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    const auto expect_error = [&](const std::string& steps, const std::string& message) {
      const Run run = run_motion_job_text(ur5e_job(steps), d);
      QVERIFY2(run.code == kExitBadJob, (steps + " gave " + std::to_string(run.code)).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
    };
    expect_error(R"([{"planner": "cartesian", "goal": {"named": "home"}}])",
                 "steps[0].goal: a Cartesian step moves the TCP, so it needs a \"pose\", "
                 "\"relative\" or \"arc\" goal");
    expect_error(R"([{"goal": {"arc": {"center": [0, 0, 0], "axis": [0, 0, 1], "angle": 0.5}}}])",
                 "steps[0].goal.arc: an arc is a Cartesian move");
    expect_error(
        R"([{"planner": "cartesian", "goal": {"arc": {"center": [0, 0, 0], "axis": [0, 0, 0], "angle": 1}}}])",
        "steps[0].goal.arc.axis: a zero vector is not an axis");
    expect_error(R"([{"planner": "cartesian", "goal": {"relative": {"xyz": [0, 0, 0.1]}},
                      "constraints": {"orientation": {"tolerance": 0.1}}}])",
                 "steps[0].constraints: a Cartesian step follows its own line");
    expect_error(
        R"([{"planner": "prm", "goal": {"named": "home"}, "constraints": {"orientation": {"tolerance": 0.1}}}])",
        "steps[0].constraints: constrained steps are planned by RRT-Connect with projection, not "
        "prm");
    expect_error(
        R"([{"goal": {"named": "home"}, "constraints": {}}])",
        "steps[0].constraints: give at least one of \"orientation\", \"position\" or \"joints\"");
    expect_error(R"([{"goal": {"named": "home"}, "constraints": {"orientation": {}}}])",
                 "steps[0].constraints.orientation.tolerance: missing");
    expect_error(
        R"([{"goal": {"named": "home"}, "constraints": {"orientaton": {"tolerance": 0.1}}}])",
        "steps[0].constraints.orientaton: unknown field (did you mean 'orientation'");
    expect_error(R"([{"planner": "cartesain", "goal": {"named": "home"}}])", "or cartesian)");
    expect_error(
        R"([{"planner": "cartesian", "cartesian": {"min_fraction": 1.5}, "goal": {"relative": {"xyz": [0, 0, 0.1]}}}])",
        "steps[0].cartesian.min_fraction: must be in [0, 1], got 1.5");
    // A joint the robot does not have is found when the robot is known.
    expect_error(
        R"([{"goal": {"named": "home"}, "constraints": {"joints": [{"joint": "wrist_9", "min": 0, "max": 1}]}}])",
        "steps[0].constraints.joints: joint constraint names 'wrist_9'");
  }

  void flags_plan_a_straight_line_and_keep_the_orientation() {
    QTemporaryDir dir;
    kinetic::app::CommandLine line;
    line.start = QStringLiteral("ready");
    line.planner = QStringLiteral("cartesian");
    line.goal_relative = QStringLiteral("0 0 0.1");
    line.exports = {QStringLiteral("line.csv")};
    const Run straight = run_flags(line, dir);
    QVERIFY2(straight.code == kExitOk, straight.err.c_str());
    QVERIFY(mentions(straight.out, "step 1/1 \"goal\": cartesian, "));
    const Trajectory exported =
        kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "line.csv");
    QVERIFY(exported.samples().size() > 2);

    kinetic::app::CommandLine kept;
    kept.start = QStringLiteral("ready");
    kept.goal_relative = QStringLiteral("0.2 0.1 0");
    kept.keep_orientation = QStringLiteral("0.05");
    const Run constrained = run_flags(kept, dir);
    QVERIFY2(constrained.code == kExitOk, constrained.err.c_str());
    QVERIFY(mentions(constrained.out, "step 1/1 \"goal\": constrained_rrt_connect, "));

    const auto expect_error = [&](kinetic::app::CommandLine bad, const std::string& message) {
      const Run run = run_flags(std::move(bad), dir);
      QCOMPARE(run.code, int(kExitBadJob));
      QVERIFY2(mentions(run.err, message), run.err.c_str());
    };
    kinetic::app::CommandLine joint_line = line;
    joint_line.goal_relative.clear();
    joint_line.goal_named = QStringLiteral("home");
    expect_error(joint_line,
                 "--planner cartesian: moves the TCP along a straight line: give --goal-pose or "
                 "--goal-relative");
    kinetic::app::CommandLine both = line;
    both.keep_orientation = QStringLiteral("0.1");
    expect_error(both, "--keep-orientation: goes with free-space planners");
    kinetic::app::CommandLine prm = kept;
    prm.planner = QStringLiteral("prm");
    expect_error(prm, "--keep-orientation: is kept by RRT-Connect with projection");
    kinetic::app::CommandLine zero = kept;
    zero.keep_orientation = QStringLiteral("0");
    expect_error(zero, "--keep-orientation: expected an angle in radians");
    kinetic::app::CommandLine short_offset = line;
    short_offset.goal_relative = QStringLiteral("0 0");
    expect_error(short_offset, "--goal-relative: expected 3 numbers (x y z) or 6");
  }
};

QTEST_GUILESS_MAIN(JobMotionTest)
#include "job_motion_test.moc"
