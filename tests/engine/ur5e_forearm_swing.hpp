#pragma once
// The UR5e's folded forearm swinging through its base: the elbow folded to 2.8 rad, the shoulder
// from -0.8 to 2.0 rad. Both ends are free; link3 meets the base on the way (between about -0.48
// and 1.71 rad). The upper arm itself passes beside the base (the shoulder offset), so it is the
// folded forearm that hits it. Shared by the continuous self and path check tests and the gates.
#include <utility>

#include "engine/core/types.hpp"

namespace kinetic::test {

inline std::pair<JointVector, JointVector> ur5e_forearm_swing() {
  JointVector up = JointVector::Zero(6), over = JointVector::Zero(6);
  up << 0.0, -0.8, 2.8, -1.0, 0.0, 0.0;
  over << 0.0, 2.0, 2.8, -1.0, 0.0, 0.0;
  return {up, over};
}

}  // namespace kinetic::test
