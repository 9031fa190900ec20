#pragma once
// Visual and collision geometry as described by a robot file (URDF) — no meshes loaded here.
#include <optional>
#include <string>

#include "engine/core/types.hpp"

namespace kinetic {

struct Geometry {
  enum class Type { Box, Cylinder, Sphere, Mesh };
  Type type = Type::Box;
  Vector3 box_size = Vector3::Zero();  // Box: full extents along x, y, z (m)
  double radius = 0.0;                 // Cylinder, Sphere (m)
  double length = 0.0;                 // Cylinder: along its local z (m)
  std::string mesh_uri;                // Mesh: as written in the file
  std::string mesh_path;               // Mesh: resolved absolute path ("" when unresolved)
  Vector3 mesh_scale = Vector3::Ones();
};

struct Material {
  std::string name;
  Eigen::Vector4d rgba{0.7, 0.7, 0.7, 1.0};
  std::string texture_path;  // resolved, "" when none
};

struct VisualShape {
  std::string name;
  Pose origin = Pose::Identity();  // relative to the link frame
  Geometry geometry;
  std::optional<Material> material;
};

struct CollisionShape {
  std::string name;
  Pose origin = Pose::Identity();  // relative to the link frame
  Geometry geometry;
};

}  // namespace kinetic
