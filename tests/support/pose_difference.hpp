#pragma once
// How far apart two poses' orientations are, for tests that compare a TCP with its target.
#include <Eigen/Geometry>

#include "engine/core/types.hpp"

namespace kinetic::test {

// The angle (rad) of the rotation taking a's orientation to b's.
inline double rotation_between(const Pose& a, const Pose& b) {
  return Eigen::AngleAxisd(a.linear().transpose() * b.linear()).angle();
}

}  // namespace kinetic::test
