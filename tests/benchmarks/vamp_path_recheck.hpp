#pragma once
// VAMP's returned paths re-checked with the check ours must pass: every state at 0.01 rad joint
// steps against the Panda's collision meshes (recheck_path, exact, no margin), outside every timer.
// VAMP plans on its own sphere model of the Panda and its harness re-checks its paths on that same
// model; whether they clear the meshes it never asks. run.sh's harness writes no paths, so a copy
// of it that also prints each returned (simplified) path is built with run.sh's own compiler flags
// and run once more over the same problems: both runs plan the same paths (VAMP is deterministic:
// its Halton sampler restarts for every problem), only this one says what they were. The copy
// also takes KINETIC_VAMP_SKIP=K: its sampler then skips K samples after each restart, outside
// the timers (VAMP's own evaluation script's skip_rng_iterations), a seed of its own for
// bench_mbm_bench's seed lines (run_vamp_copy); unset, it plans as the timed runs do.
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

// The copy of VAMP's harness, built, and the problems in its input format.
struct VampCopy {
  std::filesystem::path binary, problems_txt;
  bool skips = false;   // it takes KINETIC_VAMP_SKIP (the harness had the sampler's reset)
  std::string skipped;  // why there is none
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

// Where the harness restarts its sampler before each problem's timed search.
inline constexpr const char* kSamplerReset = "        rng->reset();";
inline constexpr const char* kSkipSamples =
    " if (const char* skip = std::getenv(\"KINETIC_VAMP_SKIP\"))"
    " for (long k = std::atol(skip); k > 0; --k) rng->next();";

inline int run(const std::string& command) {
  return std::system(command.c_str());
}

inline std::string shell_quoted(const std::filesystem::path& p) {
  return "'" + p.string() + "'";
}

}  // namespace vamp_detail

// vamp_dir: ../shared/peers/vamp; problem_dir: the problems VAMP's timed runs planned.
inline VampCopy build_vamp_copy(const std::filesystem::path& vamp_dir,
                                const std::string& problem_dir) {
  namespace fs = std::filesystem;
  using namespace vamp_detail;
  VampCopy out;
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
  const std::size_t reset = source.find(kSamplerReset);
  out.skips = reset != std::string::npos;
  if (out.skips) source.insert(reset + std::string(kSamplerReset).size(), kSkipSamples);
  std::ofstream(work / "vamp_paths.cc") << source;
  const fs::path binary = work / "vamp_paths", data = work / "problems.txt",
                 log = work / "build.log";
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
          " 2>&1") != 0) {
    out.skipped = "VAMP's convert.py failed (see " + log.string() + ")";
    return out;
  }
  out.binary = binary;
  out.problems_txt = data;
  return out;
}

// The copy run once more at VAMP's own sampling (no skip), printing its paths, and each path
// re-checked against the robot's meshes.
inline VampPathRecheck recheck_vamp_paths(const VampCopy& copy, const RobotModelPtr& robot,
                                          const std::vector<BenchmarkProblem>& problems) {
  namespace fs = std::filesystem;
  using namespace vamp_detail;
  VampPathRecheck out;
  if (!copy.skipped.empty()) {
    out.skipped = copy.skipped;
    return out;
  }
  const fs::path work = copy.binary.parent_path(), paths = work / "paths.txt";
  if (run(shell_quoted(copy.binary) + " " + shell_quoted(work / "rows.csv") + " paths panda=" +
          shell_quoted(copy.problems_txt) + " > /dev/null 2> " + shell_quoted(paths)) != 0) {
    out.skipped = "the copy of VAMP's harness failed (see " + paths.string() + ")";
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

// A fresh copy of `binary` (its modification time kept) in `dir`, returned. On this machine a
// binary file ran 30% slower than another copy of it, run after run (VAMP's harness: 395 against
// 290 us a problem, the same bytes, until it was copied again): a run from a fresh copy draws the
// placement again instead of keeping one side's slow draw for every round.
inline std::filesystem::path fresh_copy(const std::filesystem::path& binary,
                                        const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  const fs::path copy = dir / binary.filename();
  try {
    fs::create_directories(dir);
    fs::remove(copy);  // a new file, not the old one's pages rewritten
    fs::copy_file(binary, copy);
    fs::last_write_time(copy, fs::last_write_time(binary));
  } catch (const fs::filesystem_error& e) {
    throw Error(ErrorCode::IoError,
                "could not copy " + binary.string() + " to " + copy.string() + ": " + e.what());
  }
  return copy;
}

// The copy run once more with its sampler skipping `skip` samples per problem; the CSV it wrote.
// Throws naming its log where it failed or cannot skip.
inline std::filesystem::path run_vamp_copy(const VampCopy& copy, long skip) {
  namespace fs = std::filesystem;
  if (!copy.skips || copy.binary.empty())
    throw Error(ErrorCode::IoError, copy.skipped.empty()
                                        ? "the copy of VAMP's harness has no sampler reset to skip"
                                        : copy.skipped);
  const fs::path dir = copy.binary.parent_path();
  const std::string tag = "skip-" + std::to_string(skip);
  const fs::path csv = dir / (tag + ".csv"), log = dir / (tag + ".log");
  const fs::path binary = fresh_copy(copy.binary, dir / (tag + "-binary"));
  const std::string command = "KINETIC_VAMP_SKIP=" + std::to_string(skip) + " " +
                              vamp_detail::shell_quoted(binary) + " " +
                              vamp_detail::shell_quoted(csv) + " " + tag +
                              " panda=" + vamp_detail::shell_quoted(copy.problems_txt) + " > " +
                              vamp_detail::shell_quoted(log) + " 2> /dev/null";
  if (vamp_detail::run(command) != 0)
    throw Error(ErrorCode::IoError, "the copy of VAMP's harness failed at skip " +
                                        std::to_string(skip) + " (see " + log.string() + ")");
  return csv;
}

}  // namespace kinetic::bench
