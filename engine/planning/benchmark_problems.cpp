#include "engine/planning/benchmark_problems.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;

// "sceneNNNN.yaml" / "requestNNNN.yml" -> (kind, NNNN); nothing for any other name (or more than
// nine digits). Hand-parsed: std::regex trips GCC 12's -Wmaybe-uninitialized in the sanitizer
// build.
std::optional<std::pair<std::string, int>> problem_file_name(const std::string& file) {
  for (const std::string kind : {"scene", "request"}) {
    if (file.rfind(kind, 0) != 0) continue;
    std::size_t end = kind.size();
    while (end < file.size() && std::isdigit(static_cast<unsigned char>(file[end]))) ++end;
    const std::size_t digits = end - kind.size();
    const std::string extension = file.substr(end);
    if (digits == 0 || digits > 9 || (extension != ".yaml" && extension != ".yml"))
      return std::nullopt;
    return std::make_pair(kind, std::stoi(file.substr(kind.size(), digits)));
  }
  return std::nullopt;
}

// The problems of one folder: requestNNNN.yaml with sceneNNNN.yaml beside it.
std::vector<BenchmarkProblem> problems_in(const fs::path& folder, const std::string& scene,
                                          int per_scene) {
  std::map<int, std::string> scenes, requests;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = problem_file_name(it->path().filename().string());
    if (!name || !it->is_regular_file()) continue;
    (name->first == "scene" ? scenes : requests)[name->second] = it->path().string();
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
