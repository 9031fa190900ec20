#include "engine/model/robot_packages.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "engine/core/input_file.hpp"
#include "engine/core/path_checks.hpp"
#include "engine/model/moveit_config_package.hpp"
#include "engine/model/package_resolver.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

constexpr InputKind kRobotFileProbe{"robot file", 4 * kMiB};

bool is_folder(const fs::path& path) {
  return is_folder_here(path);
}

// Child folders in name order (the file system's order differs between machines).
std::vector<fs::path> child_folders(const fs::path& folder) {
  std::vector<fs::path> children;
  std::error_code ec;
  for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] != '.' && is_folder(it->path())) children.push_back(it->path());
  }
  std::sort(children.begin(), children.end());
  return children;
}

void crawl(const fs::path& folder, int depth, std::vector<fs::path>& packages, std::size_t limit) {
  if (packages.size() >= limit || !is_folder(folder)) return;
  if (is_regular_file_here(folder / "package.xml")) {
    packages.push_back(folder);
    return;
  }
  for (const char* marker : {"COLCON_IGNORE", "CATKIN_IGNORE", "AMENT_IGNORE"})
    if (is_regular_file_here(folder / marker)) return;
  if (depth <= 0) return;
  for (const fs::path& child : child_folders(folder)) crawl(child, depth - 1, packages, limit);
}

bool is_description_name(const std::string& name) {
  const auto ends = [&](const std::string& suffix) {
    return name.size() > suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".urdf") || ends(".xacro");
}

bool calls_a_macro(const tinyxml2::XMLElement& parent) {
  static const std::set<std::string> not_calls = {"macro",   "property",  "include",     "arg",
                                                  "element", "attribute", "insert_block"};
  for (const tinyxml2::XMLElement* child = parent.FirstChildElement(); child;
       child = child->NextSiblingElement()) {
    const std::string name = child->Name();
    if (name == "link") return true;
    if (name.rfind("xacro:", 0) != 0) continue;
    const std::string tag = name.substr(6);
    if (tag == "if" || tag == "unless") {
      if (calls_a_macro(*child)) return true;
    } else if (!not_calls.count(tag)) {
      return true;
    }
  }
  return false;
}

void add_description_entries(const fs::path& folder, const std::string& package,
                             std::vector<RobotPackageEntry>& entries) {
  for (const char* sub : {"urdf", "robots"}) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder / sub, ec), end; !ec && it != end; it.increment(ec))
      if (is_description_name(it->path().filename().string()) && is_regular_file_here(it->path()))
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      if (!is_whole_robot_file(file.string())) continue;
      RobotPackageEntry entry;
      entry.package = package;
      entry.folder = folder.string();
      entry.open = file.string();
      entry.label = package + "/" + file.lexically_relative(folder).string();
      entries.push_back(std::move(entry));
    }
  }
}

}  // namespace

std::vector<std::string> installed_package_locations() {
  std::vector<std::string> locations = split_path_list(std::getenv("ROS_PACKAGE_PATH"));
  for (const std::string& prefix : split_path_list(std::getenv("AMENT_PREFIX_PATH")))
    locations.push_back((fs::path(prefix) / "share").string());
  for (const fs::path& distribution : child_folders("/opt/ros"))
    locations.push_back((distribution / "share").string());
  std::vector<std::string> existing;
  for (const std::string& location : locations)
    if (is_folder(location) &&
        std::find(existing.begin(), existing.end(), location) == existing.end())
      existing.push_back(location);
  return existing;
}

bool is_whole_robot_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kRobotFileProbe);
  } catch (...) {
    return false;
  }
  tinyxml2::XMLDocument document;
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) return false;
  const tinyxml2::XMLElement* root = document.RootElement();
  return root && std::string(root->Name()) == "robot" && calls_a_macro(*root);
}

std::vector<RobotPackageEntry> find_robot_packages(const std::vector<std::string>& locations,
                                                   std::size_t max_entries) {
  std::vector<fs::path> packages;
  // Packages, not entries, are bounded here: a package holds few robots.
  for (const std::string& location : locations)
    crawl(location, PackageResolver::kMaxSearchDepth, packages, max_entries);
  std::vector<RobotPackageEntry> entries;
  std::set<std::string> seen;  // labels: a package in a workspace and installed is listed once
  for (const fs::path& folder : packages) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(folder, ec).lexically_normal();
    std::string name = package_xml_name((absolute / "package.xml").string());
    if (name.empty()) name = absolute.filename().string();
    std::vector<RobotPackageEntry> found;
    if (moveit_config_folder(absolute.string())) {
      found.push_back({name, absolute.string(), true, absolute.string(), name});
    } else {
      add_description_entries(absolute, name, found);
    }
    for (RobotPackageEntry& entry : found)
      if (seen.insert(entry.label).second && entries.size() < max_entries)
        entries.push_back(std::move(entry));
  }
  std::sort(
      entries.begin(), entries.end(),
      [](const RobotPackageEntry& a, const RobotPackageEntry& b) { return a.label < b.label; });
  return entries;
}

}  // namespace kinetic
