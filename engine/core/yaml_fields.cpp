#include "engine/core/yaml_fields.hpp"

#include <cmath>

#include "engine/core/error.hpp"
#include "engine/core/printable_text.hpp"

namespace kinetic {

YAML::Node YamlFields::parse(const std::string& text) const {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& error) {
    throw Error(ErrorCode::ParseError,
                source_ + ":" + std::to_string(error.mark.line + 1) + ":" +
                    std::to_string(error.mark.column + 1) + ": malformed YAML: " + error.msg,
                "fix the YAML syntax at the position given");
  }
}

std::string YamlFields::where(const YAML::Node& node) const {
  if (node.IsDefined() && !node.Mark().is_null())
    return source_ + ":" + std::to_string(node.Mark().line + 1);
  return source_;
}

void YamlFields::fail(const YAML::Node& at, const std::string& field,
                      const std::string& problem) const {
  throw Error(ErrorCode::InvalidValue, where(at) + ": " + field + ": " + printable(problem));
}

YAML::Node YamlFields::member(const YAML::Node& map, const std::string& key,
                              const std::string& field) const {
  if (!map.IsDefined() || map.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
  if (!map.IsMap()) fail(map, field, "expected a map with \"" + key + "\"");
  for (const auto& entry : map)
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node YamlFields::required(const YAML::Node& map, const std::string& key,
                                const std::string& field) const {
  YAML::Node node = member(map, key, field);
  if (!node.IsDefined()) fail(map, field, "missing \"" + key + "\"");
  return node;
}

std::vector<YAML::Node> YamlFields::sequence(const YAML::Node& node,
                                             const std::string& field) const {
  std::vector<YAML::Node> items;
  if (!node.IsDefined() || node.IsNull()) return items;
  if (!node.IsSequence()) fail(node, field, "expected a list");
  for (const auto& item : node) items.push_back(item);
  return items;
}

double YamlFields::number(const YAML::Node& node, const std::string& field) const {
  if (!node.IsDefined() || !node.IsScalar()) fail(node, field, "expected a number");
  double value = 0.0;
  try {
    value = node.as<double>();
  } catch (const YAML::Exception&) {
    fail(node, field, "expected a number, got \"" + node.Scalar() + "\"");
  }
  if (!std::isfinite(value))
    fail(node, field, "expected a finite number, got \"" + node.Scalar() + "\"");
  return value;
}

std::string YamlFields::text(const YAML::Node& node, const std::string& field) const {
  if (!node.IsDefined() || !node.IsScalar()) fail(node, field, "expected a text");
  return node.Scalar();
}

std::vector<double> YamlFields::numbers(const YAML::Node& node, const std::string& field) const {
  std::vector<double> values;
  const std::vector<YAML::Node> items = sequence(node, field);
  for (std::size_t i = 0; i < items.size(); ++i)
    values.push_back(number(items[i], field + "[" + std::to_string(i) + "]"));
  return values;
}

std::vector<std::string> YamlFields::texts(const YAML::Node& node, const std::string& field) const {
  std::vector<std::string> values;
  const std::vector<YAML::Node> items = sequence(node, field);
  for (std::size_t i = 0; i < items.size(); ++i)
    values.push_back(text(items[i], field + "[" + std::to_string(i) + "]"));
  return values;
}

Vector3 YamlFields::vector3(const YAML::Node& node, const std::string& field) const {
  if (node.IsMap())
    return {number(required(node, "x", field), field + ".x"),
            number(required(node, "y", field), field + ".y"),
            number(required(node, "z", field), field + ".z")};
  const std::vector<double> v = numbers(node, field);
  if (v.size() != 3)
    fail(node, field, "expected 3 numbers (x y z), got " + std::to_string(v.size()));
  return {v[0], v[1], v[2]};
}

Pose YamlFields::pose(const YAML::Node& node, const std::string& field) const {
  Pose pose = Pose::Identity();
  if (!node.IsDefined() || node.IsNull()) return pose;
  if (!node.IsMap()) fail(node, field, "expected a pose {position, orientation}");
  const YAML::Node position = member(node, "position", field);
  if (position.IsDefined()) pose.translation() = vector3(position, field + ".position");
  const YAML::Node orientation = member(node, "orientation", field);
  if (orientation.IsDefined()) {
    const std::string where_q = field + ".orientation";
    double x = 0, y = 0, z = 0, w = 1;
    if (orientation.IsMap()) {
      x = number(required(orientation, "x", where_q), where_q + ".x");
      y = number(required(orientation, "y", where_q), where_q + ".y");
      z = number(required(orientation, "z", where_q), where_q + ".z");
      w = number(required(orientation, "w", where_q), where_q + ".w");
    } else {
      const std::vector<double> q = numbers(orientation, where_q);
      if (q.size() != 4)
        fail(orientation, where_q, "expected 4 numbers (x y z w), got " + std::to_string(q.size()));
      x = q[0], y = q[1], z = q[2], w = q[3];
    }
    Quaternion q(w, x, y, z);
    if (q.norm() < 1e-9)
      fail(orientation, where_q, "the quaternion is zero (the identity is [0, 0, 0, 1])");
    pose.linear() = q.normalized().toRotationMatrix();
  }
  return pose;
}

}  // namespace kinetic
