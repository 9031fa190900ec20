#pragma once
// Resolves the mesh and texture URIs written in robot files to absolute paths:
//   package://NAME/rest  a package folder: a folder NAME holding a package.xml, or any folder whose
//                        package.xml says <name>NAME</name>. Searched, in order, in
//                        1. the robot file's folder and each of its ancestors (the folder itself
//                           and its immediate children),
//                        2. the extra search paths (LoadOptions::package_paths),
//                        3. ROS_PACKAGE_PATH (':'-separated),
//                        4. AMENT_PREFIX_PATH entries, as PREFIX/share/NAME,
//                        4b. /opt/ros/<distribution>/share/NAME (a ROS install not sourced),
//                        5. last, a folder NAME without package.xml in the robot file's folder
//                           or directly in an extra search path.
//                        Search paths of 2 and 3 are crawled as a ROS workspace is (package.xml at
//                        each package root, however deep in a source tree, up to kMaxSearchDepth
//                        levels), without descending into a package, a hidden folder or one
//                        holding COLCON_IGNORE / CATKIN_IGNORE / AMENT_IGNORE.
//   file:///abs/path     an absolute path (file://relative is taken relative to the robot file).
//   /abs/path            as is.
//   relative/path        relative to the robot file's folder (base_dir).
// Lookups are cached: each package name is searched once per resolver, and package.xml names are
// read once per process.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kinetic {

class PackageResolver {
 public:
  static constexpr int kMaxSearchDepth =
      8;  // a bound for symlink loops, deeper than workspaces nest

  // base_dir: folder of the robot file ("" = current directory); relative paths resolve there
  // and its ancestors are searched for packages. Reads ROS_PACKAGE_PATH / AMENT_PREFIX_PATH now.
  explicit PackageResolver(std::string base_dir = "", std::vector<std::string> search_paths = {});

  struct Result {
    std::string path;    // absolute, normalised; "" when unresolved
    std::string reason;  // why it failed ("" on success)
  };
  // Resolves a URI; the resulting file must exist to count as resolved.
  Result resolve(const std::string& uri) const;
  // Convenience: the absolute path, or "" when unresolved.
  std::string resolve_path(const std::string& uri) const { return resolve(uri).path; }

  // Folder of package NAME, or nullopt.
  std::optional<std::string> find_package(const std::string& name) const;

  // Where packages are searched, in order (for messages).
  std::vector<std::string> search_locations() const;

  const std::string& base_dir() const { return base_dir_; }

 private:
  std::optional<std::string> search_uncached(const std::string& name) const;

  std::string base_dir_;
  std::vector<std::string> search_paths_;  // user paths, then ROS_PACKAGE_PATH
  std::vector<std::string> ament_prefixes_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::optional<std::string>> cache_;
};

// The <name> of a package.xml (cached per path); "" when unreadable.
std::string package_xml_name(const std::string& package_xml_path);

// Error hint for a mesh URI that did not resolve, in terms a user of the studio or the command
// line can act on (not the C++ API): for package://NAME/... the ways to add a package path.
std::string unresolved_mesh_hint(const std::string& uri);

}  // namespace kinetic
