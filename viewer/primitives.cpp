#include "viewer/mesh_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace kinetic::viewer {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

uint32_t add_vertex(MeshData& mesh, const Vec3& p, const Vec3& n) {
  mesh.vertices.push_back({{p.x(), p.y(), p.z()}, {n.x(), n.y(), n.z()}, {255, 255, 255, 255}});
  return static_cast<uint32_t>(mesh.vertices.size() - 1);
}

void add_triangle(MeshData& mesh, uint32_t a, uint32_t b, uint32_t c) {
  mesh.indices.insert(mesh.indices.end(), {a, b, c});
}

// A surface of revolution around z from a profile of (radius, z, normal_r, normal_z) points.
void add_revolution(MeshData& mesh, const std::vector<std::array<float, 4>>& profile,
                    int segments) {
  const uint32_t base = static_cast<uint32_t>(mesh.vertices.size());
  for (const auto& [r, z, nr, nz] : profile) {
    for (int s = 0; s <= segments; ++s) {
      const float angle = 2.0f * kPi * static_cast<float>(s) / static_cast<float>(segments);
      const float c = std::cos(angle), si = std::sin(angle);
      add_vertex(mesh, {r * c, r * si, z}, Vec3(nr * c, nr * si, nz).normalized());
    }
  }
  const uint32_t row = static_cast<uint32_t>(segments + 1);
  for (uint32_t i = 0; i + 1 < profile.size(); ++i)
    for (uint32_t s = 0; s < static_cast<uint32_t>(segments); ++s) {
      const uint32_t a = base + i * row + s, b = a + 1, c = a + row, d = c + 1;
      add_triangle(mesh, a, b, d);
      add_triangle(mesh, a, d, c);
    }
}

void add_disc(MeshData& mesh, float radius, float z, float normal_z, int segments) {
  const uint32_t center = add_vertex(mesh, {0, 0, z}, {0, 0, normal_z});
  const uint32_t first = static_cast<uint32_t>(mesh.vertices.size());
  for (int s = 0; s <= segments; ++s) {
    const float angle = 2.0f * kPi * static_cast<float>(s) / static_cast<float>(segments);
    add_vertex(mesh, {radius * std::cos(angle), radius * std::sin(angle), z}, {0, 0, normal_z});
  }
  for (uint32_t s = 0; s < static_cast<uint32_t>(segments); ++s) {
    if (normal_z > 0)
      add_triangle(mesh, center, first + s, first + s + 1);
    else
      add_triangle(mesh, center, first + s + 1, first + s);
  }
}

}  // namespace

Vec3 MeshData::bounds_min() const {
  Vec3 m = Vec3::Constant(std::numeric_limits<float>::max());
  for (const auto& v : vertices) m = m.cwiseMin(Vec3(v.position[0], v.position[1], v.position[2]));
  return vertices.empty() ? Vec3::Zero() : m;
}

Vec3 MeshData::bounds_max() const {
  Vec3 m = Vec3::Constant(std::numeric_limits<float>::lowest());
  for (const auto& v : vertices) m = m.cwiseMax(Vec3(v.position[0], v.position[1], v.position[2]));
  return vertices.empty() ? Vec3::Zero() : m;
}

MeshData make_box(const Vec3& size) {
  MeshData mesh;
  const Vec3 h = size * 0.5f;
  for (int axis = 0; axis < 3; ++axis) {
    for (float sign : {1.0f, -1.0f}) {
      Vec3 n = Vec3::Zero();
      n[axis] = sign;
      const Vec3 u = Vec3::Unit((axis + 1) % 3) * sign;
      const Vec3 v = n.cross(u);
      const Vec3 c = n.cwiseProduct(h);
      const Vec3 du = u.cwiseProduct(h), dv = v.cwiseProduct(h);
      const uint32_t a = add_vertex(mesh, c - du - dv, n), b = add_vertex(mesh, c + du - dv, n);
      const uint32_t cc = add_vertex(mesh, c + du + dv, n), d = add_vertex(mesh, c - du + dv, n);
      add_triangle(mesh, a, b, cc);
      add_triangle(mesh, a, cc, d);
    }
  }
  return mesh;
}

MeshData make_sphere(float radius, int segments, int rings) {
  MeshData mesh;
  std::vector<std::array<float, 4>> profile;
  for (int i = 0; i <= rings; ++i) {
    const float phi = kPi * static_cast<float>(i) / static_cast<float>(rings) - kPi / 2;
    profile.push_back(
        {radius * std::cos(phi), radius * std::sin(phi), std::cos(phi), std::sin(phi)});
  }
  add_revolution(mesh, profile, segments);
  return mesh;
}

MeshData make_cylinder(float radius, float length, int segments) {
  MeshData mesh;
  add_revolution(mesh, {{radius, -length / 2, 1, 0}, {radius, length / 2, 1, 0}}, segments);
  add_disc(mesh, radius, length / 2, 1, segments);
  add_disc(mesh, radius, -length / 2, -1, segments);
  return mesh;
}

MeshData make_capsule(float radius, float length, int segments, int rings) {
  MeshData mesh;
  std::vector<std::array<float, 4>> profile;
  for (int i = 0; i <= rings; ++i) {  // bottom hemisphere
    const float phi = -kPi / 2 + kPi / 2 * static_cast<float>(i) / static_cast<float>(rings);
    profile.push_back({radius * std::cos(phi), -length / 2 + radius * std::sin(phi), std::cos(phi),
                       std::sin(phi)});
  }
  for (int i = 0; i <= rings; ++i) {  // top hemisphere
    const float phi = kPi / 2 * static_cast<float>(i) / static_cast<float>(rings);
    profile.push_back({radius * std::cos(phi), length / 2 + radius * std::sin(phi), std::cos(phi),
                       std::sin(phi)});
  }
  add_revolution(mesh, profile, segments);
  return mesh;
}

MeshData make_cone(float radius, float length, int segments) {
  MeshData mesh;
  const float slope = radius / length;
  const float nr = 1.0f / std::sqrt(1 + slope * slope), nz = slope * nr;
  add_revolution(mesh, {{radius, 0, nr, nz}, {0.0f, length, nr, nz}}, segments);
  add_disc(mesh, radius, 0, -1, segments);
  return mesh;
}

MeshData make_torus(float major_radius, float minor_radius, int segments, int sides) {
  MeshData mesh;
  std::vector<std::array<float, 4>> profile;
  for (int i = 0; i <= sides; ++i) {
    const float theta = 2 * kPi * static_cast<float>(i) / static_cast<float>(sides);
    profile.push_back({major_radius + minor_radius * std::cos(theta),
                       minor_radius * std::sin(theta), std::cos(theta), std::sin(theta)});
  }
  add_revolution(mesh, profile, segments);
  return mesh;
}

MeshData make_quad(float width, float height) {
  MeshData mesh;
  const Vec3 n(0, 0, 1);
  const float w = width / 2, h = height / 2;
  const uint32_t a = add_vertex(mesh, {-w, -h, 0}, n), b = add_vertex(mesh, {w, -h, 0}, n);
  const uint32_t c = add_vertex(mesh, {w, h, 0}, n), d = add_vertex(mesh, {-w, h, 0}, n);
  add_triangle(mesh, a, b, c);
  add_triangle(mesh, a, c, d);
  return mesh;
}

}  // namespace kinetic::viewer
