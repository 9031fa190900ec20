#pragma once
// The 6-DOF manipulation gizmo: translate arrows, rotate rings and plane handles, drawn on top of
// the scene at a constant size on screen. add_gizmo() appends its instances to a RenderScene;
// pick_gizmo() returns the handle under a ray (tolerant by a few pixels, thin shapes are hard to
// hit).
#include <array>
#include <optional>

#include "viewer/camera.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::viewer {

enum class GizmoMode { Translate, Rotate, Both };

enum class GizmoHandle : uint32_t {
  None = 0,
  TranslateX,
  TranslateY,
  TranslateZ,
  PlaneYZ,
  PlaneZX,
  PlaneXY,  // move in the plane normal to x, y, z
  RotateX,
  RotateY,
  RotateZ,
};

// Pick ids of gizmo instances: kGizmoPickBase + handle.
constexpr uint32_t kGizmoPickBase = 0xFFFF0000u;

struct Gizmo {
  Transform pose = Transform::Identity();  // where it sits; axes follow its rotation
  GizmoMode mode = GizmoMode::Both;
  float size_px = 110.0f;                   // arrow length on screen
  GizmoHandle hovered = GizmoHandle::None;  // drawn highlighted
  // Rotate rings shown and picked, about x, y, z (a target that only turns about z hides the
  // others).
  std::array<bool, 3> rings{true, true, true};
};

// World length of the gizmo's unit at its position (constant screen size).
float gizmo_scale(const Gizmo& gizmo, const Camera& camera, float viewport_height);
void add_gizmo(RenderScene& scene, MeshLibrary& meshes, const Gizmo& gizmo, const Camera& camera,
               float viewport_height);
GizmoHandle pick_gizmo(const Gizmo& gizmo, const Camera& camera, const Ray& ray,
                       float viewport_height, float tolerance_px = 6.0f);
// The unit axis a handle moves along / rotates about, in world space (zero for None).
Vec3 gizmo_axis(const Gizmo& gizmo, GizmoHandle handle);

}  // namespace kinetic::viewer
