#pragma once
// Shape: one piece of collision geometry (box, cylinder, sphere, mesh, half-space) in its own
// frame. Plain data shared by robot links, attached objects and scene obstacles.
#include <string>

#include "engine/core/types.hpp"
#include "engine/model/geometry.hpp"

namespace kinetic {

struct Shape {
  enum class Type { Box, Cylinder, Sphere, Mesh, HalfSpace };
  Type type = Type::Box;
  Vector3 box_size = Vector3::Zero();  // Box: full extents (m)
  double radius = 0.0;                 // Cylinder, Sphere (m)
  double length = 0.0;                 // Cylinder: along local z (m)
  std::string mesh_path;               // Mesh: absolute path of an STL / DAE / OBJ file
  Vector3 mesh_scale = Vector3::Ones();
  Vector3 normal = Vector3::UnitZ();  // HalfSpace: solid where normal . x <= offset
  double offset = 0.0;

  static Shape box(const Vector3& size);
  static Shape cylinder(double radius, double length);
  static Shape sphere(double radius);
  static Shape mesh(const std::string& path, const Vector3& scale = Vector3::Ones());
  static Shape half_space(const Vector3& normal, double offset);

  // Throws Error(InvalidValue) for negative / non-finite sizes or a zero normal.
  void validate() const;
};

const char* to_string(Shape::Type type);
// Parses "box", "cylinder", "sphere", "mesh", "half_space"; throws Error(InvalidValue).
Shape::Type shape_type_from_string(const std::string& name);

// The robot file's geometry as a collision shape. Throws Error(MissingMesh) naming the URI when a
// mesh did not resolve to a file.
Shape shape_from_geometry(const Geometry& geometry);

// Unsigned distance from a point (in the shape frame) to the solid primitive: 0 inside. Not for
// meshes (throws Error(Unsupported)).
double distance_to_primitive(const Shape& shape, const Vector3& point);

}  // namespace kinetic
