#pragma once
// VAMP's returned paths re-checked with the check ours must pass: every state at 0.01 rad joint
// steps against the Panda's collision meshes (recheck_path, exact, no margin), outside every timer.
// VAMP plans on its own sphere model of the Panda and its harness re-checks its paths on that same
// model; whether they clear the meshes it never asks. run.sh's harness writes no paths, so a copy
// of it that also prints each returned (simplified) path is built with run.sh's own compiler flags
// and run once more over the same problems: both runs plan the same paths (VAMP is deterministic:
// its Halton sampler restarts for every problem), only this one says what they were.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/planning/benchmark_problems.hpp"
#include "engine/planning/benchmark_run.hpp"
#include "engine/scene/scene_file.hpp"

namespace kinetic::bench {

struct VampPathRecheck {
  // (scene, index) -> "" where the returned path clears the meshes, else where it collides first.
  std::map<std::pair<std::string, int>, std::string> verdicts;
  std::string skipped;  // why no path was re-checked
  // The rows the copy wrote (the harness's CSV), to compare with the timed runs' rows.
  std::filesystem::path rows_csv;
};

namespace vamp_detail {

// Where the harness has its simplified path in hand and every timer has stopped.
inline constexpr const char* kAnchor =
    "        const auto w1 = std::chrono::steady_clock::now();\n";
inline constexpr const char* kPrintPath =
    "        if (solved)\n"
    "            for (const auto &waypoint : simple.path)\n"
    "            {\n"
    "                typename Robot::ConfigurationBuffer values;\n"
    "                waypoint.to_array(values.data());\n"
    "                std::fprintf(stderr, \"KINETIC_PATH %s %d\", p.scene.c_str(), p.index);\n"
    "                for (std::size_t j = 0; j < Robot::dimension; ++j)\n"
    "                    std::fprintf(stderr, \" %.9g\", values[j]);\n"
    "                std::fprintf(stderr, \"\\n\");\n"
    "            }\n";

inline int run(const std::string& command) {
  return std::system(command.c_str());
}

inline std::string shell_quoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

}  // namespace vamp_detail

// vamp_dir: ../shared/peers/vamp; problem_dir: the problems VAMP's timed runs planned.
inline VampPathRecheck recheck_vamp_paths(const std::filesystem::path& vamp_dir,
                                          const std::string& problem_dir,
                                          const RobotModelPtr& robot,
                                          const std::vector<BenchmarkProblem>& problems) {
  namespace fs = std::filesystem;
  using namespace vamp_detail;
  VampPathRecheck out;
  const fs::path work = fs::temp_directory_path() / "kinetic-vamp-paths";
  fs::create_directories(work);
  const fs::path harness_file = vamp_dir / "harness" / "vamp_mbm_bench.cc";
  std::ifstream harness_in(harness_file);
  if (!harness_in) {
    out.skipped = "cannot read " + harness_file.string();
    return out;
  }
  std::stringstream harness;
  harness << harness_in.rdbuf();
  std::string source = harness.str();
  const std::size_t at = source.find(kAnchor);
  if (at == std::string::npos) {
    out.skipped = harness_file.string() + " changed: no place found to print its paths";
    return out;
  }
  source.insert(at, kPrintPath);
  std::ofstream(work / "vamp_paths.cc") << source;
  const fs::path binary = work / "vamp_paths", data = work / "problems.txt",
                 log = work / "build.log", paths = work / "paths.txt";
  // run.sh's flags, so that the copy plans what the timed runs planned.
  const std::string build =
      "g++ -std=c++17 -march=native -mavx2 -O3 -DNDEBUG -fno-math-errno -fno-signed-zeros "
      "-fno-trapping-math -fno-rounding-math -ffp-contract=fast -fassociative-math -flto=auto "
      "-Wno-ignored-attributes -I" +
      shell_quoted(vamp_dir / "src" / "vamp" / "impl") + " -isystem /usr/include/eigen3 -isystem " +
      shell_quoted(vamp_dir / "src" / "nigh" / "src") + " -isystem " +
      shell_quoted(vamp_dir / "src" / "pdqsort") + " " + shell_quoted(work / "vamp_paths.cc") +
      " -o " + shell_quoted(binary) + " > " + shell_quoted(log) + " 2>&1";
  if (run(build) != 0) {
    out.skipped = "the copy of VAMP's harness did not build (see " + log.string() + ")";
    return out;
  }
  if (run("python3 " + shell_quoted(vamp_dir / "harness" / "convert.py") + " panda " +
          shell_quoted(problem_dir) + " " + shell_quoted(data) + " > " + shell_quoted(log) +
          " 2>&1") != 0 ||
      run(shell_quoted(binary) + " " + shell_quoted(work / "rows.csv") +
          " paths panda=" + shell_quoted(data) + " > /dev/null 2> " + shell_quoted(paths)) != 0) {
    out.skipped =
        "the copy of VAMP's harness failed (see " + log.string() + ", " + paths.string() + ")";
    return out;
  }
  // The harness's seven values are panda_joint1 ... panda_joint7; the fingers stay as the
  // problems' start states hold them (closed), as in our own runs.
  std::vector<int> joints;
  for (int j = 1; j <= 7; ++j) {
    joints.push_back(robot->variable_index("panda_joint" + std::to_string(j)));
    if (joints.back() < 0) {
      out.skipped = "the robot has no joint panda_joint" + std::to_string(j);
      return out;
    }
  }
  std::map<std::pair<std::string, int>, JointPath> returned;
  std::ifstream in(paths);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string tag, scene;
    int index = 0;
    if (!(fields >> tag >> scene >> index) || tag != "KINETIC_PATH") continue;
    JointVector q = robot->zero_configuration();
    for (const int j : joints) fields >> q[j];
    returned[{scene, index}].push_back(q);
  }
  out.rows_csv = work / "rows.csv";
  CollisionChecker checker(robot);
  for (const BenchmarkProblem& problem : problems) {
    const auto it = returned.find({problem.scene, problem.index});
    if (it == returned.end()) continue;
    checker.set_scene(load_scene(problem.scene_file));
    out.verdicts[it->first] = recheck_path(checker, it->second, 0.01);
  }
  if (out.verdicts.empty()) out.skipped = "the copy of VAMP's harness printed no paths";
  return out;
}

}  // namespace kinetic::bench
