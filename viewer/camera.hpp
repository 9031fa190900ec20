#pragma once
// Orbit camera around a target point, z up (ROS convention). Angles in radians; yaw 0 looks along
// +x from the -x side... see view_direction(). Produces Vulkan matrices (y down in clip space,
// depth 0..1).
#include <vector>

#include "viewer/math.hpp"

namespace kinetic::viewer {

enum class StandardView { Front, Back, Left, Right, Top, Bottom, Iso };

struct Ray {
  Vec3 origin;
  Vec3 direction;  // unit
};

struct BoundingSphere {
  Vec3 centre = Vec3::Zero();
  float radius = 0.0f;
};

class Camera {
 public:
  Vec3 target = Vec3(0, 0, 0.4f);
  float distance = 2.5f;
  float yaw = 0.785f;   // around z; 0 = camera on the +x axis looking towards -x
  float pitch = 0.45f;  // elevation above the ground plane
  float fov_y = 0.7f;   // perspective vertical field of view
  bool orthographic = false;
  float near_plane = 0.01f;
  float far_plane = 100.0f;

  Vec3 eye() const;
  Vec3 forward() const;  // unit, from eye to target
  Vec3 right() const;
  Vec3 up() const;

  void orbit(float delta_yaw, float delta_pitch);
  // Pans by a pixel delta so the point under the cursor follows it.
  void pan(float dx_pixels, float dy_pixels, float viewport_height);
  // factor < 1 zooms in.
  void zoom(float factor);
  void focus(const Vec3& point) { target = point; }
  // Frames an axis-aligned box, keeping the view direction: its bounding sphere fills the view,
  // so it stays in view whichever way the camera is turned (room around it to work in).
  void fit(const Vec3& min, const Vec3& max, float aspect);
  // Frames the spheres as seen from this direction, keeping it: their picture centred, and the
  // view's edges `margin` (a share of the view's half size) beyond the outermost. For pictures:
  // a robot fills the view, where fit() leaves a wide border around its box.
  void fit_tight(const std::vector<BoundingSphere>& spheres, float aspect, float margin = 0.05f);
  void set_view(StandardView view);

  Mat4 view_matrix() const;
  Mat4 projection_matrix(float aspect) const;
  // The world-space ray through pixel (x, y) of a width x height viewport (pixel centres at +0.5).
  Ray ray_through_pixel(float x, float y, float width, float height) const;
  // World length of one pixel at `point` (for constant-screen-size gizmos).
  float world_per_pixel(const Vec3& point, float viewport_height) const;
};

}  // namespace kinetic::viewer
