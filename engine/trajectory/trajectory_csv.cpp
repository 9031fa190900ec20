// CSV form of a trajectory and file load/save (schema: docs/trajectory-format.md).
#include <charconv>
#include <cmath>
#include <sstream>

#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/trajectory/controller_export.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic {
namespace {

void append_number(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest round trip
  out.append(buffer, result.ptr);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : text) {
    if (c == separator) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

[[noreturn]] void fail(const std::string& source, std::size_t line, const std::string& what,
                       ErrorCode code = ErrorCode::ParseError) {
  throw Error(code, source + ":" + std::to_string(line) + ": " + what,
              "see docs/trajectory-format.md for the schema");
}

double parse_number(const std::string& field, const std::string& source, std::size_t line,
                    const std::string& what) {
  const std::string text = trim(field);
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
    fail(source, line, what + ": '" + text + "' is not a number");
  if (!std::isfinite(value)) fail(source, line, what + " is not finite");
  return value;
}

// Why a joint or robot name cannot stand in a CSV file, "" when it can. The writer refuses such
// names and so does the reader, so every CSV file read can be written back.
std::string csv_name_problem(const std::string& name) {
  if (name.find_first_of(",\n\r") != std::string::npos)
    return "names must not contain commas or line breaks";
  // The reader trims fields: "joint6 " would come back as "joint6", a different trajectory.
  if (trim(name) != name) return "names must not begin or end with spaces or tabs";
  return {};
}

void check_name(const std::string& name) {
  if (const std::string problem = csv_name_problem(name); !problem.empty())
    throw Error(ErrorCode::InvalidValue,
                "joint or robot name '" + name + "' cannot be written to CSV",
                problem + "; use JSON");
}

// The reader's side of csv_name_problem, naming the line.
void check_read_name(const std::string& name, const std::string& what, const std::string& source,
                     std::size_t line) {
  if (const std::string problem = csv_name_problem(name); !problem.empty())
    fail(source, line, what + " '" + name + "': " + problem + " in CSV (use JSON)");
}

}  // namespace

std::string trajectory_to_csv(const Trajectory& t) {
  check_name(t.robot());
  for (const auto& n : t.joint_names()) check_name(n);
  std::string out =
      "# kinetic-trajectory\n# format_version: " + std::to_string(kTrajectoryFormatVersion) +
      "\n# robot: " + t.robot() + "\n# units: time=s; position=";
  // Appended piece by piece: GCC 12 at -O3 flags `"," + std::string(...)` with a false -Wrestrict.
  for (std::size_t j = 0; j < t.units().size(); ++j) {
    if (j) out += ',';
    out += to_string(t.units()[j]);
  }
  out += "\n# waypoint_times:";
  for (std::size_t i = 0; i < t.waypoint_times().size(); ++i) {
    out += i ? "," : " ";
    append_number(out, t.waypoint_times()[i]);
  }
  out += "\nt";
  for (const char* prefix : {"q:", "qd:", "qdd:"})
    for (const auto& n : t.joint_names()) {
      out += ',';
      out += prefix;
      out += n;
    }
  out += "\n";
  for (const auto& s : t.samples()) {
    append_number(out, s.t);
    for (const double* v : {s.position.data(), s.velocity.data(), s.acceleration.data()})
      for (Eigen::Index j = 0; j < s.position.size(); ++j) {
        out += ',';
        append_number(out, v[j]);
      }
    out += '\n';
  }
  return out;
}

Trajectory trajectory_from_csv(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  bool have_magic = false, have_version = false, have_robot = false, have_units = false;
  std::string robot;
  std::vector<std::string> unit_names, names;
  std::vector<double> waypoint_times;
  std::vector<TrajectorySample> samples;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    if (line[0] == '#') {
      const std::string body = trim(line.substr(1));
      if (body == "kinetic-trajectory") {
        have_magic = true;
        continue;
      }
      const auto colon = body.find(':');
      if (colon == std::string::npos) continue;  // a free comment
      const std::string key = trim(body.substr(0, colon)), value = trim(body.substr(colon + 1));
      if (key == "format_version") {
        const double v = parse_number(value, source, number, "format_version");
        if (v != kTrajectoryFormatVersion)
          fail(source, number,
               "format_version " + value + " is not supported (this build reads version " +
                   std::to_string(kTrajectoryFormatVersion) + ")",
               ErrorCode::Unsupported);
        have_version = true;
      } else if (key == "robot") {
        check_read_name(value, "robot name", source, number);
        robot = value;
        have_robot = true;
      } else if (key == "units") {
        for (const std::string& part : split(value, ';')) {
          const std::string p = trim(part);
          if (p == "time=s") continue;
          if (p.rfind("position=", 0) != 0)
            fail(source, number,
                 "units: expected 'time=s; position=rad,m,...', got '" + value + "'");
          // "position=" with nothing after it is the unit list of a trajectory without joints
          // (what trajectory_to_csv writes for one), not one empty unit.
          if (!trim(p.substr(9)).empty())
            for (const auto& u : split(p.substr(9), ',')) unit_names.push_back(trim(u));
        }
        have_units = true;
      } else if (key == "waypoint_times") {
        if (!value.empty())
          for (const auto& f : split(value, ','))
            waypoint_times.push_back(parse_number(f, source, number, "waypoint time"));
      }
      continue;
    }
    if (!have_magic || !have_version || !have_robot || !have_units)
      fail(source, number,
           std::string("missing header line '# ") +
               (!have_magic     ? "kinetic-trajectory"
                : !have_version ? "format_version: 1"
                : !have_robot   ? "robot: NAME"
                                : "units: time=s; position=...") +
               "' before the data");
    const std::vector<std::string> fields = split(line, ',');
    if (!have_header) {
      if (trim(fields[0]) != "t" || (fields.size() - 1) % 3 != 0)
        fail(source, number,
             "column header must be 't' followed by q:, qd: and qdd: columns for every joint");
      const std::size_t dof = (fields.size() - 1) / 3;
      for (std::size_t j = 0; j < dof; ++j) {
        const std::string q = trim(fields[1 + j]);
        if (q.rfind("q:", 0) != 0 || trim(fields[1 + dof + j]) != "qd:" + q.substr(2) ||
            trim(fields[1 + 2 * dof + j]) != "qdd:" + q.substr(2))
          fail(source, number,
               "column header: columns for joint " + std::to_string(j) +
                   " must be q:NAME, qd:NAME, qdd:NAME");
        check_read_name(q.substr(2), "joint name", source, number);
        names.push_back(q.substr(2));
      }
      if (unit_names.size() != dof)
        fail(source, number,
             "units list " + std::to_string(unit_names.size()) + " positions for " +
                 std::to_string(dof) + " joints");
      have_header = true;
      continue;
    }
    const std::size_t dof = names.size();
    if (fields.size() != 1 + 3 * dof)
      fail(source, number,
           "row has " + std::to_string(fields.size()) + " fields, expected " +
               std::to_string(1 + 3 * dof) + " (sample " + std::to_string(samples.size()) + ")");
    TrajectorySample s;
    const std::string where = "sample " + std::to_string(samples.size());
    s.t = parse_number(fields[0], source, number, where + " t");
    JointVector* vectors[3] = {&s.position, &s.velocity, &s.acceleration};
    const char* labels[3] = {"q", "qd", "qdd"};
    for (int k = 0; k < 3; ++k) {
      vectors[k]->resize(static_cast<Eigen::Index>(dof));
      for (std::size_t j = 0; j < dof; ++j)
        (*vectors[k])[static_cast<Eigen::Index>(j)] =
            parse_number(fields[1 + static_cast<std::size_t>(k) * dof + j], source, number,
                         where + " " + labels[k] + " of joint '" + names[j] + "'");
    }
    samples.push_back(std::move(s));
  }
  if (!have_header) fail(source, number, "no column header and no samples");
  // Checked again here: a "# units:" line after the column header adds units the header's check
  // never saw (and the loop below names joint j for each unit).
  if (unit_names.size() != names.size())
    fail(source, number,
         "units list " + std::to_string(unit_names.size()) + " positions for " +
             std::to_string(names.size()) + " joints");
  std::vector<PositionUnit> units;
  for (std::size_t j = 0; j < unit_names.size(); ++j) {
    if (unit_names[j] == "rad")
      units.push_back(PositionUnit::Radian);
    else if (unit_names[j] == "m")
      units.push_back(PositionUnit::Metre);
    else
      fail(source, number,
           "unit '" + unit_names[j] + "' of joint '" + names[j] + "' must be rad or m");
  }
  try {
    return Trajectory(robot, std::move(names), std::move(units), std::move(samples),
                      std::move(waypoint_times));
  } catch (const Error& e) {
    throw Error(ErrorCode::ParseError, source + ": " + e.message(),
                "see docs/trajectory-format.md for the schema");
  }
}

