#include "engine/geometry/shape.hpp"

#include <cmath>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/geometry/primitive_distance.hpp"
#include "engine/model/package_resolver.hpp"

namespace kinetic {
namespace {

// Far beyond any robot cell; larger sizes (1e300 from a typo'd exponent) overflow the squared
// distances of the checks, whose NaNs would read as "no contact".
constexpr double kMaxShapeSize = 1000.0;  // m

void require_size(double value, const char* what) {
  if (!std::isfinite(value) || value < 0.0 || value > kMaxShapeSize) {
    std::ostringstream text;
    text << "collision shape: " << what << " must be finite and in [0, " << kMaxShapeSize
         << "] m, got " << value;
    throw Error(ErrorCode::InvalidValue, text.str());
  }
}

}  // namespace

Shape Shape::box(const Vector3& size) {
  Shape s;
  s.type = Type::Box;
  s.box_size = size;
  s.validate();
  return s;
}

Shape Shape::cylinder(double radius, double length) {
  Shape s;
  s.type = Type::Cylinder;
  s.radius = radius;
  s.length = length;
  s.validate();
  return s;
}

Shape Shape::sphere(double radius) {
  Shape s;
  s.type = Type::Sphere;
  s.radius = radius;
  s.validate();
  return s;
}

Shape Shape::mesh(const std::string& path, const Vector3& scale) {
  Shape s;
  s.type = Type::Mesh;
  s.mesh_path = path;
  s.mesh_scale = scale;
  s.validate();
  return s;
}

Shape Shape::half_space(const Vector3& normal, double offset) {
  Shape s;
  s.type = Type::HalfSpace;
  s.normal = normal;
  s.offset = offset;
  s.validate();
  if (s.normal.norm() > 0.0) {
    s.offset /= s.normal.norm();
    s.normal.normalize();
  }
  return s;
}

void Shape::validate() const {
  switch (type) {
    case Type::Box:
      for (int i = 0; i < 3; ++i) require_size(box_size[i], "box size");
      break;
    case Type::Cylinder:
      require_size(radius, "cylinder radius");
      require_size(length, "cylinder length");
      break;
    case Type::Sphere:
      require_size(radius, "sphere radius");
      break;
    case Type::Mesh:
      if (mesh_path.empty())
        throw Error(ErrorCode::MissingMesh, "collision shape: mesh without a file path");
      for (int i = 0; i < 3; ++i)
        if (!std::isfinite(mesh_scale[i]) || mesh_scale[i] == 0.0 ||
            std::abs(mesh_scale[i]) > kMaxShapeSize)
          throw Error(ErrorCode::InvalidValue,
                      "collision shape: mesh scale must be non-zero and at most 1000 in size for " +
                          mesh_path);
      break;
    case Type::HalfSpace:
      if (!normal.allFinite() || normal.norm() < 1e-12 || !std::isfinite(offset))
        throw Error(ErrorCode::InvalidValue,
                    "collision shape: half-space needs a finite non-zero normal and offset");
      break;
  }
}

const char* to_string(Shape::Type type) {
  switch (type) {
    case Shape::Type::Box:
      return "box";
    case Shape::Type::Cylinder:
      return "cylinder";
    case Shape::Type::Sphere:
      return "sphere";
    case Shape::Type::Mesh:
      return "mesh";
    case Shape::Type::HalfSpace:
      return "half_space";
  }
  return "unknown";
}

Shape::Type shape_type_from_string(const std::string& name) {
  for (auto type : {Shape::Type::Box, Shape::Type::Cylinder, Shape::Type::Sphere, Shape::Type::Mesh,
                    Shape::Type::HalfSpace})
    if (name == to_string(type)) return type;
  throw Error(ErrorCode::InvalidValue, "unknown shape type '" + name + "'",
              "use one of: box, cylinder, sphere, mesh, half_space");
}

Shape shape_from_geometry(const Geometry& geometry) {
  switch (geometry.type) {
    case Geometry::Type::Box:
      return Shape::box(geometry.box_size);
    case Geometry::Type::Cylinder:
      return Shape::cylinder(geometry.radius, geometry.length);
    case Geometry::Type::Sphere:
      return Shape::sphere(geometry.radius);
    case Geometry::Type::Mesh:
      if (geometry.mesh_path.empty())
        throw Error(ErrorCode::MissingMesh,
                    "collision mesh '" + geometry.mesh_uri + "' did not resolve to a file",
                    unresolved_mesh_hint(geometry.mesh_uri));
      return Shape::mesh(geometry.mesh_path, geometry.mesh_scale);
  }
  throw Error(ErrorCode::Unsupported, "unknown geometry type");
}

double distance_to_primitive(const Shape& shape, const Vector3& p) {
  if (shape.type == Shape::Type::Mesh)
    throw Error(ErrorCode::Unsupported, "distance_to_primitive: not defined for meshes");
  return solid_point_distance(shape, p);
}

}  // namespace kinetic
