#include "engine/collision/scene_gap.hpp"

#include <algorithm>

#include "engine/collision/broad_phase.hpp"
#include "engine/collision/cover_check.hpp"
#include "engine/collision/leaf_exact.hpp"
#include "engine/geometry/convex_distance.hpp"
#include "engine/geometry/primitive_distance.hpp"

namespace kinetic {
namespace {
// GJK on a cylinder rim can stop a few micrometres past the true distance (ConvexDistance): the
// exact distances here are taken this much shorter.
constexpr double kDistanceSlack = 1e-5;  // m
}  // namespace

PairDistance solid_distance_bound(const CollisionBody& a, const Pose& pose_a,
                                  const CollisionBody& b, const Pose& pose_b, double cutoff,
                                  double exact_within) {
  PairDistance best;
  best.distance = cutoff;
  for (const auto& part_a : a.parts)
    for (const auto& part_b : b.parts) {
      // The parts' centres first (a point each): most part pairs end at their bounding spheres,
      // and their whole poses, two 4x4 products, were a twentieth of the gates' time (the Panda
      // among 20 boxes).
      if ((pose_a * part_a.pose.translation() - pose_b * part_b.pose.translation()).norm() -
              part_a.radius - part_b.radius >=
          best.distance)
        continue;
      const Pose wa = pose_a * part_a.pose, wb = pose_b * part_b.pose;
      const ConvexDistance d =
          primitive_distance(part_a.shape, wa, part_b.shape, wb, best.distance, 0.0, exact_within);
      if (d.lower_bound < best.distance) best = {d.lower_bound, d.point_a, d.point_b};
    }
  return best;
}

SceneGap slot_scene_gap(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                        double padding, double cap, double tolerance) {
  SceneGap result;
  result.gap = cap;
  const int b = world.moving_bodies[m];
  const CollisionBody& body = *world.bodies[static_cast<std::size_t>(b)].body;
  const Vector3& center = state.bound_centers[b];
  const double radius = world.root_radii[b];
  const bool has_root = !body.tree.empty(), solid_body = all_simple_primitives(body);
  const unsigned char* allowed = world.scene_allowed[m].data();
  const bool flat = flat_broad_phase(world.obstacle_spheres, center);
  const std::size_t obstacles = static_cast<std::size_t>(world.body_count() - world.obstacle_begin);
  const auto visit = [&](int o) {
    const std::size_t k = static_cast<std::size_t>(o - world.obstacle_begin);
    if (allowed[k]) return false;
    const double reach = padding + result.gap;  // farther than this changes nothing
    const CollisionWorld::ObstacleFrame& frame = world.obstacle_frames[k];
    if (has_root && frame.shape && !(flat && frame.culled_as_solid) &&
        solid_point_distance(*frame.shape, frame.to_local * (center - frame.origin)) - radius >=
            reach)
      return false;
    if (cover_clear_of_obstacle(world, state, m, frame, reach)) return false;
    const CollisionBody& obstacle = *world.bodies[static_cast<std::size_t>(o)].body;
    const Pose &pose = state.pose(b), &obstacle_pose = state.pose(o);
    if (hull_proof_applies(body, obstacle)) {
      double hull = 0.0;
      if (!state.scene_hull_hint.empty()) {
        HullHint& hint = state.scene_hull_hint[m * obstacles + k];
        hull = hull_distance_hinted(body, pose, obstacle, obstacle_pose,
                                    padding + 0.25 * result.gap, padding + tolerance, reach, hint);
      } else {
        hull = hull_distance_bound(body, pose, obstacle, obstacle_pose, reach);
      }
      if (hull - padding > tolerance) {
        if (hull - padding < result.gap) result = {hull - padding, o, false, false};
        return false;
      }
    }
    if (solid_body && all_simple_primitives(obstacle)) {
      const double bound =
          solid_distance_bound(body, pose, obstacle, obstacle_pose, reach, padding + tolerance)
              .distance;
      if (bound - padding < result.gap) {
        result = {bound - padding, o, bound < padding, false};
        if (result.contact) return true;
      }
      return false;
    }
    // A floor's distance is closed-form (exact_pair_distance), so it is trusted like the leaves'.
    const bool floor =
        obstacle.parts.size() == 1 && obstacle.parts.front().shape.type == Shape::Type::HalfSpace;
    if (!floor && !leaf_exact_supported(body, obstacle)) {
      // No distance to trust here (FCL's can run long): the exact verdict at the reach, and a
      // near pair without a bound.
      if (pair_in_collision(body, pose, obstacle, obstacle_pose, reach, 0.0))
        result = {0.0, o, false, true};
      return false;
    }
    const double exact = exact_pair_distance(body, pose, obstacle, obstacle_pose, reach).distance;
    if (exact >= reach) return false;
    const double distance = exact - kDistanceSlack;
    if (distance - padding < result.gap) {
      result = {distance - padding, o, distance < padding, false};
      if (result.contact) return true;  // nothing below this matters
    }
    return false;
  };
  any_obstacle_near(world.obstacle_spheres, world.obstacle_tree, world.unbounded_obstacles, center,
                    radius, padding + cap, visit);
  return result;
}

}  // namespace kinetic
