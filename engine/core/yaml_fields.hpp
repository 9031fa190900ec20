#pragma once
// Reading MoveIt's YAML messages (planning scenes, motion plan requests) with errors that name the
// file, the line and the field: "scene0001.yaml:42: world.collision_objects[3].primitives[0]
// .dimensions: expected 3 numbers (x y z) for a box, got 2". yaml-cpp does the parsing.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

class YamlFields {
 public:
  explicit YamlFields(std::string source) : source_(std::move(source)) {}

  // The document; Error(ParseError) with the line and column of malformed YAML.
  YAML::Node parse(const std::string& text) const;

  // Error(InvalidValue) "source:LINE: field: problem" (the node's line when it has one).
  [[noreturn]] void fail(const YAML::Node& at, const std::string& field,
                         const std::string& problem) const;

  // A map's member, or an undefined node when absent (the map must be a map or absent).
  YAML::Node member(const YAML::Node& map, const std::string& key, const std::string& field) const;
  // As member(), failing "missing" when absent.
  YAML::Node required(const YAML::Node& map, const std::string& key,
                      const std::string& field) const;
  // A sequence (absent: empty).
  std::vector<YAML::Node> sequence(const YAML::Node& node, const std::string& field) const;

  double number(const YAML::Node& node, const std::string& field) const;  // finite
  std::string text(const YAML::Node& node, const std::string& field) const;
  std::vector<double> numbers(const YAML::Node& node, const std::string& field) const;
  std::vector<std::string> texts(const YAML::Node& node, const std::string& field) const;

  // geometry_msgs/Pose: position [x y z] (or {x, y, z}), orientation [x y z w] (or {x, y, z, w}),
  // normalised; an absent pose is the identity. A zero quaternion is an error.
  Pose pose(const YAML::Node& node, const std::string& field) const;

  const std::string& source() const { return source_; }

 private:
  Vector3 vector3(const YAML::Node& node, const std::string& field) const;
  std::string where(const YAML::Node& node) const;
  std::string source_;
};

}  // namespace kinetic
