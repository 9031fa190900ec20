#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/config_loader.hpp"
#include "engine/model/loader_internal.hpp"
#include "engine/model/robot_loader.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Library entries: sub-folders holding a kinetic.toml, sorted by name.
std::vector<std::string> library_names(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (it->is_directory(ec2) && fs::is_regular_file(it->path() / "kinetic.toml", ec2))
      names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Active joints of a URDF without building the model: moving joints without <mimic>.
int count_dof(const std::string& urdf_path) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(urdf_path.c_str()) != tinyxml2::XML_SUCCESS) return 0;
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) return 0;
  int dof = 0;
  for (const auto* joint = robot->FirstChildElement("joint"); joint;
       joint = joint->NextSiblingElement("joint")) {
    const char* type = joint->Attribute("type");
    const std::string t = type ? type : "";
    if ((t == "revolute" || t == "continuous" || t == "prismatic") &&
        !joint->FirstChildElement("mimic"))
      ++dof;
  }
  return dof;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The entry `name` loads: the same name, else the same name in other case; "" for none.
std::string library_entry(const std::vector<std::string>& names, const std::string& name) {
  for (const std::string& n : names)
    if (n == name) return n;
  for (const std::string& n : names)
    if (lower(n) == lower(name)) return n;
  return {};
}

}  // namespace

std::string builtin_robot_directory() {
  if (const char* env = std::getenv("KINETIC_ROBOT_CONFIGS"); env && *env) return env;
#ifdef KINETIC_SOURCE_ROBOT_CONFIGS
  if (is_dir(KINETIC_SOURCE_ROBOT_CONFIGS)) return KINETIC_SOURCE_ROBOT_CONFIGS;
#endif
#ifdef KINETIC_INSTALL_ROBOT_CONFIGS
  return KINETIC_INSTALL_ROBOT_CONFIGS;
#else
  return "robot_configs";
#endif
}

std::vector<BuiltinRobotInfo> builtin_robots() {
  const std::string dir = builtin_robot_directory();
  std::vector<BuiltinRobotInfo> robots;
  for (const std::string& name : library_names(dir)) {
    BuiltinRobotInfo info;
    info.name = name;
    info.directory = (fs::path(dir) / name).string();
    // A broken entry is still listed (loading it reports the problem).
    try {
      const RobotConfig config =
          load_robot_config_file((fs::path(info.directory) / "kinetic.toml").string());
      info.manufacturer = config.manufacturer;
      info.model = config.model;
      info.dof = count_dof((fs::path(info.directory) / config.urdf).string());
    } catch (const Error&) {
    }
    robots.push_back(std::move(info));
  }
  return robots;
}

bool is_builtin_robot_name(const std::string& name) {
  return !library_entry(library_names(builtin_robot_directory()), name).empty();
}

RobotModelPtr load_builtin_robot(const std::string& name, const LoadOptions& options) {
  const std::string dir = builtin_robot_directory();
  const std::vector<std::string> names = library_names(dir);
  const std::string entry = library_entry(names, name);
  if (entry.empty()) {
    std::string hint = suggestion_hint(name, names);
    if (closest_names(name, names).empty()) {
      // Nothing close by library name: try manufacturers and models ("franka" -> panda).
      std::vector<std::string> by_description;
      const std::string query = lower(name);
      for (const BuiltinRobotInfo& info : builtin_robots()) {
        const std::string manufacturer = lower(info.manufacturer), model = lower(info.model);
        const bool close = (!query.empty() && (manufacturer.find(query) != std::string::npos ||
                                               model.find(query) != std::string::npos)) ||
                           (!model.empty() && edit_distance(query, model) <=
                                                  std::max<std::size_t>(1, query.size() / 4));
        if (close) by_description.push_back(info.name);
      }
      if (!by_description.empty() && by_description.size() <= 5)
        hint = "did you mean " + quoted_list(by_description) + "?";
    }
    if (names.empty())
      hint = "the library folder '" + dir +
             "' holds no robots (set KINETIC_ROBOT_CONFIGS to the robot_configs folder)";
    throw Error(ErrorCode::UnknownRobot, "no built-in robot named '" + name + "'", hint);
  }
  const fs::path folder = fs::path(dir) / entry;
  const std::string toml_path = (folder / "kinetic.toml").string();
  detail::RobotSources in;
  in.toml_text = detail::read_text_file(toml_path, "kinetic.toml file");
  in.toml_source = toml_path;
  const RobotConfig config = parse_robot_config(in.toml_text, toml_path);
  const fs::path urdf_path = folder / config.urdf;
  in.urdf_xml = detail::read_text_file(urdf_path.string(), "URDF file");
  in.urdf_source = urdf_path.string();
  in.source_path = detail::absolute_path(urdf_path.string());
  in.base_dir = fs::path(in.source_path).parent_path().string();
  if (!config.srdf.empty()) {
    const fs::path srdf_path = folder / config.srdf;
    in.srdf_xml = detail::read_text_file(srdf_path.string(), "SRDF file");
    in.srdf_source = srdf_path.string();
  }
  LoadOptions with_library = options;
  with_library.package_paths.push_back(dir);
  return detail::load_robot(in, with_library);
}

}  // namespace kinetic
