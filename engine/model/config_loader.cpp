#include "engine/model/config_loader.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

namespace {

// Upper bounds of the integer keys: they are stored as int, and a TOML integer is 64-bit, so an
// unchecked 2^31 would wrap to a negative count. Far above any useful value.
constexpr std::int64_t kMaxIkIterations = 1'000'000;
constexpr std::int64_t kMaxSweepSamples = 10'000;
// IK turns its budget into a deadline in nanoseconds (64-bit): an hour keeps it far from overflow.
constexpr std::int64_t kMaxIkTimeoutMs = 3'600'000;

// toml++ (3.3) nests tables recursively and bounds only arrays and inline tables (256 levels): a
// dotted key or a [table.header] of 100,000 parts (a 200 kB file) overflowed the stack. A
// kinetic.toml key has at most three parts (ik.opw.a1); more than kMaxKeyParts is refused before
// toml++ reads the text. Counted per line up to the first '=', ']', ',' or '#': dots with a key
// character or a quote on both sides (so the numbers of an array continued over lines, which stop
// at their first ',', do not add up).
constexpr std::size_t kMaxKeyParts = 64;

void check_key_parts(const std::string& text, const std::string& source) {
  const auto key_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '"' ||
           c == '\'';
  };
  std::size_t line = 1, parts = 1;
  bool in_key = true;
  char quote = 0, previous = 0;  // previous: the last character that was not a space or tab
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      parts = 1;
      in_key = true;
      quote = previous = 0;
      continue;
    }
    if (!in_key || c == ' ' || c == '\t') continue;
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '=' || c == ']' || c == ',' || c == '#') {
      in_key = false;
    } else if (c == '.' && key_char(previous)) {
      std::size_t next = i + 1;
      while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
      if (next < text.size() && key_char(text[next]) && ++parts > kMaxKeyParts)
        throw Error(ErrorCode::ParseError,
                    source + ":" + std::to_string(line) + ": a key of more than " +
                        std::to_string(kMaxKeyParts) + " dotted parts",
                    "kinetic.toml keys have at most three parts (e.g. ik.opw.a1); check that this "
                    "is the right file");
    }
    previous = c;
  }
}

template <typename T>
const T& must(const T* pointer) {
  if (!pointer) throw Error(ErrorCode::ParseError, "internal error: missing TOML node");
  return *pointer;
}

const char* type_name(toml::node_type type) {
  switch (type) {
    case toml::node_type::none:
      return "nothing";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
  }
  return "a value";
}

// Reads one table, tracking which keys were used so the rest can be reported as unknown.
class Reader {
 public:
  Reader(const std::string& source, std::vector<std::string>* warnings)
      : source_(source), warnings_(warnings) {}

  std::string at(const toml::node& node) const {
    const auto line = node.source().begin.line;
    return line > 0 ? source_ + ":" + std::to_string(line) : source_;
  }

  [[noreturn]] void type_error(const toml::node& node, const std::string& key,
                               const std::string& expected) const {
    throw Error(
        ErrorCode::ParseError,
        at(node) + ": key '" + key + "' must be " + expected + ", not " + type_name(node.type()),
        "see docs/robot-configuration.md for the format");
  }
  [[noreturn]] void value_error(const toml::node& node, const std::string& key,
                                const std::string& why) const {
    throw Error(ErrorCode::InvalidValue, at(node) + ": key '" + key + "' " + why,
                "see docs/robot-configuration.md for the format");
  }

  // Warns about keys of `table` not in `known`.
  void check_keys(const toml::table& table, const std::string& prefix,
                  std::initializer_list<const char*> known) const {
    for (const auto& [key, node] : table) {
      const std::string name(key.str());
      bool ok = false;
      for (const char* k : known) ok = ok || name == k;
      if (!ok && warnings_) {
        std::vector<std::string> candidates(known.begin(), known.end());
        std::string message =
            at(node) + ": unknown key '" + printable(prefix + name) + "' is ignored";
        const auto close = closest_names(name, candidates, 3);
        if (!close.empty()) message += " (did you mean " + quoted_list(close) + "?)";
        warnings_->push_back(message);
      }
    }
  }

