#pragma once
// Eigen types the viewer speaks in (single precision: it is what the GPU uses), and colours.
#include <Eigen/Geometry>

#include <cstdint>

namespace kinetic::viewer {

using Vec2 = Eigen::Vector2f;
using Vec3 = Eigen::Vector3f;
using Vec4 = Eigen::Vector4f;
using Mat3 = Eigen::Matrix3f;
using Mat4 = Eigen::Matrix4f;
using Transform =
    Eigen::Isometry3f;  // rigid pose; use Eigen::Affine3f via Instance::scale for scaling

// Colour in sRGB (what colour pickers and URDF materials give), alpha = opacity.
struct Color {
  float r = 1, g = 1, b = 1, a = 1;
  constexpr Color with_alpha(float alpha) const { return {r, g, b, alpha}; }
  friend bool operator==(const Color&, const Color&) = default;
};

namespace colors {
constexpr Color kRobot{0.86f, 0.87f, 0.89f, 1.0f};
constexpr Color kStartGhost{0.25f, 0.65f, 1.0f, 0.35f};
constexpr Color kGoalGhost{1.0f, 0.62f, 0.15f, 0.35f};
constexpr Color kPlaybackGhost{0.65f, 0.65f, 0.72f, 0.22f};
constexpr Color kPlaceTarget{0.80f, 0.30f, 0.95f, 0.5f};  // where a pick and place puts the part
constexpr Color kObstacle{0.55f, 0.70f, 0.55f, 1.0f};
constexpr Color kCollision{0.95f, 0.25f, 0.2f, 0.45f};
constexpr Color kSelection{1.0f, 0.78f, 0.1f, 1.0f};
constexpr Color kTrail{0.2f, 0.85f, 0.95f, 1.0f};
constexpr Color kAxisX{0.90f, 0.22f, 0.20f, 1.0f};
constexpr Color kAxisY{0.30f, 0.78f, 0.25f, 1.0f};
constexpr Color kAxisZ{0.22f, 0.45f, 0.95f, 1.0f};
constexpr Color kBackgroundTop{0.17f, 0.19f, 0.23f, 1.0f};
}  // namespace colors

}  // namespace kinetic::viewer
