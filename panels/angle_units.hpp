#pragma once
// Degrees per radian: the panels edit and show angles in degrees.
#include <numbers>

namespace kinetic::panels {

inline constexpr double kDegrees = 180.0 / std::numbers::pi;

}  // namespace kinetic::panels