  const toml::table* table(const toml::table& parent, const char* key,
                           const std::string& full) const {
    const toml::node* node = parent.get(key);
    if (!node) return nullptr;
    if (!node->is_table()) type_error(*node, full, "a table");
    return node->as_table();
  }

  std::optional<std::string> string(const toml::table& t, const char* key,
                                    const std::string& full) const {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    if (auto v = node->value_exact<std::string>()) return *v;
    type_error(*node, full, "a string");
  }

  double number(const toml::node& node, const std::string& full) const {
    if (auto v = node.value_exact<std::int64_t>()) return static_cast<double>(*v);
    if (auto v = node.value_exact<double>()) return *v;
    type_error(node, full, "a number");
  }

  std::optional<double> number(const toml::table& t, const char* key, const std::string& full,
                               bool finite = true) const {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    const double value = number(*node, full);
    if (finite && !std::isfinite(value)) value_error(*node, full, "must be a finite number");
    return value;
  }

  std::optional<double> non_negative(const toml::table& t, const char* key,
                                     const std::string& full) const {
    auto value = number(t, key, full);
    if (value && *value < 0.0) value_error(must(t.get(key)), full, "must not be negative");
    return value;
  }

  std::optional<double> positive(const toml::table& t, const char* key,
                                 const std::string& full) const {
    auto value = number(t, key, full);
    if (value && *value <= 0.0) value_error(must(t.get(key)), full, "must be positive");
    return value;
  }

  std::optional<std::int64_t> integer(const toml::table& t, const char* key,
                                      const std::string& full) const {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    if (auto v = node->value_exact<std::int64_t>()) return *v;
    type_error(*node, full, "an integer");
  }

  // An integer in [low, high], converted to int only after the check.
  std::optional<int> integer_in(const toml::table& t, const char* key, const std::string& full,
                                std::int64_t low, std::int64_t high) const {
    const auto value = integer(t, key, full);
    if (!value) return std::nullopt;
    if (*value < low || *value > high)
      value_error(must(t.get(key)), full,
                  "is " + std::to_string(*value) + "; use an integer from " + std::to_string(low) +
                      " to " + std::to_string(high));
    return static_cast<int>(*value);
  }

  const toml::array* array(const toml::table& t, const char* key, const std::string& full) const {
    const toml::node* node = t.get(key);
    if (!node) return nullptr;
    if (!node->is_array()) type_error(*node, full, "an array");
    return node->as_array();
  }

  std::vector<double> numbers(const toml::node& node, const std::string& full,
                              std::size_t expected = 0, bool finite = true) const {
    if (!node.is_array())
      type_error(node, full,
                 expected ? "an array of " + std::to_string(expected) + " numbers"
                          : "an array of numbers");
    const toml::array& arr = *node.as_array();
    if (expected && arr.size() != expected)
      throw Error(ErrorCode::ParseError,
                  at(node) + ": key '" + full + "' must have " + std::to_string(expected) +
                      " values, not " + std::to_string(arr.size()),
                  "see docs/robot-configuration.md for the format");
    std::vector<double> out;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string item = full + "[" + std::to_string(i) + "]";
      out.push_back(number(arr[i], item));
      if (finite && !std::isfinite(out.back()))
        value_error(arr[i], item, "must be a finite number");
    }
    return out;
  }

  std::vector<std::string> strings(const toml::node& node, const std::string& full,
                                   std::size_t expected = 0) const {
    if (!node.is_array()) type_error(node, full, "an array of strings");
    const toml::array& arr = *node.as_array();
    if (expected && arr.size() != expected)
      throw Error(ErrorCode::ParseError,
                  at(node) + ": key '" + full + "' must have " + std::to_string(expected) +
                      " names, not " + std::to_string(arr.size()),
                  "see docs/robot-configuration.md for the format");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const toml::node& element = arr[i];
      auto value = element.value_exact<std::string>();
      if (!value) type_error(element, full + "[" + std::to_string(i) + "]", "a string");
      out.push_back(*value);
    }
    return out;
  }

  [[noreturn]] void missing(const toml::node& table_node, const std::string& key) const {
    throw Error(ErrorCode::ParseError, at(table_node) + ": required key '" + key + "' is missing",
                "see docs/robot-configuration.md for the format");
  }

 private:
  const std::string& source_;
  std::vector<std::string>* warnings_;
};

Vector3 vec3(const std::vector<double>& v) {
  return {v[0], v[1], v[2]};
}

