#include "engine/model/package_resolver.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "engine/core/path_checks.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

std::string normalise(const fs::path& p) {
  std::error_code ec;
  fs::path absolute = fs::absolute(p, ec);
  if (ec) absolute = p;
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  return (ec ? absolute.lexically_normal() : canonical).string();
}

// Is `dir` the package `name`? (folder named `name` with a package.xml, or a package.xml naming it)
bool is_package(const fs::path& dir, const std::string& name) {
  const fs::path manifest = dir / "package.xml";
  if (!is_regular_file_here(manifest)) return false;
  if (dir.filename() == name) return true;
  return package_xml_name(manifest.string()) == name;
}

std::optional<std::string> search_immediate(const fs::path& dir, const std::string& name) {
  if (!is_folder_here(dir)) return std::nullopt;
  if (is_package(dir, name)) return normalise(dir);
  if (is_package(dir / name, name)) return normalise(dir / name);
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!it->is_directory(ec2)) continue;
    if (is_regular_file_here(it->path() / "package.xml") &&
        package_xml_name((it->path() / "package.xml").string()) == name)
      return normalise(it->path());
  }
  return std::nullopt;
}

std::optional<std::string> crawl(const fs::path& dir, const std::string& name, int depth) {
  if (!is_folder_here(dir)) return std::nullopt;
  if (is_package(dir, name)) return normalise(dir);
  if (is_regular_file_here(dir / "package.xml"))
    return std::nullopt;  // another package: do not descend
  for (const char* marker : {"COLCON_IGNORE", "CATKIN_IGNORE", "AMENT_IGNORE"})
    if (is_regular_file_here(dir / marker))
      return std::nullopt;  // excluded from the workspace, as colcon does
  if (is_package(dir / name, name)) return normalise(dir / name);
  if (depth <= 0) return std::nullopt;
  std::error_code ec;
  std::vector<fs::path> children;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    const std::string filename = it->path().filename().string();
    if (filename.empty() || filename[0] == '.') continue;
    if (it->is_directory(ec2)) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());  // deterministic
  for (const fs::path& child : children)
    if (auto found = crawl(child, name, depth - 1)) return found;
  return std::nullopt;
}

}  // namespace

std::string package_xml_name(const std::string& package_xml_path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(package_xml_path);
    if (it != cache.end()) return it->second;
  }
  std::string name;
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(package_xml_path.c_str()) == tinyxml2::XML_SUCCESS) {
    if (const tinyxml2::XMLElement* package = doc.FirstChildElement("package"))
      if (const tinyxml2::XMLElement* element = package->FirstChildElement("name"))
        if (const char* text = element->GetText()) {
          name = text;
          const auto first = name.find_first_not_of(" \t\r\n");
          const auto last = name.find_last_not_of(" \t\r\n");
          name = first == std::string::npos ? std::string{} : name.substr(first, last - first + 1);
        }
  }
  std::lock_guard<std::mutex> lock(mutex);
  cache[package_xml_path] = name;
  return name;
}

PackageResolver::PackageResolver(std::string base_dir, std::vector<std::string> search_paths)
    : base_dir_(std::move(base_dir)), search_paths_(std::move(search_paths)) {
  for (const std::string& p : split_path_list(std::getenv("ROS_PACKAGE_PATH")))
    search_paths_.push_back(p);
  ament_prefixes_ = split_path_list(std::getenv("AMENT_PREFIX_PATH"));
}

std::vector<std::string> PackageResolver::search_locations() const {
  std::vector<std::string> out;
  if (!base_dir_.empty()) out.push_back("the ancestors of " + normalise(base_dir_));
  for (const std::string& p : search_paths_) out.push_back(p);
  for (const std::string& p : ament_prefixes_) out.push_back(p + "/share");
  return out;
}

std::optional<std::string> PackageResolver::find_package(const std::string& name) const {
  if (name.empty()) return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(name);
    if (it != cache_.end()) return it->second;
  }
  auto found = search_uncached(name);
  std::lock_guard<std::mutex> lock(mutex_);
  cache_[name] = found;
  return found;
}

