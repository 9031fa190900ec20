// Qt Test: the headless runner in-process on the real UR5e — a flag-driven plan that exports a
// trajectory that re-imports, and every failure a user can cause exits non-zero with its message.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <tuple>

#include "app/headless/frame_disk_space.hpp"
#include "app/headless/headless_runner.hpp"
#include "app/headless/interruption.hpp"
#include "app/headless/job_execution.hpp"
#include "app/headless/output_set.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/trajectory/controller_export.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "headless_job_run.hpp"
#include "support/test_paths.hpp"

using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using Run = kinetic::test::HeadlessRun;

Run run_text(const std::string& text, const fs::path& dir) {
  return kinetic::test::run_job_text(text, dir);
}

std::string job(const std::string& robot, const std::string& scene, const std::string& goal,
                const std::string& outputs = "{}") {
  return R"({"format": "kinetic-job", "version": 1, "robot": ")" + robot + R"(", "scene": )" +
         scene + R"(, "start": "home", "steps": [{"goal": )" + goal +
         R"(, "options": {"timeout_ms": 300}}], "outputs": )" + outputs + "}";
}

// Flags for a headless run of the robot in `urdf`, writing into `dir`.
kinetic::app::CommandLine urdf_run(const fs::path& urdf, const QTemporaryDir& dir) {
  kinetic::app::CommandLine line;
  line.headless = true;
  line.robot = QString::fromStdString(urdf.string());
  line.robot_given = true;
  line.output_dir = dir.path();
  return line;
}

const std::string kNoScene = R"({"format": "kinetic-scene", "version": 1})";

// Outputs that start with it keep the renderer, started beside the planning, at this small size.
constexpr const char* kSmallScreenshot =
    R"({"screenshots": [{"file": "s.png", "width": 64, "height": 48}], )";

}  // namespace

