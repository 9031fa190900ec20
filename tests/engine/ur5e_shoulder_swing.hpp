#pragma once
// The UR5e's upper arm swinging down through its base: shoulder from -0.3 to 3.1 rad with the
// elbow bent. Both ends are free; link2 meets the base on the way (the shoulder wall between
// about 0.22 and 2.92 rad). Shared by the continuous self and path check tests.
#include <utility>

#include "engine/core/types.hpp"

namespace kinetic::test {

inline std::pair<JointVector, JointVector> ur5e_shoulder_swing() {
  JointVector up = JointVector::Zero(6), over = JointVector::Zero(6);
  up << 0.0, -0.3, 1.0, -1.0, 0.0, 0.0;
  over << 0.0, 3.1, 1.0, -1.0, 0.0, 0.0;
  return {up, over};
}

}  // namespace kinetic::test
