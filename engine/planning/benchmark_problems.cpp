#include "engine/planning/benchmark_problems.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;

// The problems of one folder: requestNNNN.yaml with sceneNNNN.yaml beside it.
std::vector<BenchmarkProblem> problems_in(const fs::path& folder, const std::string& scene,
                                          int per_scene) {
  static const std::regex name(R"((scene|request)(\d+)\.ya?ml)");
  std::map<int, std::string> scenes, requests;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch match;
    const std::string file = it->path().filename().string();
    if (!it->is_regular_file() || !std::regex_match(file, match, name)) continue;
    (match[1] == "scene" ? scenes : requests)[std::stoi(match[2])] = it->path().string();
  }
  std::vector<BenchmarkProblem> problems;
  for (const auto& [index, request] : requests) {
    const auto scene_file = scenes.find(index);
    if (scene_file == scenes.end())
      throw Error(ErrorCode::InvalidValue,
                  request + ": no scene file beside it (scene" + std::to_string(index) + ".yaml)",
                  "each requestNNNN.yaml needs its sceneNNNN.yaml in the same folder");
    problems.push_back({scene, index, scene_file->second, request});
  }
  for (const auto& [index, scene_file] : scenes)
    if (!requests.count(index))
      throw Error(ErrorCode::InvalidValue,
                  scene_file + ": no request beside it (request" + std::to_string(index) + ".yaml)",
                  "each sceneNNNN.yaml needs its requestNNNN.yaml in the same folder");
  if (per_scene > 0 && static_cast<int>(problems.size()) > per_scene)
    problems.resize(static_cast<std::size_t>(per_scene));
  return problems;
}

std::string scene_name(const fs::path& folder, const std::string& robot_name) {
  std::string name = folder.filename().string();
  const std::string suffix = "_" + robot_name;
  if (!robot_name.empty() && name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  return name;
}

}  // namespace

std::vector<BenchmarkProblem> find_benchmark_problems(const std::string& dir,
                                                      const std::string& robot_name,
                                                      int per_scene) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error(ErrorCode::FileNotFound, "benchmark folder not found: " + dir,
                "give a folder holding <scene>/sceneNNNN.yaml + requestNNNN.yaml "
                "(MotionBenchMaker's layout)");
  const fs::path root = fs::absolute(dir).lexically_normal();
  std::vector<BenchmarkProblem> problems =
      problems_in(root, scene_name(root, robot_name), per_scene);
  std::vector<fs::path> folders;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory()) folders.push_back(it->path());
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    std::vector<BenchmarkProblem> more =
        problems_in(folder, scene_name(folder, robot_name), per_scene);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  if (problems.empty())
    throw Error(ErrorCode::InvalidValue, "benchmark folder " + dir + " holds no problems",
                "expected <scene>/sceneNNNN.yaml + requestNNNN.yaml (MoveIt planning scene and "
                "motion plan request)");
  return problems;
}

}  // namespace kinetic