// Before toml++ reads the text (check_key_parts), then toml++'s syntax errors as ParseError at
// their line.
toml::table parse_toml(const std::string& text, const std::string& source) {
  check_key_parts(text, source);
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw Error(ErrorCode::ParseError,
                source + ":" + std::to_string(e.source().begin.line) +
                    ": malformed TOML: " + std::string(e.description()),
                "fix the TOML syntax at that line");
  }
}

// Read first, so that a newer file is refused as newer rather than for a key this build lacks.
void check_format_version(const Reader& r, const toml::table& root, const std::string& source) {
  const auto version = r.integer(root, "format_version", "format_version");
  if (!version) return;
  if (*version > kRobotConfigFormatVersion)
    throw Error(ErrorCode::Unsupported,
                source + ": format_version " + std::to_string(*version) +
                    " is newer than this build reads (" +
                    std::to_string(kRobotConfigFormatVersion) + ")",
                "use a newer Kinetic Studio, or a kinetic.toml written for version " +
                    std::to_string(kRobotConfigFormatVersion));
  if (*version < 1)
    r.value_error(*root.get("format_version"), "format_version",
                  "is " + std::to_string(*version) + "; the first version is 1");
}

void read_robot(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* robot = r.table(root, "robot", "robot");
  if (!robot) return;
  r.check_keys(*robot, "robot.", {"name", "manufacturer", "model", "urdf", "srdf"});
  if (auto v = r.string(*robot, "name", "robot.name")) config.name = *v;
  if (auto v = r.string(*robot, "manufacturer", "robot.manufacturer")) config.manufacturer = *v;
  if (auto v = r.string(*robot, "model", "robot.model")) config.model = *v;
  if (auto v = r.string(*robot, "urdf", "robot.urdf")) config.urdf = *v;
  if (auto v = r.string(*robot, "srdf", "robot.srdf")) config.srdf = *v;
}

// planning_group.NAME.joints: at least one joint, none listed twice.
std::vector<std::string> read_group_joints(const Reader& r, const toml::node& joints,
                                           const std::string& prefix) {
  std::vector<std::string> names = r.strings(joints, prefix + ".joints");
  if (names.empty()) r.value_error(joints, prefix + ".joints", "must list at least one joint");
  // A joint listed twice would shift every value after it (named poses, goals) by one joint.
  for (std::size_t i = 0; i < names.size(); ++i)
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
        names.begin() + static_cast<std::ptrdiff_t>(i))
      r.value_error(
          joints, prefix + ".joints",
          "lists joint '" + printable(names[i].substr(0, 64)) + "' twice; list each joint once");
  return names;
}

PlanningGroupConfig read_planning_group(const Reader& r, const std::string& name,
                                        const toml::node& node) {
  const std::string prefix = "planning_group." + name;
  if (!node.is_table()) r.type_error(node, prefix, "a table");
  const toml::table& t = *node.as_table();
  r.check_keys(t, prefix + ".", {"chain", "joints"});
  PlanningGroupConfig group;
  group.name = name;
  const toml::node* chain = t.get("chain");
  const toml::node* joints = t.get("joints");
  if (chain && joints)
    throw Error(ErrorCode::ParseError,
                r.at(node) + ": '" + prefix + "' gives both 'chain' and 'joints'",
                "give one of them");
  if (chain) {
    const auto links = r.strings(*chain, prefix + ".chain", 2);
    group.base_link = links[0];
    group.tip_link = links[1];
  } else if (joints) {
    group.joints = read_group_joints(r, *joints, prefix);
  } else {
    r.missing(node, prefix + ".chain' or '" + prefix + ".joints");
  }
  return group;
}

void read_planning_groups(const Reader& r, const toml::table& root, RobotConfig& config) {
  if (const toml::table* groups = r.table(root, "planning_group", "planning_group"))
    for (const auto& [key, node] : *groups)
      config.planning_groups.push_back(read_planning_group(r, std::string(key.str()), node));
  // toml++ keeps tables sorted by key; keep the document order so "the first group" is the first
  // one written.
  std::sort(config.planning_groups.begin(), config.planning_groups.end(),
            [&](const PlanningGroupConfig& a, const PlanningGroupConfig& b) {
              const toml::table* groups = root["planning_group"].as_table();
              if (!groups) return false;
              const auto la = must(groups->get(a.name)).source().begin;
              const auto lb = must(groups->get(b.name)).source().begin;
              return la.line != lb.line ? la.line < lb.line : la.column < lb.column;
            });
}

