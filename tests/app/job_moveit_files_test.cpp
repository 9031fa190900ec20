// Qt Test: MoveIt's files in headless runs — a MotionBenchMaker planning scene as the job's scene,
// its motion plan request as the start and a step's goal, a request given where a scene belongs,
// and the benchmark runner's flags.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/headless/headless_runner.hpp"
#include "app/headless/job_execution.hpp"
#include "headless_job_run.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using kinetic::test::mentions;

fs::path box_problems() {
  return fs::path(kinetic::test::mbm_panda_dir()) / "problems" / "box_panda";
}
fs::path mbm_robot() {
  return fs::path(kinetic::test::mbm_panda_dir()) / "robot";
}

// --benchmark on the box scene's folder, the Panda from MotionBenchMaker, outputs into `dir`.
kinetic::app::CommandLine box_benchmark(const QTemporaryDir& dir, const char* per_scene) {
  kinetic::app::CommandLine line;
  line.benchmark = QString::fromStdString(box_problems().string());
  line.robot = QString::fromStdString((mbm_robot() / "panda.urdf").string());
  line.robot_given = true;
  line.problems_per_scene = QString::fromLatin1(per_scene);
  line.output_dir = dir.path();
  return line;
}

std::string mbm_job(const std::string& scene, const std::string& request) {
  return R"({"format": "kinetic-job", "version": 1,
             "robot": {"urdf": ")" +
         (mbm_robot() / "panda.urdf").string() + R"(", "srdf": ")" +
         (mbm_robot() / "panda.srdf").string() + R"("},
             "scene": ")" +
         scene + R"(", "start": {"request": ")" + request + R"("},
             "steps": [{"goal": {"request": ")" +
         request +
         R"("}, "options": {"seed": 1, "timeout_ms": 10000, "max_iterations": 1000000}}]})";
}

