#include "viewer/gizmo.hpp"

#include <cmath>
#include <limits>

namespace kinetic::viewer {

namespace {

constexpr float kShaftLength = 0.78f, kShaftRadius = 0.018f, kTipLength = 0.22f,
                kTipRadius = 0.065f;
constexpr float kRingRadius = 0.72f, kRingThickness = 0.014f;
constexpr float kPlaneOffset = 0.22f, kPlaneSize = 0.16f;

const Color kAxisColors[3] = {colors::kAxisX, colors::kAxisY, colors::kAxisZ};
constexpr Color kHover{1.0f, 0.85f, 0.15f, 1.0f};

bool has_translate(GizmoMode m) {
  return m != GizmoMode::Rotate;
}
bool has_ring(const Gizmo& g, int axis) {
  return g.mode != GizmoMode::Translate && g.rings[static_cast<size_t>(axis)];
}

// Rotation taking +z onto axis i of the gizmo frame.
Mat3 z_to_axis(int axis) {
  if (axis == 0)
    return Eigen::AngleAxisf(static_cast<float>(M_PI / 2), Vec3::UnitY()).toRotationMatrix();
  if (axis == 1)
    return Eigen::AngleAxisf(static_cast<float>(-M_PI / 2), Vec3::UnitX()).toRotationMatrix();
  return Mat3::Identity();
}

float ray_segment_distance(const Ray& ray, const Vec3& a, const Vec3& b, float& ray_t) {
  const Vec3 d = b - a, w = ray.origin - a;
  const float dd = d.dot(d), rd = ray.direction.dot(d);
  const float denom = dd - rd * rd;
  float s = denom > 1e-9f ? (d.dot(w) - rd * ray.direction.dot(w)) / denom : 0.0f;
  s = std::clamp(s, 0.0f, 1.0f);
  const Vec3 p = a + d * s;
  ray_t = std::max(0.0f, (p - ray.origin).dot(ray.direction));
  return (ray.origin + ray.direction * ray_t - p).norm();
}

}  // namespace

float gizmo_scale(const Gizmo& gizmo, const Camera& camera, float viewport_height) {
  return gizmo.size_px * camera.world_per_pixel(gizmo.pose.translation(), viewport_height);
}

Vec3 gizmo_axis(const Gizmo& gizmo, GizmoHandle handle) {
  const auto h = static_cast<uint32_t>(handle);
  if (handle == GizmoHandle::None) return Vec3::Zero();
  return gizmo.pose.linear().col(static_cast<int>((h - 1) % 3));
}

void add_gizmo(RenderScene& scene, MeshLibrary& meshes, const Gizmo& gizmo, const Camera& camera,
               float viewport_height) {
  const float s = gizmo_scale(gizmo, camera, viewport_height);
  const MeshId shaft = meshes.add("gizmo:shaft", [] {
    MeshData m = make_cylinder(kShaftRadius, kShaftLength, 16);
    for (auto& v : m.vertices) v.position[2] += kShaftLength / 2;
    return m;
  }());
  const MeshId tip = meshes.add("gizmo:tip", [] {
    MeshData m = make_cone(kTipRadius, kTipLength, 24);
    for (auto& v : m.vertices) v.position[2] += kShaftLength;
    return m;
  }());
  const MeshId ring = meshes.add("gizmo:ring", make_torus(kRingRadius, kRingThickness, 96, 8));
  const MeshId plane = meshes.add("gizmo:plane", make_box(Vec3(kPlaneSize, kPlaneSize, 0.01f)));
  const MeshId center = meshes.add("gizmo:center", make_sphere(0.05f, 20, 10));

  Eigen::Affine3f base = Eigen::Affine3f::Identity();
  base.translate(gizmo.pose.translation());
  base.rotate(gizmo.pose.linear());
  base.scale(s);
  const auto add = [&](MeshId mesh, const Eigen::Affine3f& local, Color color, GizmoHandle handle) {
    Instance in;
    in.mesh = mesh;
    in.transform = base * local;
    in.color = gizmo.hovered == handle && handle != GizmoHandle::None ? kHover : color;
    in.flags = kOverlay;
    in.pick_id = handle == GizmoHandle::None ? 0 : kGizmoPickBase + static_cast<uint32_t>(handle);
    scene.instances.push_back(in);
  };
  add(center, Eigen::Affine3f::Identity(), Color{0.92f, 0.92f, 0.92f, 1}, GizmoHandle::None);
  for (int axis = 0; axis < 3; ++axis) {
    Eigen::Affine3f along = Eigen::Affine3f::Identity();
    along.linear() = z_to_axis(axis);
    if (has_translate(gizmo.mode)) {
      const auto handle = static_cast<GizmoHandle>(1 + axis);
      add(shaft, along, kAxisColors[axis], handle);
      add(tip, along, kAxisColors[axis], handle);
      // Plane handle normal to `axis`, in the corner between the other two axes.
      Eigen::Affine3f square = Eigen::Affine3f::Identity();
      square.linear() = z_to_axis(axis);
      const Vec3 corner = (Vec3::Ones() - Vec3::Unit(axis)) * (kPlaneOffset + kPlaneSize / 2);
      square.pretranslate(corner);
      Color c = kAxisColors[axis];
      c = {0.35f + 0.5f * c.r, 0.35f + 0.5f * c.g, 0.35f + 0.5f * c.b, 1};
      add(plane, square, c, static_cast<GizmoHandle>(4 + axis));
    }
    if (has_ring(gizmo, axis))
      add(ring, along, kAxisColors[axis], static_cast<GizmoHandle>(7 + axis));
  }
}

GizmoHandle pick_gizmo(const Gizmo& gizmo, const Camera& camera, const Ray& ray,
                       float viewport_height, float tolerance_px) {
  const float s = gizmo_scale(gizmo, camera, viewport_height);
  const float tolerance =
      tolerance_px * camera.world_per_pixel(gizmo.pose.translation(), viewport_height);
  const Vec3 origin = gizmo.pose.translation();
  GizmoHandle best = GizmoHandle::None;
  float best_t = std::numeric_limits<float>::max();
  const auto consider = [&](GizmoHandle handle, float t) {
    if (t < best_t) best_t = t, best = handle;
  };
  for (int axis = 0; axis < 3; ++axis) {
    const Vec3 a = gizmo.pose.linear().col(axis);
    if (has_translate(gizmo.mode)) {
      float t = 0;
      if (ray_segment_distance(ray, origin, origin + a * s * (kShaftLength + kTipLength), t) <
          std::max(tolerance, kTipRadius * s))
        consider(static_cast<GizmoHandle>(1 + axis), t);
    }
    // Planes (normal a) and rings (about a) both intersect the plane through the origin normal to
    // a.
    const float denom = ray.direction.dot(a);
    if (std::abs(denom) < 1e-6f) continue;
    const float t = (origin - ray.origin).dot(a) / denom;
    if (t <= 0) continue;
    const Vec3 local = gizmo.pose.linear().transpose() * (ray.origin + ray.direction * t - origin);
    if (has_translate(gizmo.mode)) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const float lo = kPlaneOffset * s, hi = (kPlaneOffset + kPlaneSize) * s;
      if (local[u] >= lo && local[u] <= hi && local[v] >= lo && local[v] <= hi)
        consider(static_cast<GizmoHandle>(4 + axis), t);
    }
    if (has_ring(gizmo, axis) && std::abs(local.norm() - kRingRadius * s) < tolerance)
      consider(static_cast<GizmoHandle>(7 + axis), t);
  }
  return best;
}

}  // namespace kinetic::viewer
