#pragma once
// The clearance the status bar reads: the closest pair a pose can bring closer. Some self pairs are
// held at one distance by the kinematics (the UR5e's and the Panda's shoulder housing turns on its
// own axis 6 mm above the base, whatever the pose): the smallest distance of all, in every pose,
// and so what the reading always said, although those links can never touch. They are found once
// per robot by measuring every self pair in sampled poses, and left out of the reading (not of the
// collision checks).
#include <vector>

#include "engine/collision/collision_checker.hpp"

namespace kinetic::app {

class ClearanceReading {
 public:
  // Poses sampled within the limits, and how much a pair's distance may vary over them and still
  // count as held (well below anything a user reads: the reading has millimetres).
  static constexpr int kSamples = 16;
  static constexpr double kHeldTolerance = 1e-4;  // m

  // Measures `checker`'s self pairs (obstacles are not looked at, so its scene does not matter).
  // Leaves the checker's poses at the last sample.
  explicit ClearanceReading(CollisionChecker& checker);

  // The closest pair at q: obstacles and the self pairs the pose can change; found = false when
  // there is none. Updates the checker's poses to q.
  DistanceResult closest(CollisionChecker& checker, const JointVector& q) const;
  // The self pairs left out, as body indices (a < b), sorted. By bodies rather than by position in
  // self_pairs(): a scene that allows a pair of links changes that list, not the robot's bodies.
  const std::vector<std::pair<int, int>>& held_pairs() const { return held_; }

 private:
  std::vector<std::pair<int, int>> held_;
};

}  // namespace kinetic::app