class HeadlessRunnerTest : public QObject {
  Q_OBJECT
 private slots:
  void flags_plan_and_export_reimports() {
    QTemporaryDir dir;
    kinetic::app::CommandLine line;
    line.headless = true;
    line.goal_named = QStringLiteral("ready");
    line.seed = QStringLiteral("3");
    line.timing = QStringLiteral("trapezoidal");
    line.output_dir = dir.path();
    line.exports = {QStringLiteral("plan.json"), QStringLiteral("plan.csv"),
                    QStringLiteral("plan.yaml"), QStringLiteral("plan.script")};
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitOk));
    // Times keep their digits: a plan of a few tens of microseconds read "0.0 ms".
    const QString summary = QString::fromStdString(out.str());
    const auto step =
        QRegularExpression(QStringLiteral("step 1/1 \"goal\": rrt_connect, ([0-9.]+) m?s, "))
            .match(summary);
    QVERIFY2(step.hasMatch() && step.captured(1).toDouble() > 0.0, qPrintable(summary));
    const auto done = QRegularExpression(QStringLiteral("done in ([0-9.]+) m?s\n")).match(summary);
    QVERIFY2(done.hasMatch() && done.captured(1).toDouble() > 0.0, qPrintable(summary));
    const auto json = kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "plan.json");
    const auto csv = kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "plan.csv");
    QVERIFY(json == csv);
    // The controller exports: the same motion for ROS and for a UR controller.
    const auto text_of = [&](const char* name) {
      QFile file(dir.filePath(QString::fromUtf8(name)));
      return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
    };
    QCOMPARE(text_of("plan.yaml"), kinetic::trajectory_to_ros_yaml(json));
    QCOMPARE(text_of("plan.script"), kinetic::trajectory_to_urscript(json));
    const auto robot = kinetic::load_builtin_robot("ur5e");
    QVERIFY(json.samples().front().position.isApprox(robot->named_pose("home")));
    QVERIFY(json.samples().back().position.isApprox(robot->named_pose("ready"), 1e-9));
  }

  void same_seed_same_trajectory() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const std::string outputs = R"({"trajectories": [{"file": "t.json"}]})";
    const std::string goal = R"({"pose": {"xyz": [0.4, 0.3, 0.3], "rpy": [3.14159, 0, 0]}})";
    QCOMPARE(run_text(job("ur5e", kNoScene, goal, outputs), d).code, int(kExitOk));
    const std::string first = kinetic::read_text_file(d / "t.json");
    QCOMPARE(run_text(job("ur5e", kNoScene, goal, outputs), d).code, int(kExitOk));
    QCOMPARE(kinetic::read_text_file(d / "t.json"), first);
  }

  void unknown_robot_lists_close_names() {
    QTemporaryDir dir;
    const Run run =
        run_text(job("ur5x", kNoScene, R"({"named": "ready"})"), dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(
        run.err.find("robot: ") != std::string::npos && run.err.find("ur5e") != std::string::npos,
        run.err.c_str());
  }

  void wrong_joint_count_names_the_field() {
    QTemporaryDir dir;
    const Run run =
        run_text(job("ur5e", kNoScene, R"({"joints": [0, 1, 2]})"), dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(run.err.find("steps[0].goal.joints: expected 6 joint values") != std::string::npos,
             run.err.c_str());
  }

  // On the command line a bad goal names the flag that gave it, not a job file's field.
  void wrong_goal_flags_are_named() {
    const auto said = [](const std::function<void(kinetic::app::CommandLine&)>& set) {
      QTemporaryDir dir;
      kinetic::app::CommandLine line;
      line.headless = true;
      line.output_dir = dir.path();
      line.exports = {QStringLiteral("t.json")};
      set(line);
      std::ostringstream out, err;
      const int code = run_headless(line, out, err);
      return std::to_string(code) + " " + err.str();
    };
    const std::string joints = said([](auto& l) { l.goal_joints = QStringLiteral("0 1 2"); });
    QVERIFY2(joints.rfind("2 ", 0) == 0 &&
                 joints.find(": --goal-joints: expected 6 joint values") != std::string::npos,
             joints.c_str());
    const std::string named = said([](auto& l) { l.goal_named = QStringLiteral("nope"); });
    QVERIFY2(named.rfind("2 ", 0) == 0 &&
                 named.find(": --goal-named: robot 'ur5e' has no named pose 'nope'") !=
                     std::string::npos,
             named.c_str());
    QVERIFY2(named.find("goal.goal") == std::string::npos, named.c_str());
  }

  void unreachable_goal_fails_planning() {
    QTemporaryDir dir;
    const Run run = run_text(job("ur5e", kNoScene, R"({"pose": {"xyz": [3, 0, 0.5]}})"),
                             dir.path().toStdString());
    QCOMPARE(run.code, int(kExitPlanningFailed));
    QVERIFY2(run.err.find("steps[0] (\"step1\"): planning failed") != std::string::npos,
             run.err.c_str());
  }

  void start_in_collision_names_the_links() {
    QTemporaryDir dir;
    const std::string scene =
        R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "pillar",
      "shape": {"type": "box", "size": [0.3, 0.3, 0.3]}, "pose": {"position": [0, 0, 0.6], "orientation": [0, 0, 0, 1]}}]})";
    const Run run = run_text(job("ur5e", scene, R"({"named": "ready"})"), dir.path().toStdString());
    QCOMPARE(run.code, int(kExitPlanningFailed));
    QVERIFY2(run.err.find("start: ") != std::string::npos &&
                 run.err.find("pillar") != std::string::npos &&
                 run.err.find("link") != std::string::npos,
             run.err.c_str());
  }

  // A scene obstacle's mesh that cannot be found is a scene problem, said as one.
  void missing_scene_mesh_is_a_scene_error() {
    QTemporaryDir dir;
    const std::string scene =
        R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "part",
      "shape": {"type": "mesh", "path": "/nonexistent/part.stl"}, "pose": {"position": [0.5, 0, 0], "orientation": [0, 0, 0, 1]}}]})";
    const Run run = run_text(job("ur5e", scene, R"({"named": "ready"})"), dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(run.err.find("scene: collision mesh file not found: /nonexistent/part.stl") !=
                     std::string::npos &&
                 run.err.find("robot:") == std::string::npos,
             run.err.c_str());
  }

  // A mesh drawn in millimetres reads as metres a thousand times too large: the run goes on (an
  // environment may be that large) with a warning naming the object and the scale to give it.
  void a_mesh_in_millimetres_is_warned_about() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    {
      std::ofstream stl(d / "part_mm.stl");
      const double v[4][3] = {{0, 0, 0}, {100, 0, 0}, {0, 60, 0}, {0, 0, 40}};
      const int faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
      stl << "solid part\n";
      for (const auto& f : faces) {
        stl << " facet normal 0 0 0\n  outer loop\n";
        for (int i : f) stl << "   vertex " << v[i][0] << " " << v[i][1] << " " << v[i][2] << "\n";
        stl << "  endloop\n endfacet\n";
      }
      stl << "endsolid part\n";
    }
    const std::string scene =
        std::string(
            "{\"format\": \"kinetic-scene\", \"version\": 1, \"obstacles\": [{\"name\": "
            "\"part\", ") +
        "\"shape\": {\"type\": \"mesh\", \"path\": \"" + (d / "part_mm.stl").string() +
        "\"}, \"pose\": {\"position\": [2, 0, 0], \"orientation\": [0, 0, 0, 1]}}]}";
    const Run run = run_text(job("ur5e", scene, R"({"named": "ready"})"), d);
    QCOMPARE(run.code, int(kExitOk));
    QVERIFY2(run.err.find("warning: scene: 'part' is 100.0 m across as read: if it was drawn in "
                          "millimetres, give it "
                          "scale 0.001 on every axis") != std::string::npos,
             run.err.c_str());
  }

  void unwritable_output_directory_fails_before_planning() {
    // (A job file's folder is relative to it: an absolute one is the command line's to give.)
    const Run run = run_text(
        job("ur5e", kNoScene, R"({"named": "ready"})", R"({"directory": "kinetic-out"})"), "/proc");
    QCOMPARE(run.code, int(kExitWriteFailed));
    QVERIFY2(
        run.err.find("outputs.directory: cannot create /proc/kinetic-out") != std::string::npos,
        run.err.c_str());
    QVERIFY(run.out.find("step 1") == std::string::npos);
  }

  void unwritable_output_file_leaves_nothing() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    fs::create_directories(d / "taken.json");  // a folder where the file should go
    // The export before it is not moved into place either: the set is all or nothing.
    const Run run =
        run_text(job("ur5e", kNoScene, R"({"named": "ready"})",
                     R"({"trajectories": [{"file": "first.csv"}, {"file": "taken.json"}]})"),
                 d);
    QCOMPARE(run.code, int(kExitWriteFailed));
    QVERIFY2(run.err.find("taken.json is a folder; nothing was written") != std::string::npos,
             run.err.c_str());
    QVERIFY2(run.out.find("step 1") == std::string::npos, "found before planning");
    QVERIFY(fs::is_directory(d / "taken.json"));
    QVERIFY(!fs::exists(d / "first.csv"));
    QCOMPARE(std::distance(fs::directory_iterator(d), fs::directory_iterator()), std::ptrdiff_t(1));
  }

  void malformed_job_file_gives_line_and_column() {
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / "bad.json";
    kinetic::write_file_atomically(path, "{\n  \"format\": \"kinetic-job\"\n  \"version\": 1\n}\n");
    kinetic::app::CommandLine line;
    line.headless = true;
    line.job = QString::fromStdString(path.string());
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(err.str().find(path.string() + ":3:") != std::string::npos, err.str().c_str());
  }

  void removed_working_directory_is_said() {
    QTemporaryDir dir;
    const fs::path previous = fs::current_path();
    const fs::path gone = fs::path(dir.path().toStdString()) / "gone";
    fs::create_directories(gone);
    fs::current_path(gone);
    fs::remove(gone);
    kinetic::app::CommandLine line;
    line.headless = true;
    line.goal_named = QStringLiteral("ready");
    std::ostringstream out, err;
    const int outputs_here =
        run_headless(line, out, err);  // outputs would go to the working directory
    line.goal_named.clear();
    line.job = QStringLiteral("job.json");  // relative: cannot be resolved
    std::ostringstream out2, err2;
    const int relative_job = run_headless(line, out2, err2);
    fs::current_path(previous);
    QCOMPARE(outputs_here, int(kExitWriteFailed));
    QVERIFY2(err.str().find("working directory no longer exists") != std::string::npos,
             err.str().c_str());
    QCOMPARE(relative_job, int(kExitBadJob));
    QVERIFY2(err2.str().find("working directory no longer exists") != std::string::npos,
             err2.str().c_str());
  }

  void flags_a_job_file_would_ignore_are_refused() {
    kinetic::app::CommandLine line;
    line.headless = true;
    line.job = QStringLiteral("/nonexistent/job.json");
    line.robot = QStringLiteral("panda");
    line.robot_given = true;
    line.seed = QStringLiteral("3");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(err.str().find("--robot, --seed would be ignored") != std::string::npos,
             err.str().c_str());
  }

  void flags_that_do_nothing_are_refused() {
    const auto refused = [](const std::function<void(kinetic::app::CommandLine&)>& set,
                            const std::string& said) {
      kinetic::app::CommandLine line;
      line.headless = true;
      line.goal_named = QStringLiteral("ready");
      set(line);
      try {
        job_from_flags(line);
      } catch (const JobError& error) {
        return std::string(error.what()).find(said) != std::string::npos;
      }
      return false;
    };
    QVERIFY(refused([](auto& l) { l.size = QStringLiteral("640x480"); },
                    "--size: sets the image of --screenshot"));
    QVERIFY(refused([](auto& l) { l.view = QStringLiteral("top"); },
                    "--view: sets the image of --screenshot"));
    QVERIFY(refused([](auto& l) { l.screenshot = QStringLiteral("shot.jpg"); },
                    "needs the extension .png"));
    QVERIFY(refused(
        [](auto& l) {
          l.exports = {QStringLiteral("a.json"), QStringLiteral("a.json")};
        },
        "given twice"));
    QVERIFY(refused([](auto& l) { l.srdf = QStringLiteral("x.srdf"); },
                    "--srdf: goes with a robot opened from a URDF"));
  }

  // A start given out of the joint limits is a bad value (exit 2, docs/headless-jobs.md), as one
  // that is not a number is.
  void start_out_of_limits_is_a_bad_value() {
    QTemporaryDir dir;
    const std::string text =
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": [0, -1.57, 9, 0, 0, 0],
      "steps": [{"goal": {"named": "ready"}}]})";
    const Run run = run_text(text, dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(run.err.find("start: ") != std::string::npos &&
                 run.err.find("within the joint's limits") != std::string::npos,
             run.err.c_str());
  }

  void outputs_never_overwrite_the_job_file() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const std::string text = job("ur5e", kNoScene, R"({"named": "ready"})",
                                 R"({"trajectories": [{"file": "job.json"}]})");
    kinetic::write_file_atomically(d / "job.json", text);
    kinetic::app::CommandLine line;
    line.headless = true;
    line.job = QString::fromStdString((d / "job.json").string());
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(err.str().find("would overwrite the job file") != std::string::npos,
             err.str().c_str());
    QCOMPARE(kinetic::read_text_file(d / "job.json"), text);
  }

  void a_steps_preset_keeps_the_defaults_options() {
    const std::string text =
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home",
      "defaults": {"options": {"margin": 0.05, "seed": 9}},
      "steps": [{"goal": {"named": "ready"}, "preset": "offline"}, {"goal": {"named": "home"}, "preset": "realtime",
                 "options": {"margin": 0.03}}]})";
    const Job parsed = parse_job(text, "job.json", "/tmp");
    QCOMPARE(parsed.steps[0].options.margin, 0.05);       // the defaults' option over the preset
    QCOMPARE(parsed.steps[0].options.timeout_ms, 500.0);  // the preset's own value otherwise
    QCOMPARE(parsed.steps[0].options.seed, std::uint64_t{9});
    QCOMPARE(parsed.steps[1].options.margin, 0.03);  // the step's own option over both
    QCOMPARE(parsed.steps[1].options.timeout_ms, 10.0);
  }

  void planner_notes_are_warnings() {
    QTemporaryDir dir;
    const std::string scene =
        R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "crate",
      "shape": {"type": "box", "size": [0.1, 0.1, 0.1]}, "pose": {"position": [0.7, 0.6, 0.05], "orientation": [0, 0, 0, 1]}}]})";
    const std::string text =
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "scene": )" + scene +
        R"(, "start": "home", "steps": [{"goal": {"named": "ready"}, "options": {"margin": 1.0}}]})";
    const Run run = run_text(text, dir.path().toStdString());
    QCOMPARE(run.code, int(kExitOk));
    QVERIFY2(
        run.err.find("warning: step \"step1\": margin reduced from 1.000 m") != std::string::npos,
        run.err.c_str());
  }

  void missing_job_file_is_named() {
    kinetic::app::CommandLine line;
    line.headless = true;
    line.job = QStringLiteral("/nonexistent/job.json");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(
                 err.str(), "job file '/nonexistent/job.json' does not exist (check the path)"),
             err.str().c_str());
    // A relative one: where it was looked for, as for a missing URDF.
    line.job = QStringLiteral("jobs/nope.json");
    std::ostringstream out2, err2;
    QCOMPARE(run_headless(line, out2, err2), int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(
                 err2.str(),
                 "job file 'jobs/nope.json' does not exist (check the path: relative "
                 "paths are taken from the current directory, " +
                     fs::current_path().string() + ")"),
             err2.str().c_str());
  }

  // A session or a scene file given as the job, and a job given as --scene, are said as what they
  // are, with where they go (their first unknown field was said before).
  void files_of_another_kind_are_said_as_what_they_are() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "s.kinetic-session",
                                   R"({"format": "kinetic-session", "version": 1, "camera": {}})");
    const fs::path job_file = d / "job.json";
    kinetic::write_file_atomically(job_file, job("ur5e", kNoScene, R"({"named": "ready"})"));
    const auto said = [&](const std::function<void(kinetic::app::CommandLine&)>& set) {
      kinetic::app::CommandLine line;
      line.headless = true;
      set(line);
      std::ostringstream out, err;
      const int code = run_headless(line, out, err);
      return std::to_string(code) + " " + err.str();
    };
    const std::string session =
        said([&](auto& l) { l.job = QString::fromStdString((d / "s.kinetic-session").string()); });
    QVERIFY2(kinetic::test::mentions(
                 session, "2 kinetic-studio --headless: " + (d / "s.kinetic-session").string() +
                              ": this is a Kinetic session file, not a job: open it in the studio"),
             session.c_str());
    const std::string scene = said([&](auto& l) {
      l.goal_named = QStringLiteral("ready");
      l.scene = QString::fromStdString(job_file.string());
    });
    QVERIFY2(kinetic::test::mentions(scene,
                                     "2 kinetic-studio --headless: --scene: " + job_file.string() +
                                         ": this is a headless job file, not a scene: run it with "
                                         "kinetic-studio --headless " +
                                         job_file.string()),
             scene.c_str());
  }

  // A run that fails part way has printed its summary up to there: the start it took and the steps
  // that succeeded (they used to be lost with the error).
  void a_failed_run_prints_its_summary_up_to_the_failure() {
    kinetic::app::CommandLine line;
    line.headless = true;
    line.goal_relative = QStringLiteral("0 0 0.05");  // from home, stretched up: out of reach
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitPlanningFailed));
    QVERIFY2(out.str() == "start: pose 'home', as no --start was given\n", out.str().c_str());

    QTemporaryDir dir;
    const std::string text =
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home",
      "steps": [{"name": "up", "goal": {"named": "ready"}}, {"name": "away", "goal": {"pose": {"xyz": [3, 0, 0.5]}}}]})";
    const Run run = run_text(text, dir.path().toStdString());
    QCOMPARE(run.code, int(kExitPlanningFailed));
    QVERIFY2(run.out.rfind("step 1/2 \"up\": rrt_connect, ", 0) == 0 &&
                 !kinetic::test::mentions(run.out, "step 2/2"),
             run.out.c_str());
    QVERIFY2(kinetic::test::mentions(run.err, "steps[1] (\"away\"): planning failed"),
             run.err.c_str());
  }

  // What can be checked before planning is: a URScript for an arm that is not a UR (exit 2), an
  // output under a file (exit 4, its temporary never named), a goal out of the joint limits (exit
  // 2, a bad value). The summary shows nothing was planned.
  void what_can_fail_before_planning_does() {
    const auto run = [](const std::function<void(kinetic::app::CommandLine&)>& set) {
      kinetic::app::CommandLine line;
      line.headless = true;
      line.goal_named = QStringLiteral("ready");
      set(line);
      std::ostringstream out, err;
      const int code = run_headless(line, out, err);
      return std::make_tuple(code, out.str(), err.str());
    };
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const auto [script_code, script_out, script] = run([&](auto& l) {
      l.robot = QStringLiteral("panda");
      l.robot_given = true;
      l.goal_named.clear();
      l.goal_joints = QStringLiteral("0 -0.5 0 -2 0 1.6 0.8");
      l.output_dir = dir.path();
      l.exports = {QStringLiteral("x.script")};
    });
    QCOMPARE(script_code, int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(
                 script,
                 "trajectory \"x.script\": URScript export is for 6-joint Universal Robots "
                 "arms; 'panda''s trajectory has"),
             script.c_str());
    QVERIFY2(!kinetic::test::mentions(script_out, "step 1"), script_out.c_str());

    kinetic::write_file_atomically(d / "a.json", "a file\n");
    const auto [under_code, under_out, under] = run([&](auto& l) {
      l.output_dir = dir.path();
      l.exports = {QStringLiteral("a.json/x.json")};
    });
    QCOMPARE(under_code, int(kExitWriteFailed));
    QVERIFY2(
        kinetic::test::mentions(under, "trajectory \"a.json/x.json\": cannot create the folder " +
                                           (d / "a.json").string() + ": " +
                                           (d / "a.json").string() + " is a file"),
        under.c_str());
    QVERIFY2(!kinetic::test::mentions(under, ".partial") &&
                 !kinetic::test::mentions(under_out, "step 1"),
             under.c_str());

    // A name the file system cannot take (with its temporary's extra characters) fails at once,
    // not after the planning.
    const QString long_name = QString(240, QLatin1Char('n')) + QStringLiteral(".json");
    const auto [long_code, long_out, too_long] = run([&](auto& l) {
      l.output_dir = dir.path();
      l.exports = {long_name};
    });
    QCOMPARE(long_code, int(kExitWriteFailed));
    QVERIFY2(kinetic::test::mentions(
                 too_long, "the file name is 245 bytes long; outputs may have at most 238"),
             too_long.c_str());
    QVERIFY2(!kinetic::test::mentions(long_out, "step 1"), long_out.c_str());

    const auto [limits_code, limits_out, limits] = run([&](auto& l) {
      l.goal_named.clear();
      l.goal_joints = QStringLiteral("0 0 0 0 0 7");
    });
    QCOMPARE(limits_code, int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(limits,
                                     "--goal-joints: joint 'joint6' is at 7, outside its limits"),
             limits.c_str());
    // In a job file the last step's goal is checked before the first step is planned.
    const Run last =
        run_text(R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home",
      "steps": [{"goal": {"named": "ready"}}, {"goal": {"joints": [0, 0, 0, 0, 0, 7]}}]})",
                 d);
    QCOMPARE(last.code, int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(last.err, "steps[1].goal.joints: joint 'joint6' is at 7") &&
                 !kinetic::test::mentions(last.out, "step 1"),
             (last.out + last.err).c_str());
  }

  // Frames that cannot fit where they go fail before planning, saying what they need, what is free
  // and what to change (10,000 frames at 3840x2160 used to run for an hour into ~16 GB of PNGs).
  void frames_that_cannot_fit_fail_before_planning() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const std::uintmax_t needed = 100000 * estimated_png_bytes(8192, 8192);
    QCOMPARE(byte_size_text(needed), std::string("1.3 TB"));
    if (fs::space(d).available >= needed) QSKIP("the temporary folder has more than 1.3 TB free");
    const std::string outputs =
        std::string(kSmallScreenshot) +
        R"("frames": [{"pattern": "f/f_#####.png", "count": 100000, "width": 8192, "height": 8192}]})";
    const Run run = run_text(job("ur5e", kNoScene, R"({"named": "ready"})", outputs), d);
    QCOMPARE(run.code, int(kExitWriteFailed));
    QVERIFY2(kinetic::test::mentions(
                 run.err,
                 "frames \"f/f_#####.png\": 100000 frames of 8192x8192 need about 1.3 TB "
                 "as PNG (at least; busy pictures take more), but only ") &&
                 kinetic::test::mentions(
                     run.err,
                     " is free in " + d.string() +
                         "; nothing was planned or written: "
                         "render fewer frames (a smaller \"count\" or \"fps\") or smaller ones"),
             run.err.c_str());
    QVERIFY2(!kinetic::test::mentions(run.out, "step 1"), run.out.c_str());
    QCOMPARE(std::distance(fs::directory_iterator(d), fs::directory_iterator()), std::ptrdiff_t(0));
  }

  // A render that will take long is said before the planning, with what makes it shorter. (The
  // goal out of limits then stops this one before any of it.)
  void a_long_render_is_warned_of() {
    QTemporaryDir dir;
    const std::string outputs =
        std::string(kSmallScreenshot) +
        R"("frames": [{"pattern": "f_#####.png", "count": 10000, "width": 3840, "height": 2160}, )" +
        R"({"pattern": "g_###.png", "count": 100, "width": 640, "height": 480}]})";
    const Run run = run_text(job("ur5e", kNoScene, R"({"joints": [0, 0, 0, 0, 0, 7]})", outputs),
                             dir.path().toStdString());
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(
        kinetic::test::mentions(run.err,
                                "warning: frames \"f_#####.png\": 10000 frames of 3840x2160 (83 "
                                "gigapixels) take about 55 min to render on a CPU renderer") &&
            kinetic::test::mentions(
                run.err, "and 16.6 GB of PNGs: fewer or smaller frames are done sooner\n"),
        run.err.c_str());
    QVERIFY2(!kinetic::test::mentions(run.err, "g_###"), run.err.c_str());  // a short one is not
  }

  // Once the first frame is written its size measures the rest: frames that would not fit stop
  // there, not when the disk is full.
  void frames_that_will_not_fit_stop_after_the_first() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "f_0.png", std::string(100000, 'x'));
    check_rest_of_frames_fits(d / "f_0.png", 1, "frames \"f_#.png\"");  // fits
    if (fs::space(d).available >= std::uintmax_t{10000000000000})
      QSKIP("the temporary folder has more than 10 TB free");
    try {
      check_rest_of_frames_fits(d / "f_0.png", 100000000, "frames \"f_#.png\"");
      QFAIL("10 TB of frames must not fit");
    } catch (const JobFailure& failure) {
      QCOMPARE(int(failure.code()), int(kExitWriteFailed));
      QVERIFY2(kinetic::test::mentions(failure.what(),
                                       "frames \"f_#.png\": the first frame took 100 kB, so the "
                                       "100000000 still to come need about 10.0 TB, but only "),
               failure.what());
    }
  }

  // --preset lists the presets; a Cartesian line on the command line points at the job file's
  // setting it cannot give (min_fraction), not at a field of its own.
  void command_line_messages_say_what_the_command_line_can_do() {
    kinetic::app::CommandLine line;
    line.headless = true;
    line.goal_named = QStringLiteral("ready");
    line.preset = QStringLiteral("fast");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(
        kinetic::test::mentions(
            err.str(),
            "--preset: unknown planner preset 'fast' (use one of: default, realtime, offline)"),
        err.str().c_str());

    line.preset.clear();
    line.goal_named.clear();
    line.start = QStringLiteral("ready");
    line.goal_relative = QStringLiteral("0 0 2");  // along the tool's z, far out of reach
    line.planner = QStringLiteral("cartesian");
    std::ostringstream out2, err2;
    QCOMPARE(run_headless(line, out2, err2), int(kExitPlanningFailed));
    QVERIFY2(kinetic::test::mentions(err2.str(), "of the way: ") &&
                 kinetic::test::mentions(
                     err2.str(), "(a job file's \"cartesian\": { \"min_fraction\" } accepts less)"),
             err2.str().c_str());
  }

  // What a job needs of the robot beyond loading (something to move) is a robot problem (exit 2,
  // "robot: ..."), not a failed plan.
  void robot_problems_after_loading_are_robot_errors() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "zero_velocity.urdf",
                                   R"(<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" velocity="0" effort="1"/></joint></robot>)");
    kinetic::write_file_atomically(d / "no_joints.urdf",
                                   R"(<robot name="r"><link name="a"/></robot>)");
    const auto run = [&](const std::string& urdf, const char* start) {
      kinetic::app::CommandLine line = urdf_run(d / urdf, dir);
      line.start = QString::fromLatin1(start);
      line.goal_joints = QStringLiteral("0.5");
      std::ostringstream out, err;
      const int code = run_headless(line, out, err);
      return std::make_pair(code, err.str());
    };
    // A joint without a velocity limit is planned as MoveIt plans it: with a stated default, said.
    const auto [velocity_code, velocity] = run("zero_velocity.urdf", "0");
    QCOMPARE(velocity_code, 0);
    QVERIFY2(
        velocity.find("warning: robot: ") != std::string::npos &&
            velocity.find("joint 'j' has no velocity limit (velocity=\"0\"); 1 rad/s is taken") !=
                std::string::npos,
        velocity.c_str());
    const auto [joints_code, joints] = run("no_joints.urdf", "0");
    QCOMPARE(joints_code, int(kExitBadJob));
    QVERIFY2(joints.find("robot: 'r' has no movable joints") != std::string::npos, joints.c_str());
  }

  // --start with numbers that are not finite is refused as values, not looked up as a pose name.
  void start_values_that_are_not_numbers_are_named() {
    for (const char* start : {"nan 0 0 0 0 0", "nan", "0, inf, 0, 0, 0, 0"}) {
      kinetic::app::CommandLine line;
      line.headless = true;
      line.start = QString::fromLatin1(start);
      line.goal_named = QStringLiteral("ready");
      std::ostringstream out, err;
      QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
      QVERIFY2(err.str().find("--start: \"") != std::string::npos &&
                   err.str().find("\" is not a number") != std::string::npos,
               err.str().c_str());
    }
  }

  // A visual mesh that is missing (the loader says so) or cannot be read (the renderer says so) is
  // drawn as a placeholder box, and the run says why on stderr, once per mesh. The URDF has no
  // SRDF or kinetic.toml: its one chain of joints is planned as the group.
  void unreadable_visual_meshes_are_warnings() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    fs::create_directories(d / "meshes");
    kinetic::write_file_atomically(d / "meshes" / "corrupt.stl", "solid nothing but words\n");
    kinetic::write_file_atomically(d / "arm.urdf", R"(<robot name="arm"><link name="base"/>
      <link name="upper"><visual><geometry><mesh filename="meshes/gone.stl"/></geometry></visual>
        <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
      <link name="tip"><visual><geometry><mesh filename="meshes/corrupt.stl"/></geometry></visual></link>
      <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.5"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
      <joint name="j2" type="revolute"><parent link="upper"/><child link="tip"/><origin xyz="0 0 0.3"/>
        <axis xyz="0 1 0"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)");
    kinetic::app::CommandLine line = urdf_run(d / "arm.urdf", dir);
    line.start = QStringLiteral("0 0");
    line.goal_joints = QStringLiteral("0.5 0.5");
    line.screenshot = QStringLiteral("arm.png");
    line.size = QStringLiteral("64x48");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitOk));
    const std::string text = err.str();
    const auto count = [&](const std::string& what) {
      size_t n = 0;
      for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
      return n;
    };
    QVERIFY2(
        count("mesh 'meshes/gone.stl'") == 1 && text.find("warning: robot: ") != std::string::npos,
        text.c_str());
    QVERIFY2(count("warning: robot: tip: mesh 'meshes/corrupt.stl' could not be loaded") == 1 &&
                 text.find("placeholder box") != std::string::npos,
             text.c_str());
    QVERIFY(fs::exists(d / "arm.png"));
  }

  // Without --start a run starts where the studio opens the robot: a URDF that names no pose
  // starts at zero clamped into its limits (it used to fail: "robot 'arm' has no named pose
  // 'home'"), and the summary says so.
  void without_start_a_robot_with_no_poses_starts_at_zero_within_limits() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "arm.urdf",
                                   R"(<robot name="arm"><link name="base"/><link name="upper"/>
      <link name="tip"/>
      <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.5"/>
        <axis xyz="0 0 1"/><limit lower="0.2" upper="1" velocity="1" effort="1"/></joint>
      <joint name="j2" type="revolute"><parent link="upper"/><child link="tip"/><origin xyz="0 0 0.3"/>
        <axis xyz="0 1 0"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)");
    kinetic::app::CommandLine line = urdf_run(d / "arm.urdf", dir);
    line.goal_joints = QStringLiteral("0.5 0.5");
    line.exports = {QStringLiteral("t.json")};
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitOk));
    // Its folder holds no SRDF: the summary says so first (docs/headless-jobs.md: "Command line").
    QVERIFY2(out.str().rfind("srdf: none found, as no --srdf was given\n"
                             "start: zeros within the joint limits, as no --start was given\n",
                             0) == 0,
             out.str().c_str());
    const auto trajectory = kinetic::load_trajectory(d / "t.json");
    QVERIFY(trajectory.samples().front().position.isApprox(Eigen::Vector2d(0.2, 0.0)));
  }

  // A job file without "start" starts from the robot's rest pose, and says so in its words.
  void a_job_without_a_start_says_where_it_started() {
    QTemporaryDir dir;
    const Run run = run_text(R"({"format": "kinetic-job", "version": 1, "robot": "ur5e",
      "steps": [{"goal": {"named": "ready"}}]})",
                             dir.path().toStdString());
    QCOMPARE(run.code, int(kExitOk));
    QVERIFY2(run.out.rfind("start: pose 'home', as no \"start\" was given\n", 0) == 0,
             run.out.c_str());
  }

  // The shared Panda's SRDF names its rest pose "default": a run without --start starts there.
  void without_start_the_srdf_rest_pose_is_the_start() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    QTemporaryDir dir;
    const std::string panda = kinetic::test::example_robot_data_dir() + "/robots/panda_description";
    kinetic::app::CommandLine line = urdf_run(panda + "/urdf/panda.urdf", dir);
    line.srdf = QString::fromStdString(panda + "/srdf/panda.srdf");
    line.package_paths = {QString::fromStdString(kinetic::test::shared_robots_dir())};
    line.goal_joints = QStringLiteral("0.5 -0.5 0 -2 0 1.6 0.8 0.001");
    line.exports = {QStringLiteral("t.json")};
    std::ostringstream out, err;
    QVERIFY2(run_headless(line, out, err) == int(kExitOk), err.str().c_str());
    QVERIFY2(out.str().rfind("start: pose 'default', as no --start was given\n", 0) == 0,
             out.str().c_str());
    kinetic::LoadOptions options;
    options.package_paths = {kinetic::test::shared_robots_dir()};
    const auto robot = kinetic::load_robot_file(panda + "/urdf/panda.urdf",
                                                panda + "/srdf/panda.srdf", "", options);
    const auto trajectory = kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "t.json");
    QVERIFY(trajectory.samples().front().position.isApprox(robot->named_pose("default"), 1e-12));

    // The shared Kinova names no rest pose and its zero pose is in self-collision; its one state
    // "arm_up" (joint 3 written a turn outside the URDF's limits, loaded a turn on) is free: the
    // run starts there and says why.
    const std::string kinova =
        kinetic::test::example_robot_data_dir() + "/robots/kinova_description";
    line.robot = QString::fromStdString(kinova + "/robots/kinova.urdf");
    line.srdf = QString::fromStdString(kinova + "/srdf/kinova.srdf");
    line.goal_joints.clear();
    line.goal_named = QStringLiteral("arm_up");
    std::ostringstream out2, err2;
    QVERIFY2(run_headless(line, out2, err2) == int(kExitOk), err2.str().c_str());
    QVERIFY2(kinetic::test::mentions(out2.str(),
                                     "start: pose 'arm_up' (zeros within the joint limits are in "
                                     "self-collision: '") &&
                 kinetic::test::mentions(out2.str(), "), as no --start was given\n"),
             out2.str().c_str());
  }

  // A URDF given without an SRDF gets the one its package keeps, and the summary's first line says
  // which and how; --srdf none and a job's "srdf": "" load none (the Panda then has no "default").
  void a_urdf_without_an_srdf_gets_the_one_found_and_says_so() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    QTemporaryDir dir;
    const std::string panda = kinetic::test::example_robot_data_dir() + "/robots/panda_description";
    kinetic::app::CommandLine line = urdf_run(panda + "/urdf/panda.urdf", dir);
    line.goal_joints = QStringLiteral("0.5 -0.5 0 -2 0 1.6 0.8 0.001");
    line.exports = {QStringLiteral("t.json")};
    std::ostringstream out, err;
    QVERIFY2(run_headless(line, out, err) == int(kExitOk), err.str().c_str());
    QVERIFY2(
        out.str().rfind(
            "srdf: ../srdf/panda.srdf, found in the package's srdf folder, as no --srdf was given\n"
            "start: pose 'default', as no --start was given\n",
            0) == 0,
        out.str().c_str());

    line.srdf = QStringLiteral("none");
    line.start = line.goal_joints;  // without the SRDF's disabled pairs, zeros self-collide
    line.goal_joints.clear();
    line.goal_named = QStringLiteral("default");
    std::ostringstream out2, err2;
    QCOMPARE(run_headless(line, out2, err2), int(kExitBadJob));
    QVERIFY2(err2.str().find("has no named pose 'default'") != std::string::npos,
             err2.str().c_str());

    const std::string robot = "{\"urdf\": \"" + panda + "/urdf/panda.urdf\"";
    const std::string steps = R"(, "steps": [{"goal": {"named": "default"}}]})";
    const std::string start = R"(, "start": [0.5, -0.5, 0, -2, 0, 1.6, 0.8, 0.001])";
    const Run none = run_text(R"({"format": "kinetic-job", "version": 1, "robot": )" + robot +
                                  R"(, "srdf": ""})" + start + steps,
                              dir.path().toStdString());
    QCOMPARE(none.code, int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(none.err, "has no named pose 'default'"), none.err.c_str());
    const Run found = run_text(
        R"({"format": "kinetic-job", "version": 1, "robot": )" + robot + "}" + start + steps,
        dir.path().toStdString());
    QCOMPARE(found.code, int(kExitOk));
    QVERIFY2(found.out.rfind("srdf: ../srdf/panda.srdf, found in the package's srdf folder, as no "
                             "\"srdf\" was given\n"
                             "step 1/1",
                             0) == 0,
             found.out.c_str());
  }

  // A run without a start whose robot names no rest pose and folds into itself at zero starts at
  // its first free named pose, and says why; a broken SRDF that was found is named in the error.
  void the_start_is_the_first_free_named_pose_when_zeros_self_collide() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "folding.urdf", R"(<robot name="folding">
  <link name="base"><collision><origin xyz="0 0 0.05"/><geometry><box size="0.3 0.3 0.1"/></geometry></collision></link>
  <link name="turret"><collision><origin xyz="0 0 0.2"/><geometry><sphere radius="0.02"/></geometry></collision></link>
  <link name="bar"><collision><origin xyz="0 0 -0.3"/><geometry><box size="0.05 0.05 0.6"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="turret"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
  <joint name="j2" type="revolute"><parent link="turret"/><child link="bar"/><origin xyz="0 0 0.4"/>
    <axis xyz="0 1 0"/><limit lower="-3.2" upper="3.2" velocity="1" effort="1"/></joint>
