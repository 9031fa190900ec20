#include "engine/model/moveit_config_package.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/path_checks.hpp"
#include "engine/core/yaml_fields.hpp"
#include "engine/model/package_resolver.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

constexpr InputKind kSetupAssistantInput{"MoveIt .setup_assistant file", kMiB};

bool exists_as_file(const fs::path& path) {
  return is_regular_file_here(path);
}
bool exists_as_folder(const fs::path& path) {
  return is_folder_here(path);
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_srdf_name(const std::string& name) {
  return ends_with(name, ".srdf") || ends_with(name, ".srdf.xacro");
}

// config/'s files whose names end in `suffix`, sorted (the folder's order is the file system's).
std::vector<fs::path> config_files(const fs::path& folder, const std::string& suffix) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder / "config", ec), end; !ec && it != end; it.increment(ec))
    if (ends_with(it->path().filename().string(), suffix) && exists_as_file(it->path()))
      found.push_back(it->path());
  std::sort(found.begin(), found.end());
  return found;
}

bool is_moveit_config(const fs::path& folder) {
  if (!exists_as_file(folder / "package.xml")) return false;
  return exists_as_file(folder / ".setup_assistant") || !config_files(folder, ".srdf").empty() ||
         !config_files(folder, ".srdf.xacro").empty();
}

std::string normal(const fs::path& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return (ec ? path : absolute).lexically_normal().string();
}

// A map's member by key in either case (Setup Assistant 1 wrote "URDF", 2 writes "urdf").
YAML::Node member_any_case(const YAML::Node& map, const std::string& lower) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& entry : map) {
    if (!entry.first.IsScalar()) continue;
    std::string key = entry.first.Scalar();
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (key == lower) return entry.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

std::string scalar(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() ? node.Scalar() : std::string();
}

// What .setup_assistant says: the description package and path with its xacro arguments, the SRDF.
struct SetupAssistant {
  std::string urdf_package, urdf_path, xacro_args, srdf_path;
};

SetupAssistant read_setup_assistant(const fs::path& file) {
  SetupAssistant setup;
  if (!exists_as_file(file)) return setup;
  const YamlFields fields(file.string());
  const YAML::Node root = member_any_case(fields.parse(read_input_file(file, kSetupAssistantInput)),
                                          "moveit_setup_assistant_config");
  const YAML::Node urdf = member_any_case(root, "urdf");
  setup.urdf_package = scalar(member_any_case(urdf, "package"));
  setup.urdf_path = scalar(member_any_case(urdf, "relative_path"));
  const YAML::Node args = member_any_case(urdf, "xacro_args");
  if (args.IsScalar()) {
    setup.xacro_args = args.Scalar();
  } else if (args.IsSequence()) {
    for (const YAML::Node& arg : args) setup.xacro_args += scalar(arg) + " ";
  }
  setup.srdf_path = scalar(member_any_case(member_any_case(root, "srdf"), "relative_path"));
  return setup;
}

std::string names_of(const std::vector<fs::path>& files) {
  std::string names;
  for (const fs::path& file : files)
    names += (names.empty() ? "" : ", ") + ("config/" + file.filename().string());
  return names;
}

void find_srdf(MoveItConfigPackage& package, const SetupAssistant& setup, const fs::path& folder) {
  const std::vector<fs::path> plain = config_files(folder, ".srdf");
  if (plain.size() == 1) {
    package.srdf = normal(plain.front());
  } else if (!setup.srdf_path.empty() && exists_as_file(folder / setup.srdf_path)) {
    package.srdf = normal(folder / setup.srdf_path);
  } else if (const std::vector<fs::path> xacro = config_files(folder, ".srdf.xacro");
             plain.empty() && xacro.size() == 1) {
    package.srdf = normal(xacro.front());
  } else if (plain.size() > 1) {
    throw Error(ErrorCode::FileNotFound,
                "MoveIt config '" + package.name + "' has several SRDFs (" + names_of(plain) +
                    ") and its .setup_assistant names none of them",
                "open the SRDF you want (it is in " + (folder / "config").string() + ")");
  } else {
    throw Error(
        ErrorCode::FileNotFound,
        "MoveIt config '" + package.name + "' has no SRDF in " + (folder / "config").string(),
        "a MoveIt config keeps its SRDF in config/; open the robot's URDF with --srdf instead");
  }
  package.srdf_how = fs::path(package.srdf).lexically_relative(folder).string();
}

void find_urdf(MoveItConfigPackage& package, const SetupAssistant& setup, const fs::path& folder,
               const PackageResolver& resolver) {
  // MoveIt 2's launch files take config/<robot>.urdf.xacro, named as the SRDF is.
  std::string stem = fs::path(package.srdf).filename().string();
  stem = stem.substr(0, stem.find(".srdf"));
  for (const char* suffix : {".urdf.xacro", ".urdf"})
    if (const fs::path candidate = folder / "config" / (stem + suffix); exists_as_file(candidate)) {
      package.urdf = normal(candidate);
      package.urdf_how = "config/" + candidate.filename().string();
      return;
    }
  if (!setup.urdf_package.empty() && !setup.urdf_path.empty()) {
    const std::optional<std::string> description = resolver.find_package(setup.urdf_package);
    if (!description)
      throw Error(ErrorCode::FileNotFound,
                  "MoveIt config '" + package.name +
                      "': its .setup_assistant takes the robot from package '" +
                      setup.urdf_package + "', which was not found",
                  "add the folder holding " + setup.urdf_package +
                      " with --package-path (in the studio: Settings > Package search paths), or "
                      "set ROS_PACKAGE_PATH");
    const fs::path file = fs::path(*description) / setup.urdf_path;
    if (!exists_as_file(file))
      throw Error(ErrorCode::FileNotFound,
                  "MoveIt config '" + package.name + "': its .setup_assistant names " +
                      setup.urdf_package + "/" + setup.urdf_path + ", which is not in " +
                      *description,
                  "check that the package " + setup.urdf_package +
                      " found is the one the config was made for");
    package.urdf = normal(file);
    package.xacro_args = parse_xacro_arguments(setup.xacro_args);
    package.urdf_how = setup.urdf_package + "/" + setup.urdf_path + " (.setup_assistant)";
    return;
  }
  const std::vector<fs::path> xacros = config_files(folder, ".urdf.xacro");
  if (xacros.size() == 1) {
    package.urdf = normal(xacros.front());
    package.urdf_how = "config/" + xacros.front().filename().string();
    return;
  }
  throw Error(ErrorCode::FileNotFound,
              "MoveIt config '" + package.name + "' names no robot description: no config/" + stem +
                  ".urdf.xacro and no URDF in its .setup_assistant",
              "open the robot's URDF or xacro with --srdf " + package.srdf);
}

}  // namespace

