#include "engine/collision/slot_reach.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/infinity.hpp"

namespace kinetic {
namespace {

// m: taken off every bound, far above the rounding of the sums below and of the single-precision
// lanes' placements (lane_check.cpp keeps its points within a tenth of a millimetre).
constexpr double kReachSlack = 1e-3;

// A ball (world frame) that holds `point` (in `link`'s frame) in every configuration, centred
// on the first moving joint between the root and the link (its origin is fixed in the world,
// since nothing above it moves): each joint after it adds its origin's offset. Only turning
// joints keep the ball whatever their values (a state checked outside the limits included); a
// sliding, floating or planar joint on the way leaves the radius infinite.
struct Ball {
  Vector3 center = Vector3::Zero();
  double radius = kInf;
};

Ball reach_ball(const RobotModel& model, const std::vector<Pose>& rest_poses, int link,
                const Vector3& point) {
  std::vector<const Joint*> chain;  // the root's end first
  for (int l = link; model.links()[static_cast<std::size_t>(l)].parent_joint >= 0;) {
    const Joint& joint = model.joints()[static_cast<std::size_t>(
        model.links()[static_cast<std::size_t>(l)].parent_joint)];
    chain.insert(chain.begin(), &joint);
    l = joint.parent_link;
  }
  const auto first_moving =
      std::find_if(chain.begin(), chain.end(), [](const Joint* j) { return j->is_moving(); });
  Ball ball;
  if (first_moving == chain.end()) {  // fixed in the world
    ball.center = rest_poses[static_cast<std::size_t>(link)] * point;
    ball.radius = 0.0;
  } else {
    const Joint& joint = **first_moving;
    ball.center =
        rest_poses[static_cast<std::size_t>(joint.parent_link)] * joint.origin.translation();
    ball.radius = point.norm();
    for (auto it = first_moving; it != chain.end(); ++it) {
      const Joint& j = **it;
      if (j.type == JointType::Floating || j.type == JointType::Planar ||
          j.type == JointType::Prismatic)
        return {};
      if (it != first_moving) ball.radius += j.origin.translation().norm();
    }
  }
  if (!ball.center.allFinite() || !(ball.radius < kInf)) return {};
  return ball;
}

}  // namespace

std::vector<double> slot_scene_reach_gaps(const CollisionWorld& world) {
  std::vector<double> gaps(world.moving_bodies.size(), -kInf);
  const RobotModel& model = *world.model;
  // Poses of the links above each chain's first moving joint: the same in every configuration.
  std::vector<Pose> rest_poses;
  world.fk->compute(model.zero_configuration(), rest_poses);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
    const int b = world.moving_bodies[m];
    const CollisionWorld::BodySlot& slot = world.bodies[static_cast<std::size_t>(b)];
    if (!world.has_root[static_cast<std::size_t>(b)] || slot.link < 0) continue;
    const Ball ball =
        reach_ball(model, rest_poses, slot.link,
                   slot.offset * world.local_root_centers[static_cast<std::size_t>(b)]);
    if (!(ball.radius < kInf)) continue;
    const double reach = ball.radius + world.root_radii[static_cast<std::size_t>(b)];
    double gap = kInf;
    for (int o = world.obstacle_begin; o < world.body_count() && gap > -kInf; ++o) {
      const std::size_t k = static_cast<std::size_t>(o - world.obstacle_begin);
      if (world.scene_allowed[m][k]) continue;
      const CollisionBody& obstacle = world.body(o);
      double distance = -kInf;  // from the ball's centre to the obstacle, at least
      if (!obstacle.tree.empty()) {
        distance = (ball.center - world.fixed_bound_centers[static_cast<std::size_t>(o)]).norm() -
                   obstacle.tree.root().radius;
      } else if (const CollisionWorld::ObstacleFrame& frame = world.obstacle_frames[k];
                 frame.shape && frame.shape->type == Shape::Type::HalfSpace) {
        // Solid where normal . x <= offset, in the shape's frame.
        const Vector3 local = frame.to_local * (ball.center - frame.origin);
        distance =
            (frame.shape->normal.dot(local) - frame.shape->offset) / frame.shape->normal.norm();
      }
      gap = std::min(gap, std::isfinite(distance) ? distance - reach - kReachSlack : -kInf);
    }
    gaps[m] = gap;
  }
  return gaps;
}

}  // namespace kinetic
