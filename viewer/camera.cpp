#include "viewer/camera.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace kinetic::viewer {

namespace {
constexpr float kMaxPitch = 1.5607f;  // just short of straight up/down, so `up` stays defined
}

Vec3 Camera::forward() const {
  return -Vec3(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch));
}

Vec3 Camera::eye() const {
  return target - forward() * distance;
}

Vec3 Camera::right() const {
  return forward().cross(Vec3::UnitZ()).normalized();
}

Vec3 Camera::up() const {
  return right().cross(forward()).normalized();
}

void Camera::orbit(float delta_yaw, float delta_pitch) {
  yaw = std::remainder(yaw + delta_yaw, 2.0f * std::numbers::pi_v<float>);
  pitch = std::clamp(pitch + delta_pitch, -kMaxPitch, kMaxPitch);
}

void Camera::pan(float dx_pixels, float dy_pixels, float viewport_height) {
  const float per_pixel = world_per_pixel(target, viewport_height);
  target += (-right() * dx_pixels + up() * dy_pixels) * per_pixel;
}

void Camera::zoom(float factor) {
  distance = std::clamp(distance * factor, 0.02f, 500.0f);
}

void Camera::fit(const Vec3& min, const Vec3& max, float aspect) {
  target = (min + max) * 0.5f;
  const float radius = std::max(0.5f * (max - min).norm(), 0.05f);
  const float half_fov = 0.5f * std::min(fov_y, 2.0f * std::atan(std::tan(fov_y / 2) * aspect));
  distance = radius / std::sin(half_fov) * 1.05f;
}

void Camera::fit_tight(const std::vector<BoundingSphere>& spheres, float aspect, float margin) {
  if (spheres.empty()) return;
  const Vec3 r = right(), u = up(), f = forward();
  const float half_y = fov_y / 2, half_x = std::atan(std::tan(half_y) * aspect);
  const float tan_x = std::tan(half_x), tan_y = std::tan(half_y), scale = 1.0f + margin;
  // A sphere is inside a side plane of the frustum when its centre lies its radius within it: in
  // perspective |x| + radius / cos(half fov) <= (distance + z) tan(half fov) (z: depth beyond the
  // target); orthographic |x| + radius <= distance tan(half fov).
  const float widen_x = orthographic ? 1.0f : 1.0f / std::cos(half_x),
              widen_y = orthographic ? 1.0f : 1.0f / std::cos(half_y);
  const auto needed_distance = [&] {
    float needed = 0.05f;
    for (const BoundingSphere& s : spheres) {
      const Vec3 rel = s.centre - target;
      const float depth = orthographic ? 0.0f : f.dot(rel);
      needed =
          std::max({needed, scale * (std::abs(r.dot(rel)) + s.radius * widen_x) / tan_x - depth,
                    scale * (std::abs(u.dot(rel)) + s.radius * widen_y) / tan_y - depth});
    }
    return needed;
  };
  // Centre the picture, then move back until everything fits; a few rounds, as perspective moves
  // the picture's centre with the distance.
  Vec3 lo = spheres.front().centre, hi = lo;
  for (const BoundingSphere& s : spheres) lo = lo.cwiseMin(s.centre), hi = hi.cwiseMax(s.centre);
  target = (lo + hi) / 2;
  for (int round = 0; round < 3; ++round) {
    distance = needed_distance();
    float lo_x = std::numeric_limits<float>::max(), hi_x = -lo_x, lo_y = lo_x, hi_y = -lo_x;
    for (const BoundingSphere& s : spheres) {
      const Vec3 rel = s.centre - target;
      const float at = orthographic ? 1.0f
                                    : distance / std::max(distance + f.dot(rel),
                                                          1e-3f);  // onto the target's plane
      const float x = r.dot(rel) * at, y = u.dot(rel) * at, extent = s.radius * at;
      lo_x = std::min(lo_x, x - extent), hi_x = std::max(hi_x, x + extent);
      lo_y = std::min(lo_y, y - extent), hi_y = std::max(hi_y, y + extent);
    }
    target += r * ((lo_x + hi_x) / 2) + u * ((lo_y + hi_y) / 2);
  }
  distance = needed_distance();
}

void Camera::set_view(StandardView view) {
  constexpr float pi = std::numbers::pi_v<float>;
  switch (view) {
    case StandardView::Front:
      yaw = 0, pitch = 0;
      break;
    case StandardView::Back:
      yaw = pi, pitch = 0;
      break;
    case StandardView::Left:
      yaw = pi / 2, pitch = 0;
      break;
    case StandardView::Right:
      yaw = -pi / 2, pitch = 0;
      break;
    case StandardView::Top:
      yaw = 0, pitch = kMaxPitch;
      break;
    case StandardView::Bottom:
      yaw = 0, pitch = -kMaxPitch;
      break;
    case StandardView::Iso:
      yaw = pi / 4, pitch = 0.6155f;
      break;  // atan(1/sqrt 2)
  }
}

Mat4 Camera::view_matrix() const {
  const Vec3 f = forward(), r = right(), u = up(), e = eye();
  Mat4 view = Mat4::Identity();
  view.block<1, 3>(0, 0) = r.transpose();
  view.block<1, 3>(1, 0) = u.transpose();
  view.block<1, 3>(2, 0) = -f.transpose();
  view(0, 3) = -r.dot(e);
  view(1, 3) = -u.dot(e);
  view(2, 3) = f.dot(e);
  return view;  // right-handed view space, camera looking down -z
}

Mat4 Camera::projection_matrix(float aspect) const {
  Mat4 p = Mat4::Zero();
  const float n = near_plane, f = far_plane;
  if (orthographic) {
    const float half_h = distance * std::tan(fov_y / 2), half_w = half_h * aspect;
    p(0, 0) = 1 / half_w;
    p(1, 1) = -1 / half_h;
    // Depth covers [-far, far] around the eye, so nothing behind an orthographic eye is clipped.
    p(2, 2) = -0.5f / f;
    p(2, 3) = 0.5f;
    p(3, 3) = 1;
  } else {
    const float t = 1 / std::tan(fov_y / 2);
    p(0, 0) = t / aspect;
    p(1, 1) = -t;
    p(2, 2) = f / (n - f);
    p(2, 3) = n * f / (n - f);
    p(3, 2) = -1;
  }
  return p;
}

Ray Camera::ray_through_pixel(float x, float y, float width, float height) const {
  const float aspect = width / height;
  const float ndc_x = 2 * x / width - 1, ndc_y = 1 - 2 * y / height;  // +y up
  const float half_h = std::tan(fov_y / 2);
  if (orthographic) {
    const float h = distance * half_h;
    return {eye() + right() * ndc_x * h * aspect + up() * ndc_y * h, forward()};
  }
  const Vec3 direction =
      (forward() + right() * ndc_x * half_h * aspect + up() * ndc_y * half_h).normalized();
  return {eye(), direction};
}

float Camera::world_per_pixel(const Vec3& point, float viewport_height) const {
  const float depth =
      orthographic ? distance : std::max((point - eye()).dot(forward()), near_plane);
  return 2 * depth * std::tan(fov_y / 2) / std::max(viewport_height, 1.0f);
}

}  // namespace kinetic::viewer
