#pragma once
// Rotations in the studio's JSON files (scene, session goal) are quaternions (x, y, z, w).
// Quaternion(R) of the matrix a read quaternion gives is that quaternion only to the last bit or
// two, and those bits wandered on every save: a session saved again unchanged differed in its
// orientations (65% of 20,000 random rotations changed on the next save, 6.7% had not settled
// after 50), noise in every diff of a versioned scene. saved_quaternion writes the same numbers
// on every save of what was read.
#include <array>

#include "engine/core/types.hpp"

namespace kinetic {

// The rotation of a quaternion read from a file: normalised (the caller refuses a zero one).
Eigen::Matrix3d rotation_from_saved_quaternion(double x, double y, double z, double w);

// (x, y, z, w) to write for `rotation`: rounded to 1e-14 (the rotation moves by under 2e-14, far
// below any tolerance; far above the conversions' last-bit noise), after one pass through
// rotation_from_saved_quaternion, so that reading it and saving again gives the same numbers.
std::array<double, 4> saved_quaternion(const Eigen::Matrix3d& rotation);

}  // namespace kinetic