EndEffectorConfig read_end_effector(const Reader& r, const std::string& name,
                                    const toml::node& node) {
  const std::string prefix = "end_effector." + name;
  if (!node.is_table()) r.type_error(node, prefix, "a table");
  const toml::table& t = *node.as_table();
  r.check_keys(t, prefix + ".", {"group", "parent_link", "tcp_xyz", "tcp_rpy"});
  EndEffectorConfig ee;
  ee.name = name;
  if (auto v = r.string(t, "group", prefix + ".group")) ee.group = *v;
  if (auto v = r.string(t, "parent_link", prefix + ".parent_link"))
    ee.parent_link = *v;
  else
    r.missing(node, prefix + ".parent_link");
  Vector3 xyz = Vector3::Zero(), rpy = Vector3::Zero();
  if (const toml::node* n = t.get("tcp_xyz")) xyz = vec3(r.numbers(*n, prefix + ".tcp_xyz", 3));
  if (const toml::node* n = t.get("tcp_rpy")) rpy = vec3(r.numbers(*n, prefix + ".tcp_rpy", 3));
  ee.tcp = pose_from_xyz_rpy(xyz, rpy);
  return ee;
}

void read_end_effectors(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* effectors = r.table(root, "end_effector", "end_effector");
  if (!effectors) return;
  for (const auto& [key, node] : *effectors)
    config.end_effectors.push_back(read_end_effector(r, std::string(key.str()), node));
  // In document order, as the planning groups.
  std::sort(config.end_effectors.begin(), config.end_effectors.end(),
            [&](const EndEffectorConfig& a, const EndEffectorConfig& b) {
              const auto la = must(effectors->get(a.name)).source().begin;
              const auto lb = must(effectors->get(b.name)).source().begin;
              return la.line != lb.line ? la.line < lb.line : la.column < lb.column;
            });
  // An end effector without a group belongs to the first planning group.
  for (auto& ee : config.end_effectors)
    if (ee.group.empty() && !config.planning_groups.empty())
      ee.group = config.planning_groups.front().name;
}

// [ik.opw]: the seven lengths are required; offsets and sign corrections are not.
OpwParameters read_opw(const Reader& r, const toml::table& opw, const toml::node& opw_node) {
  r.check_keys(opw, "ik.opw.",
               {"a1", "a2", "b", "c1", "c2", "c3", "c4", "offsets", "sign_corrections"});
  OpwParameters p;
  auto need = [&](const char* key) {
    auto v = r.number(opw, key, std::string("ik.opw.") + key);
    if (!v) r.missing(opw_node, std::string("ik.opw.") + key);
    return *v;
  };
  p.a1 = need("a1");
  p.a2 = need("a2");
  p.b = need("b");
  p.c1 = need("c1");
  p.c2 = need("c2");
  p.c3 = need("c3");
  p.c4 = need("c4");
  if (const toml::node* n = opw.get("offsets")) {
    const auto values = r.numbers(*n, "ik.opw.offsets", 6);
    std::copy(values.begin(), values.end(), p.offsets.begin());
  }
  if (const toml::node* n = opw.get("sign_corrections")) {
    const auto values = r.numbers(*n, "ik.opw.sign_corrections", 6);
    for (std::size_t i = 0; i < 6; ++i) {
      if (values[i] != 1.0 && values[i] != -1.0)
        r.value_error(must(must(n).as_array()).at(i),
                      "ik.opw.sign_corrections[" + std::to_string(i) + "]", "must be 1 or -1");
      p.sign_corrections[i] = static_cast<int>(values[i]);
    }
  }
  return p;
}

// [ik.ur]: all six lengths are required.
UrParameters read_ur(const Reader& r, const toml::table& ur, const toml::node& ur_node) {
  r.check_keys(ur, "ik.ur.", {"d1", "a2", "a3", "d4", "d5", "d6"});
  UrParameters p;
  auto need = [&](const char* key) {
    auto v = r.number(ur, key, std::string("ik.ur.") + key);
    if (!v) r.missing(ur_node, std::string("ik.ur.") + key);
    return *v;
  };
  p.d1 = need("d1");
  p.a2 = need("a2");
  p.a3 = need("a3");
  p.d4 = need("d4");
  p.d5 = need("d5");
  p.d6 = need("d6");
  return p;
}

