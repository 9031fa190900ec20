#include "app/headless/benchmark_command.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include "app/document/robot_reference.hpp"
#include "app/headless/headless_runner.hpp"
#include "app/headless/interruption.hpp"
#include "app/headless/job_execution.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/planning/benchmark_report.hpp"
#include "engine/planning/motion_plan_request.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

std::string std_text(const QString& s) {
  return s.toStdString();
}

// A whole number in [low, high] from a flag's text; JobError naming the flag otherwise.
int whole_number(const QString& text, const char* flag, int low, int high) {
  bool ok = false;
  const int value = text.toInt(&ok);
  if (!ok || value < low || value > high)
    throw JobError(flag, "expected a whole number from " + std::to_string(low) + " to " +
                             std::to_string(high) + ", got \"" + std_text(text) + "\"");
  return value;
}

// The flags of a single plan have no meaning for a folder of problems.
void refuse_single_plan_flags(const CommandLine& line) {
  const std::pair<bool, const char*> flags[] = {
      {!line.job.isEmpty(), "a job file"},
      {!line.scene.isEmpty(), "--scene"},
      {!line.start.isEmpty(), "--start"},
      {!line.goal_joints.isEmpty(), "--goal-joints"},
      {!line.goal_named.isEmpty(), "--goal-named"},
      {!line.goal_pose.isEmpty(), "--goal-pose"},
      {!line.goal_relative.isEmpty(), "--goal-relative"},
      {!line.keep_orientation.isEmpty(), "--keep-orientation"},
      {!line.timing.isEmpty(), "--timing"},
      {!line.exports.isEmpty(), "--export"},
      {!line.screenshot.isEmpty(), "--screenshot"}};
  for (const auto& [given, flag] : flags)
    if (given)
      throw JobError("--benchmark",
                     std::string("takes each problem's scene, start and goal from its files: ") +
                         flag + " does not go with it");
  if (!line.robot_given || !is_robot_file_reference(line.robot))
    throw JobError("--benchmark",
                   "needs --robot URDF, the robot the problems were made for (with --srdf for its "
                   "planning group and allowed pairs when it is not beside the URDF)");
}

Job robot_job(const CommandLine& line) {
  Job job;
  job.robot = robot_from_flags(line);
  return job;
}

BenchmarkSettings settings_from(const CommandLine& line) {
  BenchmarkSettings settings;
  try {
    if (!line.preset.isEmpty()) settings.options = preset(std_text(line.preset));
    if (!line.planner.isEmpty())
      settings.options.planner = planner_type_from_string(std_text(line.planner));
  } catch (const Error& error) {
    throw JobError(line.planner.isEmpty() ? "--preset" : "--planner", describe(error));
  }
  settings.options.seed = 1;
  if (!line.seed.isEmpty()) {
    bool ok = false;
    settings.options.seed = line.seed.toULongLong(&ok);
    if (!ok)
      throw JobError("--seed",
                     "expected a non-negative whole number, got \"" + std_text(line.seed) + "\"");
  }
  double timeout_s = 10.0;
  if (!line.timeout.isEmpty()) {
    bool ok = false;
    timeout_s = line.timeout.toDouble(&ok);
    if (!ok || !(timeout_s > 0.0 && timeout_s <= 3600.0))
      throw JobError("--timeout",
                     "expected seconds in (0, 3600], got \"" + std_text(line.timeout) + "\"");
  }
  settings.options.timeout_ms = timeout_s * 1000.0;
  if (!line.margin.isEmpty()) {
    bool ok = false;
    const double margin = line.margin.toDouble(&ok);
    if (!ok || !(margin >= 0.0 && margin <= 1.0))
      throw JobError("--margin",
                     "expected metres in [0, 1], got \"" + std_text(line.margin) + "\"");
    settings.options.margin = margin;
  }
  settings.options.max_iterations =
      100000000;  // the time budget decides, as in VAMP's and OMPL's benchmarks
  if (!line.repeat.isEmpty()) settings.repeat = whole_number(line.repeat, "--repeat", 1, 1000);
  return settings;
}

}  // namespace

int run_benchmark_command(const CommandLine& line, std::ostream& out, std::ostream& err) {
  const auto fail = [&err](const std::string& message) {
    err << "kinetic-studio --headless --benchmark: " << message << "\n";
  };
  BenchmarkSettings settings;
  std::vector<BenchmarkProblem> problems;
  JobResult loaded;
  fs::path output_dir;
  try {
    refuse_single_plan_flags(line);
    settings = settings_from(line);
    const int per_scene =
        line.problems_per_scene.isEmpty()
            ? 0
            : whole_number(line.problems_per_scene, "--problems-per-scene", 1, 1000000);
    output_dir =
        line.output_dir.isEmpty() ? fs::current_path() : fs::absolute(std_text(line.output_dir));
    const Job job = robot_job(line);
    load_robot_and_scene(job, loaded);
    problems = find_benchmark_problems(std_text(line.benchmark), loaded.robot->name(), per_scene);
  } catch (const JobError& error) {
    fail(error.what());
    return kExitBadJob;
  } catch (const JobFailure& error) {
    fail(error.what());
    return error.code();
  } catch (const Error& error) {
    fail(describe(error));
    return kExitBadJob;
  }

  std::vector<BenchmarkRow> rows;
  try {
    // The first request's group: MotionBenchMaker's problems of one robot plan one group.
    const MotionPlanRequest first = load_motion_plan_request(problems.front().request_file);
    Planner planner(loaded.robot, PlanningScene(), first.group);
    install_interrupt_handlers();
    interrupt_requested() = false;
    const auto begin = std::chrono::steady_clock::now();
    std::string scene;
    for (const BenchmarkProblem& problem : problems) {
      for (int run = 0; run < settings.repeat; ++run) {
        if (interrupt_requested()) {
          fail("interrupted; nothing was written");
          return interrupt_exit_code();
        }
        rows.push_back(run_benchmark_problem(planner, problem, settings, run));
      }
      if (problem.scene != scene)
        out << "benchmark: " << terminal_safe(problem.scene) << "...\n" << std::flush;
      scene = problem.scene;
    }
    char timing[128];
    std::snprintf(timing, sizeof timing,
                  "benchmark: %zu problems x %d runs in %.1f s (%s, seed %llu, %.3g s budget)\n",
                  problems.size(), settings.repeat,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(),
                  to_string(settings.options.planner),
                  static_cast<unsigned long long>(settings.options.seed),
                  settings.options.timeout_ms / 1000.0);
    out << timing;
  } catch (const Error& error) {
    fail(describe(error));
    return kExitBadJob;
  }
  const std::string summary = benchmark_summary_text(summarize_benchmark(rows));
  try {
    fs::create_directories(output_dir);
    write_file_atomically(output_dir / "benchmark.csv", benchmark_csv(rows));
    write_file_atomically(output_dir / "benchmark-summary.txt", summary);
  } catch (const std::exception& error) {
    fail(error.what());
    return kExitWriteFailed;
  }
  out << terminal_safe(summary) << "written: " << (output_dir / "benchmark.csv").string() << ", "
      << (output_dir / "benchmark-summary.txt").string() << "\n";
  return kExitOk;
}

}  // namespace kinetic::app::headless
