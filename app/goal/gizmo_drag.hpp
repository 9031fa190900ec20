#pragma once
// GizmoDrag: turns mouse rays into a new pose while a gizmo handle is held. Translate arrows move
// along their axis (closest point of the ray to the axis line), plane handles move in their plane,
// rings rotate about their axis through the gizmo centre. Everything is relative to where the
// drag started, so the handle stays under the cursor and nothing accumulates drift.
#include "engine/core/types.hpp"
#include "viewer/gizmo.hpp"

namespace kinetic::app {

class GizmoDrag {
 public:
  // gizmo: as drawn (its rotation gives the axes: world or local frame); target: the pose being
  // moved (its own rotation is kept apart from the gizmo's frame). Returns false when the ray
  // does not define a start point (a ray parallel to the handle's plane).
  bool begin(const viewer::Gizmo& gizmo, viewer::GizmoHandle handle, const Pose& target,
             const viewer::Ray& ray);
  // The target's pose for the current ray (the last good one when this ray is degenerate).
  Pose update(const viewer::Ray& ray);
  bool active() const { return handle_ != viewer::GizmoHandle::None; }
  viewer::GizmoHandle handle() const { return handle_; }
  void end() { handle_ = viewer::GizmoHandle::None; }

 private:
  bool point_on_handle(const viewer::Ray& ray, Vector3& point) const;

  viewer::GizmoHandle handle_ = viewer::GizmoHandle::None;
  Vector3 origin_ = Vector3::Zero();
  Vector3 axis_ = Vector3::UnitX();
  Pose start_ = Pose::Identity();
  Vector3 start_point_ = Vector3::Zero();
  Pose last_ = Pose::Identity();
};

}  // namespace kinetic::app