// The scalar keys of [ik]: solver, group, tolerances, time and iteration budgets.
void read_ik_settings(const Reader& r, const toml::table& ik, IkConfig& c) {
  if (auto v = r.string(ik, "solver", "ik.solver")) {
    static const std::vector<std::string> solvers{"auto", "opw", "ur", "numeric", "sweep"};
    if (std::find(solvers.begin(), solvers.end(), *v) == solvers.end())
      r.value_error(must(ik.get("solver")), "ik.solver",
                    "is '" + *v + "'; use one of 'auto', 'opw', 'ur', 'numeric' or 'sweep'");
    c.solver = *v;
  }
  if (auto v = r.string(ik, "group", "ik.group")) c.group = *v;
  if (auto v = r.positive(ik, "position_tolerance", "ik.position_tolerance"))
    c.position_tolerance = *v;
  if (auto v = r.positive(ik, "orientation_tolerance", "ik.orientation_tolerance"))
    c.orientation_tolerance = *v;
  if (auto v = r.positive(ik, "timeout_ms", "ik.timeout_ms")) {
    if (*v > kMaxIkTimeoutMs) {
      std::ostringstream problem;
      problem << "is " << *v << "; use at most " << kMaxIkTimeoutMs << " (one hour)";
      r.value_error(must(ik.get("timeout_ms")), "ik.timeout_ms", problem.str());
    }
    c.timeout_ms = *v;
  }
  if (auto v = r.integer_in(ik, "max_iterations", "ik.max_iterations", 1, kMaxIkIterations))
    c.max_iterations = *v;
  if (auto v = r.string(ik, "redundant_joint", "ik.redundant_joint")) c.redundant_joint = *v;
  if (auto v = r.integer_in(ik, "sweep_samples", "ik.sweep_samples", 1, kMaxSweepSamples))
    c.sweep_samples = *v;
}

void read_ik(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* ik = r.table(root, "ik", "ik");
  if (!ik) return;
  r.check_keys(*ik, "ik.",
               {"solver", "group", "position_tolerance", "orientation_tolerance", "timeout_ms",
                "max_iterations", "redundant_joint", "sweep_samples", "opw", "ur"});
  IkConfig& c = config.ik;
  read_ik_settings(r, *ik, c);
  if (const toml::table* opw = r.table(*ik, "opw", "ik.opw"))
    c.opw = read_opw(r, *opw, must(ik->get("opw")));
  if (const toml::table* ur = r.table(*ik, "ur", "ik.ur"))
    c.ur = read_ur(r, *ur, must(ik->get("ur")));
  // Said at load, not at the first pose goal: OPW has no parameters it could derive.
  if (c.solver == "opw" && !c.opw)
    r.value_error(
        must(ik->get("solver")), "ik.solver",
        "is 'opw', which needs an [ik.opw] table with a1, a2, b, c1, c2, c3, c4 (add it, or use "
        "solver = \"auto\")");
}

void read_named_poses(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* poses = r.table(root, "named_poses", "named_poses");
  if (!poses) return;
  for (const auto& [key, node] : *poses) {
    const std::string name(key.str());
    // NaN / inf are reported by validate_robot_config() naming the joint.
    config.named_poses[name] = r.numbers(node, "named_poses." + name, 0, /*finite=*/false);
  }
}

// limits.KEY.JOINT = a positive finite number.
void read_per_joint_limits(const Reader& r, const toml::table& limits, const char* key,
                           std::map<std::string, double>& out) {
  const std::string prefix = std::string("limits.") + key;
  const toml::table* t = r.table(limits, key, prefix);
  if (!t) return;
  for (const auto& [joint, node] : *t) {
    const std::string full = prefix + "." + std::string(joint.str());
    const double value = r.number(node, full);
    if (!std::isfinite(value) || value <= 0.0)
      r.value_error(node, full, "must be a positive finite number");
    out[std::string(joint.str())] = value;
  }
}

