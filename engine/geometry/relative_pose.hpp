#pragma once
// Frame b expressed in frame a: maps points given in b's frame into a's frame with one rotation
// and one translation, so a traversal over two posed trees transforms each node once.
#include "engine/core/types.hpp"

namespace kinetic {

struct RelativePose {
  Eigen::Matrix3d rotation;
  Vector3 translation;
  RelativePose(const Pose& a, const Pose& b)
      : rotation(a.linear().transpose() * b.linear()),
        translation(a.linear().transpose() * (b.translation() - a.translation())) {}
  Vector3 operator()(const Vector3& p) const { return rotation * p + translation; }
};

}  // namespace kinetic
