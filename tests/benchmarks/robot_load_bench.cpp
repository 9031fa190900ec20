// How long the studio takes to open real robot packages, as a whole process the way a user meets
// it: `kinetic-studio --robot X --screenshot out.png` starts the studio, loads the robot (URDF or
// xacro, SRDF, MoveIt config files, meshes), draws the first frame in the Vulkan view and quits.
// Against the built-in Panda in the same run (counter x_builtin_panda: this robot's time / the
// built-in Panda's). Robots: PR2 (82 links, its MoveIt SRDF), the Kinova Gen3 7-DOF with its
// Robotiq 2F-85 (its MoveIt config: xacro with .setup_assistant's arguments), the dual-arm Panda
// (its MoveIt config). Needs a display (make bench and make test run under Xvfb where there is
// none); skips with a message where ../shared/robots or the studio binary is absent.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/test_paths.hpp"

extern char** environ;

#ifndef KINETIC_STUDIO_BINARY
#define KINETIC_STUDIO_BINARY ""  // an engine-only build: nothing to start
#endif

namespace {

namespace fs = std::filesystem;

bool quick() {
  return std::getenv("KINETIC_BENCH_QUICK") != nullptr;
}

// Runs the studio with `args` then --screenshot; "" when it exited 0 having written the PNG, else
// why not.
std::string open_in_studio(std::vector<std::string> args, double& seconds) {
  const fs::path png =
      fs::temp_directory_path() / ("kinetic_load_bench_" + std::to_string(::getpid()) + ".png");
  fs::remove(png);
  args.insert(args.begin(), KINETIC_STUDIO_BINARY);
  args.push_back("--screenshot");
  args.push_back(png.string());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  // The studio's own lines (warnings, "screenshot: ...") would break up the benchmark's table.
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&quiet, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &quiet, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  if (spawned != 0) return "could not start the studio";
  int status = 0;
  waitpid(pid, &status, 0);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool wrote = fs::exists(png);
  fs::remove(png);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "the studio exited with status " + std::to_string(status);
  return wrote ? std::string() : "the studio wrote no screenshot";
}

std::vector<std::string> robot_args(const std::string& robot) {
  const std::string shared = kinetic::test::shared_robots_dir();
  if (robot == "builtin_panda") return {"--robot", "panda"};
  if (robot == "pr2")
    return {"--robot",        shared + "/moveit_resources/pr2_description/urdf/robot.xml",
            "--srdf",         shared + "/moveit_resources/pr2_description/srdf/robot.xml",
            "--package-path", shared};
  if (robot == "kinova_gen3_robotiq_moveit_config")
    return {
        "--robot",
        shared + "/ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config",
        "--package-path", shared};
  return {"--robot", shared + "/moveit_resources/dual_arm_panda_moveit_config", "--package-path",
          shared};
}

// The built-in Panda's time, measured once per run.
double builtin_panda_seconds() {
  static const double seconds = [] {
    double best = 0.0;
    for (int i = 0; i < (quick() ? 1 : 3); ++i) {
      double run = 0.0;
      if (!open_in_studio(robot_args("builtin_panda"), run).empty()) return 0.0;
      best = i == 0 ? run : std::min(best, run);
    }
    return best;
  }();
  return seconds;
}

void BM_OpenInStudio(benchmark::State& state, const std::string& robot) {
  if (robot != "builtin_panda" && !kinetic::test::shared_robots_available()) {
    state.SkipWithError("../shared/robots is absent: the real robot packages are skipped");
    return;
  }
  if (std::string(KINETIC_STUDIO_BINARY).empty()) {
    state.SkipWithError("this build has no studio binary (an engine-only build)");
    return;
  }
  if (!std::getenv("DISPLAY")) {
    state.SkipWithError("no display: run under xvfb-run (make bench does)");
    return;
  }
  const double reference = builtin_panda_seconds();
  double total = 0.0;
  for (auto _ : state) {
    double seconds = 0.0;
    const std::string problem = open_in_studio(robot_args(robot), seconds);
    if (!problem.empty()) {
      state.SkipWithError(problem.c_str());
      return;
    }
    state.SetIterationTime(seconds);
    total += seconds;
  }
  if (reference > 0.0 && state.iterations() > 0)
    state.counters["x_builtin_panda"] = total / double(state.iterations()) / reference;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (const char* robot : {"builtin_panda", "pr2", "kinova_gen3_robotiq_moveit_config",
                            "dual_arm_panda_moveit_config"})
    benchmark::RegisterBenchmark((std::string("Load/") + robot).c_str(), BM_OpenInStudio,
                                 std::string(robot))
        ->UseManualTime()
        ->Iterations(quick() ? 1 : 3)
        ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