void read_limits(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* limits = r.table(root, "limits", "limits");
  if (!limits) return;
  r.check_keys(*limits, "limits.", {"default_acceleration", "velocity", "acceleration", "jerk"});
  if (auto v = r.non_negative(*limits, "default_acceleration", "limits.default_acceleration"))
    config.default_acceleration = *v;
  read_per_joint_limits(r, *limits, "velocity", config.velocity_limits);
  read_per_joint_limits(r, *limits, "acceleration", config.acceleration_limits);
  read_per_joint_limits(r, *limits, "jerk", config.jerk_limits);
}

void read_collision(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* collision = r.table(root, "collision", "collision");
  if (!collision) return;
  r.check_keys(*collision, "collision.", {"padding", "skip_pairs"});
  if (auto v = r.non_negative(*collision, "padding", "collision.padding"))
    config.collision.padding = *v;
  if (const toml::array* pairs = r.array(*collision, "skip_pairs", "collision.skip_pairs")) {
    for (std::size_t i = 0; i < pairs->size(); ++i) {
      const auto links =
          r.strings((*pairs)[i], "collision.skip_pairs[" + std::to_string(i) + "]", 2);
      config.collision.skip_pairs.emplace_back(links[0], links[1]);
    }
  }
}

void read_validation(const Reader& r, const toml::table& root, RobotConfig& config) {
  const toml::table* validation = r.table(root, "validation", "validation");
  if (!validation) return;
  r.check_keys(*validation, "validation.", {"home_tcp_xyz", "tolerance"});
  if (const toml::node* n = validation->get("home_tcp_xyz"))
    config.validation.home_tcp_position = vec3(r.numbers(*n, "validation.home_tcp_xyz", 3));
  if (auto v = r.positive(*validation, "tolerance", "validation.tolerance"))
    config.validation.tolerance = *v;
}

}  // namespace

RobotConfig parse_robot_config(const std::string& text, const std::string& source,
                               std::vector<std::string>* warnings, RobotConfig base) {
  const toml::table root = parse_toml(text, source);
  const Reader r(source, warnings);
  RobotConfig config = std::move(base);
  r.check_keys(root, "",
               {"format_version", "robot", "planning_group", "end_effector", "ik", "named_poses",
                "limits", "collision", "validation"});
  check_format_version(r, root, source);
  read_robot(r, root, config);
  read_planning_groups(r, root, config);
  read_end_effectors(r, root, config);
  read_ik(r, root, config);
  read_named_poses(r, root, config);
  read_limits(r, root, config);
  read_collision(r, root, config);
  read_validation(r, root, config);
  return config;
}

RobotConfig load_robot_config_file(const std::string& path, std::vector<std::string>* warnings) {
  return parse_robot_config(read_input_file(path, kRobotConfigInput), path, warnings);
}

namespace {

std::vector<std::string> names_of_links(const RobotModel& model) {
  std::vector<std::string> names;
  for (const Link& link : model.links()) names.push_back(link.name);
  return names;
}
std::vector<std::string> names_of_joints(const RobotModel& model) {
  std::vector<std::string> names;
  for (const Joint& joint : model.joints()) names.push_back(joint.name);
  return names;
}

}  // namespace

