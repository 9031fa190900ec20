#include "viewer/picking.hpp"

#include <cmath>
#include <limits>

namespace kinetic::viewer {

namespace {

// Möller–Trumbore; returns the ray parameter or a negative value.
float ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e1 = b - a, e2 = c - a, p = d.cross(e2);
  const float det = e1.dot(p);
  if (std::abs(det) < 1e-12f) return -1;
  const float inv = 1 / det;
  const Vec3 s = o - a;
  const float u = s.dot(p) * inv;
  if (u < 0 || u > 1) return -1;
  const Vec3 q = s.cross(e1);
  const float v = d.dot(q) * inv;
  if (v < 0 || u + v > 1) return -1;
  return e2.dot(q) * inv;
}

bool ray_hits_box(const Vec3& o, const Vec3& d, const Vec3& lo, const Vec3& hi) {
  float t0 = 0, t1 = std::numeric_limits<float>::max();
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-12f) {
      if (o[i] < lo[i] || o[i] > hi[i]) return false;
      continue;
    }
    float a = (lo[i] - o[i]) / d[i], b = (hi[i] - o[i]) / d[i];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

std::optional<PickHit> pick(const RenderScene& scene, const MeshLibrary& meshes, const Ray& ray) {
  std::optional<PickHit> best;
  for (size_t i = 0; i < scene.instances.size(); ++i) {
    const Instance& in = scene.instances[i];
    if (in.pick_id == 0 || (in.flags & kOverlay) || !meshes.contains(in.mesh)) continue;
    const GpuMesh& mesh = meshes.get(in.mesh);
    // Test in the mesh's own frame (handles scaled instances); the direction is left unnormalised
    // so ray parameters stay world distances.
    const Eigen::Affine3f inverse = in.transform.inverse();
    const Vec3 o = inverse * ray.origin;
    const Vec3 d = inverse.linear() * ray.direction;
    if (!ray_hits_box(o, d, mesh.bounds_min, mesh.bounds_max)) continue;
    for (size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
      const float hit = ray_triangle(o, d, mesh.positions[mesh.triangles[t]],
                                     mesh.positions[mesh.triangles[t + 1]],
                                     mesh.positions[mesh.triangles[t + 2]]);
      if (hit > 0 && (!best || hit < best->distance))
        best = PickHit{in.pick_id, i, hit, ray.origin + ray.direction * hit};
    }
  }
  return best;
}

}  // namespace kinetic::viewer
