#include "app/goal/gizmo_drag.hpp"

#include <cmath>

namespace kinetic::app {

namespace {

bool is_translate(viewer::GizmoHandle h) {
  return h == viewer::GizmoHandle::TranslateX || h == viewer::GizmoHandle::TranslateY ||
         h == viewer::GizmoHandle::TranslateZ;
}
bool is_rotate(viewer::GizmoHandle h) {
  return h == viewer::GizmoHandle::RotateX || h == viewer::GizmoHandle::RotateY ||
         h == viewer::GizmoHandle::RotateZ;
}

}  // namespace

bool GizmoDrag::point_on_handle(const viewer::Ray& ray, Vector3& point) const {
  const Vector3 o = ray.origin.cast<double>(), d = ray.direction.cast<double>().normalized();
  if (is_translate(handle_)) {
    // Closest point on the axis line to the ray.
    const Vector3 w = origin_ - o;
    const double b = axis_.dot(d), denom = 1.0 - b * b;
    if (denom < 1e-6) return false;  // looking along the axis
    const double s = (b * d.dot(w) - axis_.dot(w)) / denom;
    point = origin_ + axis_ * s;
    return true;
  }
  // Planes and rings: the plane through the centre normal to the axis.
  const double denom = d.dot(axis_);
  if (std::abs(denom) < 1e-6) return false;
  const double t = (origin_ - o).dot(axis_) / denom;
  if (t <= 0) return false;
  point = o + d * t;
  return true;
}

bool GizmoDrag::begin(const viewer::Gizmo& gizmo, viewer::GizmoHandle handle, const Pose& target,
                      const viewer::Ray& ray) {
  handle_ = handle;
  origin_ = gizmo.pose.translation().cast<double>();
  axis_ = viewer::gizmo_axis(gizmo, handle).cast<double>().normalized();
  start_ = last_ = target;
  if (handle == viewer::GizmoHandle::None || !point_on_handle(ray, start_point_)) {
    handle_ = viewer::GizmoHandle::None;
    return false;
  }
  return true;
}

Pose GizmoDrag::update(const viewer::Ray& ray) {
  Vector3 point;
  if (!active() || !point_on_handle(ray, point)) return last_;
  Pose pose = start_;
  if (is_rotate(handle_)) {
    const Vector3 a = (start_point_ - origin_), b = (point - origin_);
    if (a.norm() < 1e-9 || b.norm() < 1e-9) return last_;
    const double angle = std::atan2(a.cross(b).dot(axis_), a.dot(b));
    pose.linear() = Eigen::AngleAxisd(angle, axis_).toRotationMatrix() * start_.linear();
  } else {
    pose.translation() = start_.translation() + (point - start_point_);
  }
  last_ = pose;
  return pose;
}

}  // namespace kinetic::app