void validate_robot_config(const RobotConfig& config, const RobotModel& model,
                           const std::string& source) {
  auto need_link = [&](const std::string& name, const std::string& key) {
    if (model.find_link(name) >= 0) return;
    throw Error(ErrorCode::MissingLink,
                source + ": key '" + key + "' names link '" + name + "', which robot '" +
                    model.name() + "' does not have",
                suggestion_hint(name, names_of_links(model)));
  };
  auto need_joint = [&](const std::string& name, const std::string& key) {
    if (model.find_joint(name) >= 0) return;
    throw Error(ErrorCode::MissingJoint,
                source + ": key '" + key + "' names joint '" + name + "', which robot '" +
                    model.name() + "' does not have",
                suggestion_hint(name, names_of_joints(model)));
  };
  // Groups: kinetic.toml's own, and the SRDF's when the model already carries one.
  std::vector<std::string> group_names;
  for (const auto& g : config.planning_groups) group_names.push_back(g.name);
  for (const auto& g : model.semantic().groups) group_names.push_back(g.name);
  auto need_group = [&](const std::string& name, const std::string& key) {
    if (std::find(group_names.begin(), group_names.end(), name) != group_names.end()) return;
    throw Error(
        ErrorCode::InvalidValue,
        source + ": key '" + key + "' names planning group '" + name + "', which is not defined",
        group_names.empty() ? "define it as [planning_group." + name + "]"
                            : suggestion_hint(name, group_names));
  };

  for (const auto& g : config.planning_groups) {
    const std::string prefix = "planning_group." + g.name;
    if (!g.base_link.empty() || !g.tip_link.empty()) {
      need_link(g.base_link, prefix + ".chain");
      need_link(g.tip_link, prefix + ".chain");
      try {
        (void)model.chain_joints(g.base_link, g.tip_link);
      } catch (const Error& e) {
        throw Error(ErrorCode::InvalidModel,
                    source + ": key '" + prefix + ".chain': " + e.message(), e.hint());
      }
    }
    for (const std::string& j : g.joints) {
      need_joint(j, prefix + ".joints");
      const Joint& joint = model.joints()[model.find_joint(j)];
      if (!joint.is_active())
        throw Error(ErrorCode::InvalidValue,
                    source + ": key '" + prefix + ".joints' lists joint '" + j + "', which is " +
                        (joint.mimic ? "a mimic joint" : "fixed") + " and cannot be planned",
                    "list only revolute, continuous or prismatic joints that mimic no other joint");
    }
  }
  for (const auto& ee : config.end_effectors) {
    const std::string prefix = "end_effector." + ee.name;
    if (!ee.group.empty()) need_group(ee.group, prefix + ".group");
    need_link(ee.parent_link, prefix + ".parent_link");
  }
  if (!config.ik.group.empty()) need_group(config.ik.group, "ik.group");
  if (!config.ik.redundant_joint.empty())
    need_joint(config.ik.redundant_joint, "ik.redundant_joint");
  for (const auto& [joint, value] : config.velocity_limits)
    need_joint(joint, "limits.velocity." + joint);
  for (const auto& [joint, value] : config.acceleration_limits)
    need_joint(joint, "limits.acceleration." + joint);
  for (const auto& [joint, value] : config.jerk_limits) need_joint(joint, "limits.jerk." + joint);
  for (std::size_t i = 0; i < config.collision.skip_pairs.size(); ++i) {
    const std::string key = "collision.skip_pairs[" + std::to_string(i) + "]";
    need_link(config.collision.skip_pairs[i].first, key);
    need_link(config.collision.skip_pairs[i].second, key);
  }

  // Named poses: the first planning group's variables, or all variables.
  std::vector<int> variables;
  if (!config.planning_groups.empty()) {
    // model.group_variables() reads model.config(), which may not be this config yet: resolve here.
    const auto& g = config.planning_groups.front();
    if (!g.joints.empty()) {
      for (const auto& j : g.joints)
        variables.push_back(model.joints()[model.find_joint(j)].variable_index);
    } else {
      for (int j : model.chain_joints(g.base_link, g.tip_link))
        if (model.joints()[j].is_active()) variables.push_back(model.joints()[j].variable_index);
    }
  }
  for (const auto& [name, values] : config.named_poses) {
    const std::size_t n = values.size();
    if (n != variables.size() && n != static_cast<std::size_t>(model.dof())) {
      std::string expected = std::to_string(model.dof());
      if (!config.planning_groups.empty() &&
          variables.size() != static_cast<std::size_t>(model.dof()))
        expected = std::to_string(variables.size()) + " (planning group '" +
                   config.planning_groups.front().name + "') or " + expected + " (all joints)";
      throw Error(ErrorCode::DimensionMismatch,
                  source + ": named pose '" + name + "' has " + std::to_string(n) +
                      " values, expected " + expected,
                  "list one value per joint, in the order of the first planning group");
    }
    const bool group_order = n == variables.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isfinite(values[i])) continue;
      const int variable = group_order ? variables[i] : static_cast<int>(i);
      throw Error(ErrorCode::InvalidValue,
                  source + ": named pose '" + name + "' gives joint '" +
                      model.variable_joint(variable).name + "' the value " +
                      (std::isnan(values[i]) ? "NaN" : "infinity"),
                  "use a finite value in radians (metres for prismatic joints)");
    }
  }
}

}  // namespace kinetic
