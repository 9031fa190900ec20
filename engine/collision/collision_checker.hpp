#pragma once
// CollisionChecker: self and scene collision of a robot, the facade over a shared CollisionWorld
// (collision_world.hpp: the bodies, pairs and tables fixed for a robot + scene) and one thread's
// query state for each kind of query: state checks (state_check.hpp), grid motion checks
// (grid_check.hpp), continuous path checks (path_check.hpp) and distances (distance_query.hpp).
// Queries: in collision (early exit), all contacts with penetration depth, minimum distance with
// closest points, motion validation.
//
// Thread safety: one checker per thread. A checker mutates its query state in every query (that
// keeps queries allocation-free); the world it shares with its copies is immutable. Copy a
// checker to give another thread its own (cheap: the world is shared, not copied).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/collision/check_options.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/distance_query.hpp"
#include "engine/collision/grid_check.hpp"
#include "engine/collision/path_check.hpp"
#include "engine/collision/state_check.hpp"

namespace kinetic {

class CollisionChecker {
 public:
  explicit CollisionChecker(RobotModelPtr model, CollisionCheckerOptions options = {});
  // A checker over a world another checker built (its own query state, the world shared).
  explicit CollisionChecker(std::shared_ptr<const CollisionWorld> world);

  const RobotModel& model() const { return *world_->model; }
  const CollisionCheckerOptions& options() const { return world_->options; }
  // The world queries run against; replaced (not changed) by set_scene and set_robot_acm.
  const std::shared_ptr<const CollisionWorld>& world() const { return world_; }

  // Takes the scene's obstacles, attached objects and pair overrides (throws Error(MissingLink)
  // for an object attached to an unknown link, Error(MissingMesh) for unreadable meshes).
  void set_scene(const PlanningScene& scene);
  // The robot's matrix (adjacent, SRDF, kinetic.toml); edits apply to later queries.
  const AllowedCollisionMatrix& robot_acm() const { return world_->robot_acm; }
  void set_robot_acm(const AllowedCollisionMatrix& acm);

  // The self pairs' distance tables measured ahead where small (SelfPairTable::measure_ahead):
  // for a checker that plans, before its first search. Tens of milliseconds, once per robot.
  void measure_tables_ahead() const;

  // Queries at a configuration (model variable order).
  bool in_collision(const JointVector& q, const CheckOptions& options = {});
  std::vector<Contact> contacts(const JointVector& q, const CheckOptions& options = {});
  DistanceResult min_distance(const JointVector& q, const DistanceOptions& options = {});

  // Motion from q0 to q1 (straight line in joint space). Discrete: every `resolution` (max joint
  // step, rad or m) plus both ends. Continuous: the path check over one segment (path_begin and
  // path_advance, whose state it replaces), so no obstacle thinner than a step can be skipped.
  bool motion_valid_discrete(const JointVector& q0, const JointVector& q1, double resolution,
                             const CheckOptions& options = {});
  bool motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                               const CheckOptions& options = {}, double tolerance = 1e-3);
  // The states q0 + (q1 - q0) * i / steps, 0 < i < steps (the ends are the caller's), all pass
  // in_collision(options): the verdict of checking each one, in the same order (the middle, then
  // the quarters, ...: a blocked edge fails early), but a run of states is proven free at once
  // when the state in its middle clears everything by how far each body can move to the run's
  // ends (grid_check.cpp).
  // first_step (0 < first_step < steps): that state is checked before all others, where the
  // caller expects a collision (the verdict is the same). with_ends: q0 and q1 must pass too
  // (checked first). After false, grid_blocked_step() is the state found in collision.
  bool grid_motion_free(const JointVector& q0, const JointVector& q1, int steps,
                        const CheckOptions& options = {}, int first_step = 0,
                        bool with_ends = false);
  int grid_blocked_step() const { return grid_.blocked_step; }
  // Self collision only, by conservative advancement per pair (path_check.cpp): a
  // pair is looked at again only once its clearance at the last look, divided by its closing
  // speed along dq, is used up. True proves that no checked pair comes closer than
  // (self padding - tolerance) anywhere on the segment and both ends pass in_collision's self
  // test; false means some state on the segment (an end or a state looked at) fails that test.
  // options.scene is ignored; padding and pad_self mean what they mean in in_collision.
  bool self_motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                    const CheckOptions& options = {}, double tolerance = 1e-3);
  // Continuous check along a path, one segment at a time, for the self pairs and/or the scene
  // as options select (path_check.cpp). Self pairs by conservative advancement: a
  // pair's clearance left at a waypoint carries into the next segment, so far pairs are not
  // looked at again per segment (as self_motion_valid_continuous). The scene by adaptive
  // bisection with padded states: no body comes closer than its padding to an obstacle, and a
  // body within the tolerance of one anywhere on the segment counts as contact. begin() checks
  // the first state with in_collision; each advance() checks the segment from the last state to
  // q, and q itself with in_collision. False: that segment (or q) fails; path_contact() then
  // names the pair that failed on the segment (empty when q itself failed in_collision).
  bool path_begin(const JointVector& q, const CheckOptions& options = {}, double tolerance = 1e-3);
  bool path_advance(const JointVector& q);
  using PathContact = kinetic::PathContact;
  const PathContact& path_contact() const { return path_.contact; }
  // path_begin/path_advance for self pairs only (options.scene ignored).
  bool self_path_begin(const JointVector& q, const CheckOptions& options = {},
                       double tolerance = 1e-3);
  bool self_path_advance(const JointVector& q) { return path_advance(q); }

  // Lower-level access (ACM generator, tests, benchmarks).
  void update(const JointVector& q);  // FK into the pose buffer
  int body_count() const { return world_->body_count(); }
  int robot_body_count() const { return world_->robot_body_count(); }
  const CollisionBody& body(int index) const { return world_->body(index); }
  // The same body, kept alive for a caller after the checker's scene changes.
  std::shared_ptr<const CollisionBody> shared_body(int index) const {
    return world_->bodies[static_cast<std::size_t>(index)].body;
  }
  const std::string& body_name(int index) const { return world_->body_name(index); }
  const Pose& body_pose(int index) const { return state_.pose(index); }
  const std::vector<Pose>& link_poses() const { return state_.link_poses; }
  // Both tiers for one pair at the current poses (after update()).
  bool pair_in_collision(int a, int b, double padding = 0.0) const;
  bool pair_in_collision(int a, int b, double padding, double margin) const;  // margin 0: exact
  // Robot-robot pairs checked for self collision (not allowed, both with geometry).
  const std::vector<std::pair<int, int>>& self_pairs() const { return world_->self_pairs; }

 private:
  void use_world(std::shared_ptr<const CollisionWorld> world);

  std::shared_ptr<const CollisionWorld> world_;
  CollisionState state_;
  GridCheckState grid_;
  PathCheckState path_;
  DistanceState distance_;
};

}  // namespace kinetic
