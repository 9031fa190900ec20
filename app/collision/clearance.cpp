#include "app/collision/clearance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "engine/collision/body_pair.hpp"
#include "engine/core/infinity.hpp"

namespace kinetic::app {

namespace {

double pair_distance(const CollisionChecker& checker, int a, int b, double cutoff = kInf) {
  return exact_pair_distance(checker.body(a), checker.body_pose(a), checker.body(b),
                             checker.body_pose(b), cutoff)
      .distance;
}
}  // namespace

ClearanceReading::ClearanceReading(CollisionChecker& checker) {
  const auto& pairs = checker.self_pairs();
  const RobotModel& robot = checker.model();
  std::vector<double> nearest(pairs.size(), kInf), farthest(pairs.size(), -kInf);
  const JointVector lower = robot.lower_limits(), upper = robot.upper_limits();
  std::mt19937 random(1);  // the same poses every time: the same pairs left out
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int sample = 0; sample < kSamples && !pairs.empty(); ++sample) {
    JointVector q(robot.dof());
    for (int v = 0; v < robot.dof(); ++v) {
      // (An unbounded joint is sampled over one turn.)
      const double lo = std::isfinite(lower[v]) ? lower[v] : -3.14159,
                   hi = std::isfinite(upper[v]) ? upper[v] : 3.14159;
      q[v] = lo + (hi - lo) * unit(random);
    }
    checker.update(q);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const double d = pair_distance(checker, pairs[k].first, pairs[k].second);
      nearest[k] = std::min(nearest[k], d);
      farthest[k] = std::max(farthest[k], d);
    }
  }
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (nearest[k] > 0.0 && farthest[k] - nearest[k] < kHeldTolerance)
      held_.emplace_back(std::min(pairs[k].first, pairs[k].second),
                         std::max(pairs[k].first, pairs[k].second));
  std::sort(held_.begin(), held_.end());
}

DistanceResult ClearanceReading::closest(CollisionChecker& checker, const JointVector& q) const {
  DistanceOptions scene_only;
  scene_only.self = false;
  DistanceResult best = checker.min_distance(q, scene_only);  // also updates the poses to q
  const auto& pairs = checker.self_pairs();
  for (const auto& [a, b] : pairs) {
    if (std::binary_search(held_.begin(), held_.end(),
                           std::make_pair(std::min(a, b), std::max(a, b))))
      continue;
    const double cutoff = best.found ? best.distance : kInf;
    // The spheres first: most pairs are clearly farther than the best so far.
    const Pose &pose_a = checker.body_pose(a), &pose_b = checker.body_pose(b);
    if (pair_distance_bounds(checker.body(a), pose_a, checker.body(b), pose_b, cutoff).lower >=
        cutoff)
      continue;
    const PairDistance d =
        exact_pair_distance(checker.body(a), pose_a, checker.body(b), pose_b, cutoff);
    if (best.found && d.distance >= best.distance) continue;
    best.found = true;
    best.exact = true;
    best.distance = d.distance;
    best.body_a = checker.body_name(a);
    best.body_b = checker.body_name(b);
    best.point_a = d.point_a;
    best.point_b = d.point_b;
  }
  return best;
}

}  // namespace kinetic::app