std::map<std::string, std::string> parse_xacro_arguments(const std::string& text) {
  std::map<std::string, std::string> args;
  std::istringstream words(text);
  for (std::string word; words >> word;)
    if (const std::size_t at = word.find(":="); at != std::string::npos && at > 0)
      args[word.substr(0, at)] = word.substr(at + 2);
  return args;
}

std::optional<std::string> moveit_config_folder(const std::string& path) {
  const fs::path given = fs::path(normal(path));
  fs::path folder;
  if (exists_as_folder(given)) {
    folder = given.filename() == "config" && !exists_as_file(given / "package.xml")
                 ? given.parent_path()
                 : given;
  } else if (given.filename() == ".setup_assistant" || given.filename() == "package.xml") {
    folder = given.parent_path();
  } else if (is_srdf_name(given.filename().string()) &&
             given.parent_path().filename() == "config") {
    folder = given.parent_path().parent_path();
  } else {
    return std::nullopt;
  }
  if (!is_moveit_config(folder)) return std::nullopt;
  return folder.string();
}

MoveItConfigPackage read_moveit_config_package(const std::string& folder_name,
                                               const PackageResolver& resolver,
                                               const std::string& srdf) {
  const fs::path folder(normal(folder_name));
  MoveItConfigPackage package;
  package.folder = folder.string();
  package.name = package_xml_name((folder / "package.xml").string());
  if (package.name.empty()) package.name = folder.filename().string();
  const SetupAssistant setup = read_setup_assistant(folder / ".setup_assistant");
  if (!srdf.empty()) {
    package.srdf = normal(srdf);
    package.srdf_how = fs::path(package.srdf).lexically_relative(folder).string();
  } else {
    find_srdf(package, setup, folder);
  }
  find_urdf(package, setup, folder, resolver);
  const auto optional_file = [&](const char* name) {
    const fs::path file = folder / "config" / name;
    return exists_as_file(file) ? normal(file) : std::string();
  };
  package.joint_limits = optional_file("joint_limits.yaml");
  package.kinematics = optional_file("kinematics.yaml");
  package.initial_positions = optional_file("initial_positions.yaml");
  return package;
}

}  // namespace kinetic