namespace {
bool is_json(const std::filesystem::path& path) {
  return path.extension() == ".json";
}
bool is_ros_yaml(const std::filesystem::path& path) {
  return path.extension() == ".yaml" || path.extension() == ".yml";
}
bool is_urscript(const std::filesystem::path& path) {
  return path.extension() == ".script";
}
void check_extension(const std::filesystem::path& path) {
  if (path.extension() != ".json" && path.extension() != ".csv")
    throw Error(ErrorCode::Unsupported,
                "trajectory file '" + path.string() + "' has an unknown extension",
                "use .json or .csv");
}
}  // namespace

void save_trajectory(const Trajectory& trajectory, const std::filesystem::path& path) {
  if (is_ros_yaml(path)) return write_file_atomically(path, trajectory_to_ros_yaml(trajectory));
  if (is_urscript(path)) return write_file_atomically(path, trajectory_to_urscript(trajectory));
  if (path.extension() != ".json" && path.extension() != ".csv")
    throw Error(ErrorCode::Unsupported,
                "trajectory file '" + path.string() + "' has an unknown extension",
                "use .json or .csv (or, to export for a controller, .yaml for ROS or .script for "
                "URScript)");
  write_file_atomically(
      path, is_json(path) ? trajectory_to_json(trajectory) : trajectory_to_csv(trajectory));
}

const std::vector<std::string>& trajectory_save_extensions() {
  static const std::vector<std::string> extensions{".json", ".csv", ".yaml", ".yml", ".script"};
  return extensions;
}

Trajectory load_trajectory(const std::filesystem::path& path) {
  if (is_ros_yaml(path) || is_urscript(path))
    throw Error(ErrorCode::Unsupported,
                "'" + path.string() + "' is an export for a controller (" +
                    (is_urscript(path) ? "URScript" : "ROS JointTrajectory") +
                    "), which Kinetic Studio does not read back",
                "import the trajectory's .json or .csv export");
  check_extension(path);
  const std::string text = read_input_file(path, kTrajectoryInput);
  return is_json(path) ? trajectory_from_json(text, path.string())
                       : trajectory_from_csv(text, path.string());
}

}  // namespace kinetic