std::optional<std::string> PackageResolver::search_uncached(const std::string& name) const {
  if (!base_dir_.empty()) {
    fs::path dir = normalise(base_dir_);
    while (true) {
      if (auto found = search_immediate(dir, name)) return found;
      if (!dir.has_parent_path() || dir.parent_path() == dir) break;
      dir = dir.parent_path();
    }
  }
  for (const std::string& path : search_paths_)
    if (auto found = crawl(path, name, kMaxSearchDepth)) return found;
  for (const std::string& prefix : ament_prefixes_) {
    const fs::path share = fs::path(prefix) / "share" / name;
    if (is_folder_here(share)) return normalise(share);
  }
  // A ROS install not sourced in this shell: /opt/ros/<distribution>/share/NAME.
  std::error_code ec;
  std::vector<fs::path> distributions;
  for (fs::directory_iterator it("/opt/ros", ec), end; !ec && it != end; it.increment(ec))
    distributions.push_back(it->path());
  std::sort(distributions.begin(), distributions.end());
  for (const fs::path& distribution : distributions)
    if (is_folder_here(distribution / "share" / name))
      return normalise(distribution / "share" / name);
  // Last: a folder NAME without a package.xml beside the robot file or in a search path
  // (MotionBenchMaker's Panda reads package://meshes/... with meshes/ beside its URDF).
  if (!base_dir_.empty() && is_folder_here(fs::path(base_dir_) / name))
    return normalise(fs::path(base_dir_) / name);
  for (const std::string& path : search_paths_)
    if (is_folder_here(fs::path(path) / name)) return normalise(fs::path(path) / name);
  return std::nullopt;
}

PackageResolver::Result PackageResolver::resolve(const std::string& uri) const {
  Result result;
  if (uri.empty()) {
    result.reason = "empty file name";
    return result;
  }
  fs::path candidate;
  const std::string package_scheme = "package://";
  const std::string file_scheme = "file://";
  if (uri.rfind(package_scheme, 0) == 0) {
    const std::string rest = uri.substr(package_scheme.size());
    const auto slash = rest.find('/');
    const std::string name = rest.substr(0, slash);
    const std::string relative =
        slash == std::string::npos ? std::string{} : rest.substr(slash + 1);
    if (name.empty() || relative.empty()) {
      result.reason = "malformed package URI '" + uri + "' (expected package://NAME/path)";
      return result;
    }
    const auto package = find_package(name);
    if (!package) {
      std::string searched;
      for (const std::string& location : search_locations())
        searched += (searched.empty() ? "" : ", ") + location;
      result.reason = "package '" + name + "' not found (searched " +
                      (searched.empty() ? std::string("nowhere") : searched) +
                      "; add its parent folder to the package search paths or ROS_PACKAGE_PATH)";
      return result;
    }
    candidate = fs::path(*package) / relative;
  } else if (uri.rfind(file_scheme, 0) == 0) {
    fs::path path = uri.substr(file_scheme.size());
    candidate = path.is_absolute() ? path : fs::path(base_dir_) / path;
  } else if (uri.find("://") != std::string::npos) {
    result.reason = "unsupported URI scheme in '" + uri + "' (use package://, file:// or a path)";
    return result;
  } else {
    fs::path path = uri;
    candidate = path.is_absolute() ? path : (base_dir_.empty() ? path : fs::path(base_dir_) / path);
  }
  const std::string normalised = normalise(candidate);
  if (!is_regular_file_here(normalised)) {
    result.reason = "file '" + normalised + "' does not exist";
    return result;
  }
  result.path = normalised;
  return result;
}

std::string unresolved_mesh_hint(const std::string& uri) {
  const std::string scheme = "package://";
  if (uri.rfind(scheme, 0) != 0)
    return "fix the mesh file name (relative names are taken from the robot file's folder)";
  const std::string name = uri.substr(scheme.size(), uri.find('/', scheme.size()) - scheme.size());
  return "add the folder that holds package '" + name +
         "' to the package paths (--package-path DIR, robot.package_paths in a job file, or "
         "Settings > Package search paths in the studio), or fix the file name";
}

}  // namespace kinetic
