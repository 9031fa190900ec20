#include "engine/model/robot_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/model/config_loader.hpp"
#include "engine/model/loader_internal.hpp"
#include "engine/model/moveit_config_files.hpp"
#include "engine/model/package_resolver.hpp"
#include "engine/model/robot_model_builder.hpp"
#include "engine/model/srdf_loader.hpp"
#include "engine/model/xacro/xacro_processor.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace detail {

std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw Error(ErrorCode::FileNotFound, what + " '" + path + "' does not exist",
                "check the path (relative paths are taken from the current directory " +
                    fs::current_path(ec).string() + ")");
  if (fs::is_directory(path, ec))
    throw Error(ErrorCode::FileNotFound, what + " '" + path + "' is a folder, not a file");
  // The limit of the kind named (a FIFO or a device is refused as not a regular file).
  std::size_t limit = kUrdfInput.max_bytes;
  for (const InputKind& kind : {kUrdfInput, kSrdfInput, kRobotConfigInput})
    if (what == kind.what) limit = kind.max_bytes;
  return read_input_file(path, InputKind{what.c_str(), limit});
}

RobotModelPtr load_robot(const RobotSources& in, const LoadOptions& options) {
  std::vector<std::string> warnings = in.xacro_warnings;
  UrdfDocumentInfo info;
  const auto urdf = parse_urdf_checked(in.urdf_xml, in.urdf_source, &info, &warnings);

  std::vector<std::string> search_paths = options.package_paths;
  const PackageResolver resolver(in.base_dir, search_paths);
  RobotModelBuilder builder;
  builder.build_from_urdf(*urdf, info, resolver, options.require_meshes);
  builder.set_source_path(in.source_path);
  builder.set_included_files(in.included_files);

  if (!in.srdf_source.empty())
    builder.set_semantic(parse_srdf(in.srdf_xml, in.srdf_source, &builder.model(), &warnings),
                         in.srdf_source);
  RobotConfig config;
  std::vector<std::string> notes;
  if (in.moveit) {
    notes = {"MoveIt config: " + in.moveit->name + " (" + in.moveit->folder + ")",
             "URDF: " + in.moveit->urdf_how, "SRDF: " + in.moveit->srdf_how};
    apply_moveit_config_files(*in.moveit, builder.model(), config, notes, warnings);
  }
  if (!in.toml_source.empty()) {
    config = parse_robot_config(in.toml_text, in.toml_source, &warnings, std::move(config));
    validate_robot_config(config, builder.model(), in.toml_source);
    if (!config.name.empty()) builder.set_name(config.name);
    if (in.moveit) notes.push_back("kinetic.toml: " + in.toml_source + " (its keys win)");
  }
  builder.set_config(std::move(config));
  builder.add_warnings(warnings);
  builder.add_source_notes(notes);
  return builder.finish();
}

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return path;
  return p.lexically_normal().string();
}

}  // namespace detail

namespace {
// A robot file's text, expanded first when it is xacro ($(find) searches where meshes are found).
std::string read_robot_text(const std::string& path, const std::string& what,
                            const LoadOptions& options, std::string& source,
                            std::vector<std::string>& included,
                            std::vector<std::string>& warnings) {
  std::string text = detail::read_text_file(path, what);
  source = path;
  // A URDF xacro wrote keeps the namespace and nothing else: read as it is, line for line.
  if (!xacro::is_xacro(path, text) || !xacro::uses_xacro(text)) return text;
  const std::string absolute = detail::absolute_path(path);
  const PackageResolver resolver(fs::path(absolute).parent_path().string(), options.package_paths);
  xacro::ExpandOptions expand;
  expand.args = options.xacro_args;
  expand.find_package = [&resolver](const std::string& name) {
    return resolver.find_package(name);
  };
  expand.warn = [&warnings](const std::string& message) { warnings.push_back(message); };
  std::vector<std::string> files;
  text = xacro::expand(text, absolute, expand, &files);
  for (const std::string& file : files)
    if (std::find(included.begin(), included.end(), file) == included.end())
      included.push_back(file);
  source = path + " (expanded from xacro)";
  return text;
}
}  // namespace

