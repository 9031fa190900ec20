#include "engine/model/xacro/xacro_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_files.hpp"
#include "engine/model/xacro/xacro_limits.hpp"

namespace kinetic::xacro {

namespace {

constexpr int kMaxYamlDepth = 100;

bool all_digits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool ok = base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                               : (c >= '0' && c < '0' + base);
    if (!ok) return false;
  }
  return true;
}

Value convert(const YAML::Node& node, const std::string& path, int depth) {
  if (depth > kMaxYamlDepth)
    throw Error(ErrorCode::ParseError, path + ":" + std::to_string(node.Mark().line + 1) +
                                           ": YAML nests deeper than " +
                                           std::to_string(kMaxYamlDepth) + " levels");
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return Value{};
    case YAML::NodeType::Sequence: {
      Value out = Value::list();
      for (const YAML::Node& item : node) out.items.push_back(convert(item, path, depth + 1));
      return out.settle();
    }
    case YAML::NodeType::Map: {
      Value out = Value::dict();
      for (const auto& entry : node)
        out.set(convert(entry.first, path, depth + 1), convert(entry.second, path, depth + 1));
      return out;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string& text = node.Scalar();
  const std::string& tag = node.Tag();
  if (tag == "!radians" || tag == "!degrees") {
    // xacro's constructors: the scalar is an expression (pi/2, 90) in radians or in degrees.
    Value v;
    try {
      v = evaluate(text, [](const std::string&) { return std::nullopt; });
    } catch (const Error& e) {
      throw Error(ErrorCode::ParseError, path + ":" + std::to_string(node.Mark().line + 1) + ": " +
                                             tag + " " + e.message());
    }
    const double angle = v.as_double();
    return Value::of_float(tag == "!degrees" ? angle * std::numbers::pi / 180.0 : angle);
  }
  if (tag == "!" || tag == "tag:yaml.org,2002:str")
    return Value::of_string(text);  // quoted: a string
  return value_of_yaml_scalar(text);
}

}  // namespace

Value value_of_yaml_scalar(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
    return Value{};
  for (const char* t : {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})
    if (text == t) return Value::of_bool(true);
  for (const char* f : {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})
    if (text == f) return Value::of_bool(false);
  std::string s;
  for (const char c : text)
    if (c != '_') s += c;
  const bool negative = !s.empty() && s[0] == '-';
  std::string_view body(s);
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
  int base = 10;
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'b')) {
    base = body[1] == 'x' ? 16 : 2;
    body.remove_prefix(2);
  } else if (body.size() > 1 && body[0] == '0' && all_digits(body, 8)) {
    base = 8;  // YAML 1.1: 0777 is octal
  }
  if (all_digits(body, base)) {
    std::uint64_t magnitude = 0;
    const auto r = std::from_chars(body.data(), body.data() + body.size(), magnitude, base);
    if (r.ec == std::errc() &&
        magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return Value::of_int(negative ? -static_cast<std::int64_t>(magnitude)
                                    : static_cast<std::int64_t>(magnitude));
    return Value::of_string(text);  // beyond 64 bits: kept as its text
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return Value::of_float(negative ? -HUGE_VAL : HUGE_VAL);
  if (s == ".nan" || s == ".NaN" || s == ".NAN")
    return Value::of_float(std::numeric_limits<double>::quiet_NaN());
  // PyYAML's floats have a '.' (1.5, .5, 1.0e+3); "1e3" stays a string.
  if (body.find('.') != std::string_view::npos) {
    double d = 0.0;
    const auto r = std::from_chars(body.data(), body.data() + body.size(), d);
    if (r.ec == std::errc() && r.ptr == body.data() + body.size())
      return Value::of_float(negative ? -d : d);
  }
  return Value::of_string(text);
}

Value load_yaml_file(const std::string& path) {
  const std::string text = read_input_file(path, "the YAML file");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(
        ErrorCode::ParseError,
        path + ":" + std::to_string(e.mark.line + 1) + ": the YAML does not parse: " + e.msg,
        "fix the YAML at that line");
  }
  return convert(root, path, 0);
}

}  // namespace kinetic::xacro
