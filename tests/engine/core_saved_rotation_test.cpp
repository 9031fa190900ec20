// saved_rotation: quaternions written to scene and session files read back and save again as the
// same numbers.
#include <gtest/gtest.h>

#include <random>

#include "engine/core/saved_rotation.hpp"

namespace kinetic {
namespace {

TEST(SavedRotation, ASecondSaveWritesTheSameNumbersForEveryRotation) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  int changed = 0;
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const Eigen::Matrix3d rotation = Quaternion(normal(rng), normal(rng), normal(rng), normal(rng))
                                         .normalized()
                                         .toRotationMatrix();
    const std::array<double, 4> first = saved_quaternion(rotation);
    const Eigen::Matrix3d read =
        rotation_from_saved_quaternion(first[0], first[1], first[2], first[3]);
    worst = std::max(worst, (read - rotation).cwiseAbs().maxCoeff());
    changed += saved_quaternion(read) != first;
  }
  // Quaternion(R) as it is: 12,921 of these 20,000 changed.
  EXPECT_EQ(changed, 0);
  EXPECT_LT(worst, 1e-13);
}

TEST(SavedRotation, SimpleRotationsKeepTheirSimpleNumbers) {
  EXPECT_EQ(saved_quaternion(Eigen::Matrix3d::Identity()),
            (std::array<double, 4>{0.0, 0.0, 0.0, 1.0}));
  const Eigen::Matrix3d quarter = Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()).toRotationMatrix();
  const std::array<double, 4> q = saved_quaternion(quarter);
  EXPECT_EQ(q[0], 0.0);
  EXPECT_EQ(q[1], 0.0);
  EXPECT_NEAR(q[2], std::sqrt(0.5), 1e-14);
  EXPECT_NEAR(q[3], std::sqrt(0.5), 1e-14);
  // A quaternion that is not of unit length is read as its rotation.
  EXPECT_TRUE(rotation_from_saved_quaternion(0, 0, 2, 2).isApprox(quarter, 1e-15));
}

}  // namespace
}  // namespace kinetic