kinetic::test::HeadlessRun run_flags(kinetic::app::CommandLine line) {
  line.headless = true;
  kinetic::test::HeadlessRun run;
  std::ostringstream out, err;
  run.code = run_headless(line, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace

class JobMoveItFilesTest : public QObject {
  Q_OBJECT
 private slots:
  // A job plans MotionBenchMaker's box problem 1 from its own files: the scene's seven objects,
  // the request's start and goal (the arm's joints by name; the fixed fingers skipped).
  void plans_a_motionbenchmaker_problem_from_its_files() {
    if (kinetic::test::mbm_panda_dir().empty()) QSKIP("../shared/mbm/panda is absent");
    const Job job =
        parse_job(mbm_job("scene0001.yaml", "request0001.yaml"), "job.json", box_problems());
    const JobResult result = kinetic::test::planned(job);
    QCOMPARE(result.scene.obstacles().size(), std::size_t{7});
    QCOMPARE(result.steps.size(), std::size_t{1});
    const JointVector& end = result.steps[0].end;
    QVERIFY(std::abs(end[result.robot->variable_index("panda_joint1")] - 0.4534448383669427) <
            1e-9);
    QVERIFY(std::abs(result.start[result.robot->variable_index("panda_joint4")] + 2.356) < 1e-9);
  }

  // The request given as the scene is said as what it is, with where it goes.
  void a_request_given_as_the_scene_is_named_as_one() {
    if (kinetic::test::mbm_panda_dir().empty()) QSKIP("../shared/mbm/panda is absent");
    const auto run = kinetic::test::run_job_text(mbm_job("request0001.yaml", "request0001.yaml"),
                                                 box_problems());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(
        mentions(run.err,
                 "this is a MoveIt motion plan request, not a scene: give it as a job step's goal"),
        run.err.c_str());
  }

  // A goal request naming a joint the robot does not have fails naming it.
  void a_request_for_another_robot_names_the_joint() {
    if (kinetic::test::mbm_panda_dir().empty()) QSKIP("../shared/mbm/panda is absent");
    QTemporaryDir dir;
    std::ofstream(fs::path(dir.path().toStdString()) / "r.yaml")
        << "group_name: manipulator\ngoal_constraints:\n  - joint_constraints:\n"
           "      - {joint_name: shoulder_pan_joint, position: 0.1}\n";
    const std::string job =
        R"({"format": "kinetic-job", "version": 1, "robot": "panda", "start": "ready",
                               "steps": [{"goal": {"request": "r.yaml"}}]})";
    const auto run = kinetic::test::run_job_text(job, dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "steps[0].goal.joints") &&
                 mentions(run.err, "no movable joint 'shoulder_pan_joint'"),
             run.err.c_str());
  }

  // --benchmark on one scene's folder: two problems in one process; the CSV and the summary
  // written.
  void benchmark_runs_a_folder_and_writes_csv_and_summary() {
    if (kinetic::test::mbm_panda_dir().empty()) QSKIP("../shared/mbm/panda is absent");
    QTemporaryDir dir;
    kinetic::app::CommandLine line = box_benchmark(dir, "2");
    line.timeout = QStringLiteral("5");
    const auto run = run_flags(line);
    QVERIFY2(run.code == kExitOk, run.err.c_str());
    QVERIFY2(mentions(run.out, "benchmark: 2 problems x 1 runs"), run.out.c_str());
    std::ifstream csv(fs::path(dir.path().toStdString()) / "benchmark.csv");
    std::string header, line_text;
    std::getline(csv, header);
    QVERIFY(mentions(header, "scene,problem,run,valid,solved,search_ms,simplify_ms,planning_ms"));
    int rows = 0, solved = 0;
    while (std::getline(csv, line_text)) {
      ++rows;
      solved += mentions(line_text, ",1,1,");  // valid and solved
      if (mentions(line_text, ",1,1,"))
        QVERIFY2(mentions(line_text, ",ok,"), line_text.c_str());  // re-checked
    }
    QCOMPARE(rows, 2);
    QVERIFY2(solved == 2, run.out.c_str());
    QVERIFY(fs::exists(fs::path(dir.path().toStdString()) / "benchmark-summary.txt"));
    QVERIFY2(mentions(run.out, "\nbox ") && mentions(run.out, "\nall "),
             run.out.c_str());  // box_panda: "box"
  }

  // --margin: the clearance every problem is planned with, as the CSV's margin_m column says.
  void benchmark_plans_with_the_margin_given() {
    if (kinetic::test::mbm_panda_dir().empty()) QSKIP("../shared/mbm/panda is absent");
    QTemporaryDir dir;
    kinetic::app::CommandLine line = box_benchmark(dir, "1");
    line.margin = QStringLiteral("0.004");
    const auto run = run_flags(line);
    QVERIFY2(run.code == kExitOk, run.err.c_str());
    std::ifstream csv(fs::path(dir.path().toStdString()) / "benchmark.csv");
    std::string header, row;
    std::getline(csv, header);
    std::getline(csv, row);
    QVERIFY2(mentions(row, ",0.004,"), row.c_str());
    line.margin = QStringLiteral("-0.1");
    const auto negative = run_flags(line);
    QCOMPARE(negative.code, int(kExitBadJob));
    QVERIFY2(mentions(negative.err, "--margin: expected metres in [0, 1], got \"-0.1\""),
             negative.err.c_str());
  }

  void benchmark_refuses_what_does_not_go_with_it() {
    kinetic::app::CommandLine line;
    line.benchmark = QStringLiteral("/nowhere");
    const auto no_robot = run_flags(line);
    QCOMPARE(no_robot.code, int(kExitBadJob));
    QVERIFY2(mentions(no_robot.err, "--benchmark: needs --robot URDF"), no_robot.err.c_str());
    line.robot = QStringLiteral("robot.urdf");
    line.robot_given = true;
    line.goal_named = QStringLiteral("ready");
    const auto goal = run_flags(line);
    QVERIFY2(mentions(goal.err, "--goal-named does not go with it"), goal.err.c_str());
    line.goal_named.clear();
    line.repeat = QStringLiteral("0");
    const auto repeat = run_flags(line);
    QVERIFY2(mentions(repeat.err, "--repeat: expected a whole number from 1 to 1000, got \"0\""),
             repeat.err.c_str());
  }
};

QTEST_GUILESS_MAIN(JobMoveItFilesTest)
#include "job_moveit_files_test.moc"