</robot>)");
    kinetic::write_file_atomically(
        d / "folding.srdf",
        R"(<robot name="folding"><group name="arm"><chain base_link="base" tip_link="bar"/></group>
  <group_state name="up" group="arm"><joint name="j1" value="0"/><joint name="j2" value="3.1"/></group_state></robot>)");
    kinetic::app::CommandLine line = urdf_run(d / "folding.urdf", dir);
    line.goal_joints = QStringLiteral("0.5 3.0");
    std::ostringstream out, err;
    QVERIFY2(run_headless(line, out, err) == int(kExitOk), err.str().c_str());
    QVERIFY2(kinetic::test::mentions(
                 out.str(),
                 "srdf: folding.srdf, found beside the URDF, as no --srdf was given\n"
                 "start: pose 'up' (zeros within the joint limits are in self-collision: '") &&
                 kinetic::test::mentions(out.str(), "), as no --start was given\n"),
             out.str().c_str());

    kinetic::write_file_atomically(d / "folding.srdf", "<robot name=\"folding\"><group_state");
    std::ostringstream out2, err2;
    QCOMPARE(run_headless(line, out2, err2), int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(
                 err2.str(),
                 "(loaded with the SRDF folding.srdf found for the URDF; --srdf none "
                 "loads without it)"),
             err2.str().c_str());
  }

  // A folder given as the robot is a robot file problem, not an unknown built-in name.
  // A xacro robot is expanded with its arguments: --xacro-arg NAME:=VALUE, or a job's
  // "xacro_args". Here the arm's joint limit is an argument: a goal beyond its default is refused,
  // within the given one it is planned.
  void a_xacro_robot_takes_its_arguments_from_flags_and_jobs() {
    QTemporaryDir dir;
    const fs::path xacro = fs::path(dir.path().toStdString()) / "arm.urdf.xacro";
    {
      std::ofstream file(xacro);
      file
          << "<robot name=\"arm\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
             "<xacro:arg name=\"limit\" default=\"1.0\"/>\n"
             "<xacro:property name=\"limit\" value=\"$(arg limit)\"/>\n"
             "<link name=\"base\"/><link name=\"upper\"/><link name=\"lower\"/>\n"
             "<xacro:macro name=\"hinge\" params=\"name parent child z\">\n"
             "<joint name=\"${name}\" type=\"revolute\"><parent link=\"${parent}\"/><child "
             "link=\"${child}\"/>\n"
             "<origin xyz=\"0 0 ${z}\"/><axis xyz=\"0 1 0\"/>\n"
             "<limit lower=\"${-limit}\" upper=\"${limit}\" velocity=\"1\" effort=\"1\"/></joint>\n"
             "</xacro:macro>\n"
             "<xacro:hinge name=\"j1\" parent=\"base\" child=\"upper\" z=\"0.1\"/>\n"
             "<xacro:hinge name=\"j2\" parent=\"upper\" child=\"lower\" z=\"0.5\"/>\n"
             "</robot>\n";
    }
    kinetic::app::CommandLine line = urdf_run(xacro, dir);
    line.start = QStringLiteral("0 0");
    line.goal_joints = QStringLiteral("1.5 0.3");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(err.str().find("j1") != std::string::npos, err.str().c_str());
    line.xacro_args = {QStringLiteral("limit:=2.0")};
    std::ostringstream out2, err2;
    QVERIFY2(run_headless(line, out2, err2) == int(kExitOk), err2.str().c_str());

    const std::string job_text =
        R"({"format": "kinetic-job", "version": 1, "robot": {"urdf": "arm.urdf.xacro", "xacro_args": {"limit": 2}},)"
        R"( "start": [0, 0], "steps": [{"goal": {"joints": [1.5, 0.3]}}]})";
    const Run run = run_text(job_text, dir.path().toStdString());
    QVERIFY2(run.code == int(kExitOk), run.err.c_str());
    const Run wrong = run_text(
        R"({"format": "kinetic-job", "version": 1, "robot": {"urdf": "arm.urdf.xacro", "xacro_args": ["limit"]},)"
        R"( "steps": [{"goal": {"joints": [0.5, 0.3]}}]})",
        dir.path().toStdString());
    QCOMPARE(wrong.code, int(kExitBadJob));
    QVERIFY2(wrong.err.find("xacro_args") != std::string::npos, wrong.err.c_str());

    // Not NAME:=VALUE: refused by the command line, as xacro would; the studio (which expands with
    // the defaults) refuses it rather than dropping it.
    QVERIFY(!kinetic::app::parse_command_line(
        {QStringLiteral("kinetic-studio"), QStringLiteral("--headless"),
         QStringLiteral("--xacro-arg"), QStringLiteral("limit=2")}));
    QVERIFY(kinetic::app::parse_command_line(
        {QStringLiteral("kinetic-studio"), QStringLiteral("--headless"),
         QStringLiteral("--xacro-arg"), QStringLiteral("limit:=2")}));
    QVERIFY(!kinetic::app::parse_command_line(
        {QStringLiteral("kinetic-studio"), QString::fromStdString(xacro.string()),
         QStringLiteral("--xacro-arg"), QStringLiteral("limit:=2")}));
  }

  void a_folder_as_the_robot_is_named_as_a_file() {
    QTemporaryDir dir;
    kinetic::app::CommandLine line;
    line.headless = true;
    line.robot = dir.path();
    line.robot_given = true;
    line.goal_named = QStringLiteral("ready");
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(err.str().find("is a folder, not a file") != std::string::npos &&
                 err.str().find("built-in") == std::string::npos,
             err.str().c_str());
  }

  // Outputs are staged and moved into place together: a set that is not committed (the job failed
  // after some of them were made) leaves nothing: no file, no temporary, not even the folders it
  // made.
  void an_uncommitted_output_set_leaves_nothing() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    {
      OutputSet outputs(d / "out" / "nested");
      outputs.create_directory();
      for (const char* file : {"t.json", "frames/f_0.png"}) {
        const fs::path temporary = outputs.claim(file, file);
        kinetic::write_file_atomically(temporary, "staged\n");
        QVERIFY(fs::exists(temporary));
      }
    }
    QVERIFY2(!fs::exists(d / "out"), "the output folders made for the set are removed");
    QCOMPARE(std::distance(fs::directory_iterator(d), fs::directory_iterator()), std::ptrdiff_t(0));
  }

  // A writer's message names the output, never the hidden temporary it was staged in.
  void messages_name_outputs_not_their_temporaries() {
    QTemporaryDir dir;
    OutputSet outputs(dir.path().toStdString());
    const fs::path temporary = outputs.claim("plan.json", "trajectory \"plan.json\"");
    const std::string said =
        outputs.in_final_names("cannot write '" + temporary.string() + "': disk full");
    QCOMPARE(said, "cannot write '" + (fs::path(dir.path().toStdString()) / "plan.json").string() +
                       "': disk full");
  }

  // A screenshot named like one of the frames is found before the job runs: nothing is planned,
  // no folder made.
  void a_screenshot_named_like_a_frame_is_refused_before_planning() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const std::string outputs =
        R"({"directory": "out/nested", "trajectories": [{"file": "t.json"}, {"file": "t.csv"}],
      "screenshots": [{"file": "f_0.png", "width": 64, "height": 48}],
      "frames": [{"pattern": "f_#.png", "count": 2, "width": 64, "height": 48}]})";
    const Run run = run_text(job("ur5e", kNoScene, R"({"named": "ready"})", outputs), d);
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(kinetic::test::mentions(run.err,
                                     "outputs.frames[0].pattern: \"f_#.png\" writes the file of "
                                     "outputs.screenshots[0] (\"f_0.png\")"),
             run.err.c_str());
    QVERIFY2(!fs::exists(d / "out"), "no output folder is made");
    QVERIFY(run.out.find("step 1") == std::string::npos);

    // The same outputs without the clash: all of them, and nothing else, in place.
    const std::string fixed =
        R"({"directory": "out/nested", "trajectories": [{"file": "t.json"}, {"file": "t.csv"}],
      "screenshots": [{"file": "shot.png", "width": 64, "height": 48}],
      "frames": [{"pattern": "f_#.png", "count": 2, "width": 64, "height": 48}]})";
    const Run ok = run_text(job("ur5e", kNoScene, R"({"named": "ready"})", fixed), d);
    QCOMPARE(ok.code, int(kExitOk));
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(d / "out" / "nested"))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    QCOMPARE(names,
             (std::vector<std::string>{"f_0.png", "f_1.png", "shot.png", "t.csv", "t.json"}));
    QVERIFY2(ok.out.find("wrote 2 frames of \"all\"") != std::string::npos, ok.out.c_str());
  }

  // An interrupt (what Ctrl-C sets) stops the job at the next safe point: exit 130, said, and the
  // existing outputs of an earlier run stay as they were. (app_headless_interrupted_mid_render
  // sends a real SIGINT while frames are rendered.)
  void an_interrupted_job_writes_nothing() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    kinetic::write_file_atomically(d / "t.json", "earlier run\n");
    interrupt_requested() = true;
    const Run run = run_text(
        job("ur5e", kNoScene, R"({"named": "ready"})", R"({"trajectories": [{"file": "t.json"}]})"),
        d);
    interrupt_requested() = false;
    QCOMPARE(run.code, int(kExitInterrupted));
    QVERIFY2(run.err.find("interrupted; no output was written") != std::string::npos,
             run.err.c_str());
    QCOMPARE(kinetic::read_text_file(d / "t.json"), std::string("earlier run\n"));
    QCOMPARE(std::distance(fs::directory_iterator(d), fs::directory_iterator()), std::ptrdiff_t(1));
  }

  // Ctrl-C while a pose goal's IK runs (its kinetic.toml gives it an hour) stops the job as it does
  // during the search: exit 130, said, at once (it went on until killed).
  void an_interrupt_stops_the_ik_of_a_pose_goal() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    std::string urdf = R"(<robot name="arm7"><link name="l0"/>)";
    for (int i = 1; i <= 7; ++i) {
      const std::string n = std::to_string(i), parent = "l" + std::to_string(i - 1);
      urdf += "<link name=\"l" + n + "\"/><joint name=\"j" + n +
              "\" type=\"revolute\"><parent link=\"" + parent + "\"/><child link=\"l" + n +
              "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"" + (i % 2 ? "0 0 1" : "0 1 0") +
              "\"/><limit lower=\"-3\" upper=\"3\" velocity=\"1\" effort=\"1\"/></joint>";
    }
    kinetic::write_file_atomically(d / "arm.urdf", urdf + "</robot>");
    kinetic::write_file_atomically(
        d / "kinetic.toml",
        "[ik]\nsolver = \"numeric\"\ntimeout_ms = 3600000\nmax_iterations = 1000000\n");
    std::thread ctrl_c([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the IK has started by then
      interrupt_requested() = true;
    });
    const auto begin = std::chrono::steady_clock::now();
    const Run run =
        run_text(R"({"format": "kinetic-job", "version": 1, "robot": {"urdf": "arm.urdf"},
      "steps": [{"goal": {"pose": {"xyz": [2.5, 0, 0.5], "rpy": [0, 0, 0]}}}]})",
                 d);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    ctrl_c.join();
    interrupt_requested() = false;
    QCOMPARE(run.code, int(kExitInterrupted));
    QVERIFY2(kinetic::test::mentions(run.err, "interrupted; no output was written"),
             run.err.c_str());
    QVERIFY2(seconds < 5.0, qPrintable(QString::number(seconds)));
  }
};

QTEST_GUILESS_MAIN(HeadlessRunnerTest)
#include "headless_runner_test.moc"