namespace {

// A MoveIt config package: its description (with its xacro arguments, under those the caller
// gives), its SRDF unless one is named, its YAML files, watched as the description's own files.
RobotModelPtr load_moveit_config(const std::string& folder, const std::string& reference,
                                 const std::string& srdf_path, const std::string& toml_path,
                                 const LoadOptions& options) {
  const PackageResolver resolver(folder, options.package_paths);
  const std::string opened = fs::path(reference).filename().string();
  const bool is_srdf = opened.ends_with(".srdf") || opened.ends_with(".srdf.xacro");
  const std::string opened_srdf = is_srdf ? reference : std::string();  // the SRDF the user opened
  const MoveItConfigPackage package =
      read_moveit_config_package(folder, resolver, srdf_path.empty() ? opened_srdf : srdf_path);
  LoadOptions with_args = options;
  for (const auto& [name, value] : package.xacro_args) with_args.xacro_args.emplace(name, value);
  detail::RobotSources in;
  in.moveit = &package;
  in.source_path = package.urdf;
  in.urdf_xml = read_robot_text(package.urdf, "URDF file", with_args, in.urdf_source,
                                in.included_files, in.xacro_warnings);
  in.base_dir = fs::path(package.urdf).parent_path().string();
  in.srdf_xml = read_robot_text(package.srdf, "SRDF file", with_args, in.srdf_source,
                                in.included_files, in.xacro_warnings);
  if (!toml_path.empty()) {
    in.toml_text = detail::read_text_file(toml_path, "kinetic.toml file");
    in.toml_source = toml_path;
  }
  for (const std::string* file :
       {&package.srdf, &package.joint_limits, &package.kinematics, &package.initial_positions})
    if (!file->empty() && std::find(in.included_files.begin(), in.included_files.end(), *file) ==
                              in.included_files.end())
      in.included_files.push_back(*file);
  return detail::load_robot(in, with_args);
}

}  // namespace

RobotModelPtr load_robot_file(const std::string& urdf_path, const std::string& srdf_path,
                              const std::string& toml_path, const LoadOptions& options) {
  if (const std::optional<std::string> folder = moveit_config_folder(urdf_path))
    return load_moveit_config(*folder, urdf_path, srdf_path, toml_path, options);
  detail::RobotSources in;
  in.source_path = detail::absolute_path(urdf_path);
  in.urdf_xml = read_robot_text(urdf_path, "URDF file", options, in.urdf_source, in.included_files,
                                in.xacro_warnings);
  in.base_dir = fs::path(in.source_path).parent_path().string();
  if (!srdf_path.empty())
    in.srdf_xml = read_robot_text(srdf_path, "SRDF file", options, in.srdf_source,
                                  in.included_files, in.xacro_warnings);
  if (!toml_path.empty()) {
    in.toml_text = detail::read_text_file(toml_path, "kinetic.toml file");
    in.toml_source = toml_path;
  }
  return detail::load_robot(in, options);
}

RobotModelPtr load_robot_string(const std::string& urdf_xml, const std::string& srdf_xml,
                                const std::string& toml_text, const std::string& base_dir,
                                const LoadOptions& options) {
  detail::RobotSources in;
  in.urdf_xml = urdf_xml;
  in.urdf_source = "<urdf string>";
  in.base_dir = base_dir;
  if (!srdf_xml.empty()) {
    in.srdf_xml = srdf_xml;
    in.srdf_source = "<srdf string>";
  }
  if (!toml_text.empty()) {
    in.toml_text = toml_text;
    in.toml_source = "<kinetic.toml string>";
  }
  return detail::load_robot(in, options);
}

}  // namespace kinetic
