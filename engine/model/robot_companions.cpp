#include "engine/model/robot_companions.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/core/input_file.hpp"
#include "engine/core/path_checks.hpp"
#include "engine/model/moveit_config_package.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

// The root element's start tag comes before any link: a URDF with more than this in front of it
// (comments, a licence) gives no name.
constexpr std::size_t kRootSearchBytes = 64 * 1024;

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The value of `attribute` in the start tag whose attributes begin at `pos`; "" when absent or
// when the tag is not closed (a truncated or malformed file).
std::string attribute_value(const std::string& text, std::size_t pos,
                            const std::string& attribute) {
  std::string value;
  while (pos < text.size()) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size()) break;
    if (text[pos] == '>' || text.compare(pos, 2, "/>") == 0) return value;
    const std::size_t name_begin = pos;
    while (pos < text.size() && text[pos] != '=' && !is_space(text[pos]) && text[pos] != '>') ++pos;
    const std::string name = text.substr(name_begin, pos - name_begin);
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size() || text[pos] != '=') return {};
    ++pos;
    while (pos < text.size() && is_space(text[pos])) ++pos;
    if (pos >= text.size() || (text[pos] != '"' && text[pos] != '\'')) return {};
    const char quote = text[pos++];
    const std::size_t value_end = text.find(quote, pos);
    if (value_end == std::string::npos) return {};
    if (name == attribute) value = text.substr(pos, value_end - pos);
    pos = value_end + 1;
  }
  return {};
}

// A robot name that can stand in a file name of the same folder ("../x" or "a/b" cannot).
bool usable_as_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos;
}

struct SrdfRule {
  const char* folder;  // relative to the URDF's folder
  const char* how;
};

constexpr SrdfRule kSrdfRules[] = {
    {".", "found beside the URDF"},
    {"../srdf", "found in the package's srdf folder"},
    {"../config", "found in the package's config folder"},
};

CompanionFile companion(const fs::path& file, const fs::path& urdf_dir, std::string how) {
  const fs::path normal = file.lexically_normal();
  return {normal.string(), normal.lexically_relative(urdf_dir).string(), std::move(how)};
}

}  // namespace

std::string urdf_robot_name(const std::string& urdf_path) {
  if (!not_a_regular_file(urdf_path).empty()) return {};  // a FIFO would block the open
  std::ifstream file(urdf_path, std::ios::binary);
  if (!file) return {};
  std::string text(kRootSearchBytes, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  // Past the XML declaration, processing instructions, comments and a DOCTYPE to the first element.
  std::size_t pos = 0;
  while ((pos = text.find('<', pos)) != std::string::npos) {
    std::string end_marker;
    if (text.compare(pos, 4, "<!--") == 0)
      end_marker = "-->";
    else if (text.compare(pos, 2, "<?") == 0)
      end_marker = "?>";
    else if (text.compare(pos, 2, "<!") == 0)
      end_marker = ">";
    if (end_marker.empty()) break;
    pos = text.find(end_marker, pos + 2);
    if (pos == std::string::npos) return {};
    pos += end_marker.size();
  }
  if (pos == std::string::npos || text.compare(pos, 6, "<robot") != 0) return {};
  pos += 6;
  if (pos >= text.size() || !is_space(text[pos])) return {};
  return attribute_value(text, pos, "name");
}

RobotCompanions find_robot_companions(const std::string& urdf_path) {
  RobotCompanions found;
  std::error_code ec;
  const fs::path urdf = fs::absolute(urdf_path, ec).lexically_normal();
  if (ec || urdf.filename().empty()) return found;
  // A MoveIt config package names its own SRDF (load_robot_file reads the package).
  if (moveit_config_folder(urdf.string())) return found;
  const fs::path dir = urdf.parent_path();

  struct Naming {
    std::string stem, suffix;
  };
  // robot.urdf.xacro is named "robot" as robot.urdf is.
  std::string stem = urdf.stem().string();
  if (urdf.extension() == ".xacro" && fs::path(stem).extension() == ".urdf")
    stem = fs::path(stem).stem().string();
  std::vector<Naming> namings{{stem, ""}};
  const std::string robot = urdf_robot_name(urdf.string());
  if (usable_as_file_name(robot) && robot != namings.front().stem)
    namings.push_back({robot, ", named after the robot '" + robot + "'"});
  for (const Naming& naming : namings) {
    for (const SrdfRule& rule : kSrdfRules) {
      fs::path candidate = dir / rule.folder / (naming.stem + ".srdf");
      if (!is_regular_file_here(candidate))
        candidate += ".xacro";  // MoveIt configs also keep robot.srdf.xacro
      if (!is_regular_file_here(candidate)) continue;
      found.srdf = companion(candidate, dir, rule.how + naming.suffix);
      break;
    }
    if (found.srdf.found()) break;
  }
  if (const fs::path toml = dir / "kinetic.toml"; is_regular_file_here(toml))
    found.toml = companion(toml, dir, "found beside the URDF");
  return found;
}

}  // namespace kinetic
