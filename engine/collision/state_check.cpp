// The state check: one configuration against a CollisionWorld. The scene first (a broad phase
// over the obstacles, each body's root sphere against the obstacle's primitive, its sphere cover,
// a mesh body's hull along the axis that last separated them, then both tiers for the pairs
// left), then the self pairs (root spheres 64 pairs at a time, then each pair's plan: solid parts
// exactly; mesh pairs by their convex hulls, then witnesses inside each other's volume, then
// the exact tier).
#include "engine/collision/state_check.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "engine/collision/broad_phase.hpp"
#include "engine/collision/cover_check.hpp"
#include "engine/collision/leaf_exact.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/collision/witness_check.hpp"
#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"
#include "engine/geometry/primitive_distance.hpp"

namespace kinetic {
namespace {
// Scene hull hints per query state at most (32 bytes each): a scene of thousands of obstacles
// goes without them rather than holding megabytes per thread.
constexpr std::size_t kMaxSceneHullHints = 1 << 16;
}  // namespace

void CollisionState::reset(const CollisionWorld& world) {
  attached_begin = world.attached_begin;
  link_poses.assign(world.model->links().size(), Pose::Identity());
  body_poses = world.fixed_poses;
  bound_centers = world.fixed_bound_centers;
  self_hull_hint.assign(world.self_pairs.size(), HullHint{});
  const std::size_t scene_pairs =
      world.moving_bodies.size() *
      static_cast<std::size_t>(world.body_count() - world.obstacle_begin);
  scene_hull_hint.assign(scene_pairs <= kMaxSceneHullHints ? scene_pairs : 0, HullHint{});
  cover_x.assign(world.cover_x.size(), 0.0f);
  cover_y.assign(world.cover_y.size(), 0.0f);
  cover_z.assign(world.cover_z.size(), 0.0f);
  cover_stamp.assign(world.moving_bodies.size(), 0);
  cover_usable.assign(world.moving_bodies.size(), 0);
  scene_order.clear();  // the distal slots first (scene_in_collision)
  pose_stamp = 1;
  q_stamp = 0;
}

namespace {
// The moving bodies' root-sphere centres, R c + t, from each pose's stored columns four doubles at
// a time (the bottom row rides along), in a third of the instructions Eigen's scalar 3x3 product
// took (update_poses runs before every state check). Eigen sums a row in another order, so a
// centre may differ from its product in the last place. Built twice where the CPU may have AVX2.
using FourDoubles = double __attribute__((vector_size(32)));

[[gnu::always_inline]] inline void place_root_centers_body(const CollisionWorld& world,
                                                           CollisionState& state) {
  static_assert(sizeof(Pose) == 16 * sizeof(double), "Pose: a 4x4 column-major matrix");
  for (const int i : world.moving_bodies) {
    const double* m = state.pose(i).data();
    const Vector3& c = world.local_root_centers[static_cast<std::size_t>(i)];
    FourDoubles x, y, z, t;  // one load each (an array of four was copied through the stack)
    std::memcpy(&x, m, sizeof x);
    std::memcpy(&y, m + 4, sizeof y);
    std::memcpy(&z, m + 8, sizeof z);
    std::memcpy(&t, m + 12, sizeof t);
    const FourDoubles center = ((x * c.x() + y * c.y()) + z * c.z()) + t;
    double* out = state.bound_centers[static_cast<std::size_t>(i)].data();
    out[0] = center[0];
    out[1] = center[1];
    out[2] = center[2];
  }
}

void place_root_centers_portable(const CollisionWorld& world, CollisionState& state) {
  place_root_centers_body(world, state);
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx2")]] void place_root_centers_avx2(const CollisionWorld& world,
                                                     CollisionState& state) {
  place_root_centers_body(world, state);
}
#endif

void place_root_centers(const CollisionWorld& world, CollisionState& state) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return place_root_centers_avx2(world, state);
#endif
  place_root_centers_portable(world, state);
}
}  // namespace

// Robot links read their poses straight from the FK buffer (state.pose()); only attached objects
// get a pose of their own. Root-sphere centres are kept flat to keep this loop free of
// indirections.
void update_poses(const CollisionWorld& world, CollisionState& state, const JointVector& q) {
  world.fk->compute(q, state.link_poses);
  ++state.pose_stamp;  // every cover is placed again when next needed
  state.q = q;
  state.q_stamp = state.pose_stamp;
  for (int i = world.attached_begin; i < world.obstacle_begin; ++i)
    state.body_poses[i] = state.link_poses[world.bodies[i].link] * world.bodies[i].offset;
  place_root_centers(world, state);
}

bool pair_in_collision(const CollisionWorld& world, const CollisionState& state, int a, int b,
                       double padding, double margin) {
  if (a > b) std::swap(a, b);
  if (b < world.obstacle_begin && margin == world.options.refinement_margin)
    return pair_in_collision(world, state, a, b, padding);
  return kinetic::pair_in_collision(*world.bodies[a].body, state.pose(a), *world.bodies[b].body,
                                    state.pose(b), padding, margin);
}

bool pair_in_collision(const CollisionWorld& world, const CollisionState& state, int a, int b,
                       double padding) {
  if (a > b) std::swap(a, b);
  if (b < world.obstacle_begin)
    if (const int k = world.self_pair_of[static_cast<std::size_t>(a * world.obstacle_begin + b)];
        k >= 0)
      return self_pair_in_collision(world, state, static_cast<std::size_t>(k), padding);
  return kinetic::pair_in_collision(*world.bodies[a].body, state.pose(a), *world.bodies[b].body,
                                    state.pose(b), padding, world.options.refinement_margin);
}

bool self_pair_in_collision(const CollisionWorld& world, const CollisionState& state, std::size_t k,
                            double padding, double extra, const double* part_extra, bool proof_only,
                            bool exact) {
  const auto [a, b] = world.self_pairs[k];
  // A pair with a table of its distance over the variables it depends on: one lookup.
  if (const SelfPairTable* table = world.self_tables[k].get();
      table && state.q_stamp == state.pose_stamp && table->clear_at(state.q, padding + extra))
    return false;
  // Mesh pairs: the two links' sphere covers first (solid pairs are decided exactly and quickly).
  if (world.solid_plans[k].empty() &&
      covers_apart(world, state, static_cast<std::size_t>(world.slot_of_body[a]),
                   static_cast<std::size_t>(world.slot_of_body[b]), padding + extra))
    return false;
  if (proof_only && world.solid_plans[k].empty() &&
      hull_proof_applies(*world.bodies[a].body, *world.bodies[b].body)) {
    // Not apart by the hulls: not proven (a sphere walk under a run-wide padding reaches its
    // leaves and proves little more, and cost a third of the planning time).
    return !hulls_apart(*world.bodies[a].body, state.pose(a), *world.bodies[b].body, state.pose(b),
                        padding + extra, &state.self_hull_hint[k]);
  }
  if (!world.solid_plans[k].empty()) {
    if (part_extra)  // each part pair's own extra, tighter than the whole bodies'
      return solid_parts_collision(*world.bodies[a].body, state.pose(a), *world.bodies[b].body,
                                   state.pose(b), padding, world.solid_plans[k],
                                   part_extra + world.solid_part_begin[k]);
    return solid_parts_collision(*world.bodies[a].body, state.pose(a), *world.bodies[b].body,
                                 state.pose(b), padding + extra, world.solid_plans[k]);
  }
  const CollisionBody& body_a = *world.bodies[a].body;
  const CollisionBody& body_b = *world.bodies[b].body;
  // The hulls first: mesh pairs sit close in every pose (a wrist's links), where the sphere walk
  // would descend to its leaves every time; one GJK on the hulls decides most states.
  if (hulls_apart(body_a, state.pose(a), body_b, state.pose(b), padding + extra,
                  &state.self_hull_hint[k]))
    return false;
  // Two links in each other (a folded arm) were confirmed by the sphere walk and the leaf
  // triangles at 0.1-0.6 ms a state; one witness inside the other's volume shows it at once.
  if (self_contact_witnessed(world, state, static_cast<std::size_t>(world.slot_of_body[a]),
                             static_cast<std::size_t>(world.slot_of_body[b])))
    return true;
  // At padding 0 touching is all that counts: the exact answer from FCL's boxes, which stop at
  // the first crossing triangles, where the sphere walk and the leaves measured their way to it.
  if (padding + extra == 0.0 && single_mesh(body_a) && single_mesh(body_b))
    return meshes_intersect(body_a, state.pose(a), body_b, state.pose(b));
  return pair_in_collision(body_a, state.pose(a), body_b, state.pose(b), padding + extra,
                           exact ? 0.0 : world.options.refinement_margin, /*hulls_tried=*/true);
}

bool self_in_collision(const CollisionWorld& world, const CollisionState& state, double padding,
                       const double* extra, const double* part_extra, bool proof_only,
                       std::uint64_t pairs, std::uint64_t* unproven, bool exact) {
  if (unproven) *unproven = 0;
  // Root spheres first, 64 pairs at a time into a bit mask (no branch per pair: in a free state
  // nearly every pair is culled here, and a data-dependent branch per pair mispredicts), then
  // the pairs whose roots overlap, in order.
  const Vector3* centers = state.bound_centers.data();
  const int* first = world.self_first.data();
  const int* second = world.self_second.data();
  const double* reach = world.self_reach.data();
  const std::size_t count = world.self_reach.size();
  for (std::size_t base = 0; base < count; base += 64) {
    const std::size_t end = std::min(count, base + 64);
    std::uint64_t near = 0;
    for (std::size_t k = base; k < end; ++k) {
      const double limit = reach[k] + padding + (extra ? extra[k] : 0.0);
      const bool overlap =
          !((centers[first[k]] - centers[second[k]]).squaredNorm() > limit * limit);
      near |= static_cast<std::uint64_t>(overlap) << (k - base);
    }
    for (; near != 0; near &= near - 1) {
      const std::size_t k = base + static_cast<std::size_t>(std::countr_zero(near));
      if (!(pairs & slot_bit(k))) continue;
      if (self_pair_in_collision(world, state, k, padding, extra ? extra[k] : 0.0, part_extra,
                                 proof_only, exact)) {
        // This pair and the ones not looked at yet stay open; those proven before it do not.
        if (unproven) *unproven = pairs & (kAllSlots << std::min<std::size_t>(k, 63));
        return true;
      }
    }
  }
  return false;
}

bool slot_near_scene(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                     double padding, double margin, bool covers_decide,
                     std::vector<DeferredScenePair>* deferred) {
  if (world.scene_reach_gap[m] > padding) return false;  // no obstacle within its reach
  const int b = world.moving_bodies[m];
  const Vector3& center = state.bound_centers[b];
  const double radius = world.root_radii[b];
  const bool has_root = world.has_root[static_cast<std::size_t>(b)];
  const unsigned char* allowed = world.scene_allowed[m].data();
  const bool flat = flat_broad_phase(world.obstacle_spheres, center);
  const auto collides = [&](int o) {
    const int k = o - world.obstacle_begin;
    if (allowed[k]) return false;
    // The root sphere against the primitive itself where the broad phase only knew its bounding
    // sphere: most near misses end here, before any traversal is set up. (The flat broad phase
    // tested boxes and cylinders so already, in single precision: the tiers below are exact.)
    const CollisionWorld::ObstacleFrame& frame = world.obstacle_frames[k];
    if (has_root && frame.shape && !(flat && frame.culled_as_solid) &&
        solid_point_distance(*frame.shape, frame.to_local * (center - frame.origin)) - radius >
            padding)
      return false;
    // Then the body's sphere cover against it: a link beside a shelf board is proven clear here
    // without a tree walk. The body placed in the obstacle's frame serves the witnesses too.
    const BodyInObstacle placed = body_in_obstacle(world, state, m, frame);
    if (cover_clear_of_obstacle(world, m, frame, placed, padding)) return false;
    if (covers_decide && cover_decides(world, state, m, frame)) return true;
    // The axis that last proved the body's hull apart from the obstacle (the exact tier's GJK
    // records it): the next state along an edge is nearly the same pose, and two support climbs
    // along that axis usually prove it again without the sphere walk or GJK.
    const auto exact_tier = [&] {
      if (!deferred) return pair_in_collision(world, state, b, o, padding, margin);
      deferred->push_back({m, o, padding});
      return false;
    };
    if (state.scene_hull_hint.empty())
      return witness_within(world, m, frame, placed, padding) || exact_tier();
    const CollisionBody& body = *world.bodies[static_cast<std::size_t>(b)].body;
    const CollisionBody& obstacle = *world.bodies[static_cast<std::size_t>(o)].body;
    const std::size_t pair =
        m * static_cast<std::size_t>(world.body_count() - world.obstacle_begin) +
        static_cast<std::size_t>(k);
    HullHint& hint = state.scene_hull_hint[pair];
    // A vertex of the body's meshes within the padding: colliding, as the exact tier would say.
    // Before the kept axis: a pair that gets this far (its cover not clear) collides more often
    // than the axis proves it apart (the cage: the axis failed in four of five tries).
    if (witness_within(world, m, frame, placed, padding)) return true;
    if (hull_axis_apart(body, state.pose(b), obstacle, state.pose(o), padding, hint)) return false;
    return exact_tier();
  };
  return any_obstacle_near(world.obstacle_spheres, world.obstacle_tree, world.unbounded_obstacles,
                           center, radius, padding, collides);
}

namespace {
// The exact tier for a pair slot_near_scene deferred.
bool exact_scene_pair(const CollisionWorld& world, const CollisionState& state,
                      const DeferredScenePair& pair, double margin) {
  const int b = world.moving_bodies[pair.slot];
  if (state.scene_hull_hint.empty())
    return pair_in_collision(world, state, b, pair.obstacle, pair.padding, margin);
  HullHint& hint =
      state.scene_hull_hint[pair.slot * static_cast<std::size_t>(world.body_count() -
                                                                 world.obstacle_begin) +
                            static_cast<std::size_t>(pair.obstacle - world.obstacle_begin)];
  const CollisionBody& body = *world.bodies[static_cast<std::size_t>(b)].body;
  const CollisionBody& obstacle = *world.bodies[static_cast<std::size_t>(pair.obstacle)].body;
  const Pose &pose = state.pose(b), &obstacle_pose = state.pose(pair.obstacle);
  // A pair deferred here is near: its kept axis failed and no witness lay inside. Where the hulls
  // can prove it apart, GJK on them decides at once and the leaves after them, exactly: the sphere
  // walk of the refinement-margin tier left 68% of the cage's such pairs undecided, at 1,500
  // cycles each, before that same GJK.
  // Where the hulls touch, a cage's bar holds one of the hull's vertices (a vertex of the mesh)
  // in about half the pairs: the scan of all of them proves those colliding for a few hundred
  // cycles, where the leaves' triangle tests took about 4,700.
  if (hull_proof_applies(body, obstacle) && leaf_exact_supported(body, obstacle))
    return !hulls_apart(body, pose, obstacle, obstacle_pose, pair.padding, &hint,
                        /*kept_axis_tried=*/true) &&
           (hull_vertex_within(world, state, pair.slot,
                               world.obstacle_frames[static_cast<std::size_t>(
                                   pair.obstacle - world.obstacle_begin)],
                               pair.padding) ||
            leaf_exact_collision(body, pose, obstacle, obstacle_pose, pair.padding));
  return kinetic::pair_in_collision(body, pose, obstacle, obstacle_pose, pair.padding, margin,
                                    false, &hint);
}
}  // namespace

bool slot_root_clear(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                     double base_padding, double extra, double& gap) {
  const double padding = base_padding + extra;
  const int b = world.moving_bodies[m];
  gap = -kInf;
  if (world.scene_reach_gap[m] > padding) return true;
  if (!world.has_root[static_cast<std::size_t>(b)]) return false;
  const Vector3& center = state.bound_centers[b];
  const double radius = world.root_radii[b];
  const unsigned char* allowed = world.scene_allowed[m].data();
  const auto near = [&](int o) {
    const int k = o - world.obstacle_begin;
    if (allowed[k]) return false;
    const CollisionWorld::ObstacleFrame& frame = world.obstacle_frames[k];
    if (!frame.shape) return true;
    const double clearance =
        solid_point_distance(*frame.shape, frame.to_local * (center - frame.origin)) - radius;
    if (clearance > padding) return false;
    if (cover_clear_of_obstacle(world, state, m, frame, padding)) return false;
    gap = clearance - base_padding;
    return true;
  };
  return !any_obstacle_near(world.obstacle_spheres, world.obstacle_tree, world.unbounded_obstacles,
                            center, radius, padding, near);
}

bool scene_in_collision(const CollisionWorld& world, const CollisionState& state,
                        double base_padding, const double* extra_padding, bool exact,
                        SlotMask slots, bool covers_decide) {
  const double margin = exact ? 0.0 : world.options.refinement_margin;
  // The bodies that collided most recently first: the next state checked is usually nearby
  // (along an edge, or the search's next step), and the same body hits first again, where the
  // bodies before it would have been proven clear for nothing; when another body hits, it is
  // most often one that hit a little earlier (in the cage the wrist and the hand take turns). The
  // verdict is the same in any order. (From the last hit on round the slots in index order
  // instead: the same searches, 1.7% more instructions in the cage's, 1.9% more planning over
  // every fifth MotionBenchMaker problem.)
  // The exact tier's pairs wait until every body has had its cheap tests: in a blocked state
  // another body often has a witness deep in an obstacle, which ends the check at once.
  std::vector<std::uint32_t>& order = state.scene_order;
  if (order.size() != world.moving_bodies.size()) {  // a state not reset for this world
    order.resize(world.moving_bodies.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = static_cast<std::uint32_t>(order.size() - 1 - i);
  }
  const auto hit = [&](std::size_t i) {  // order[i] collided: to the front
    const std::uint32_t m = order[i];
    for (; i > 0; --i) order[i] = order[i - 1];
    order[0] = m;
    return true;
  };
  std::vector<DeferredScenePair>& deferred = state.deferred_scene;
  deferred.clear();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t m = order[i];
    if ((slots & slot_bit(m)) &&
        slot_near_scene(world, state, m, base_padding + (extra_padding ? extra_padding[m] : 0.0),
                        margin, covers_decide, &deferred))
      return hit(i);
  }
  for (const DeferredScenePair& pair : deferred)
    if (exact_scene_pair(world, state, pair, margin))
      return hit(static_cast<std::size_t>(std::find(order.begin(), order.end(), pair.slot) -
                                          order.begin()));
  return false;
}

bool in_collision(const CollisionWorld& world, CollisionState& state, const JointVector& q,
                  const CheckOptions& options) {
  update_poses(world, state, q);
  return in_collision_at_poses(world, state, options);
}

bool in_collision_at_poses(const CollisionWorld& world, const CollisionState& state,
                           const CheckOptions& options) {
  // Obstacles first: in a cluttered scene they decide most states, and the broad phase makes a
  // clear scene cheap to rule out.
  if (options.scene && scene_in_collision(world, state, world.padding_for(false, options), nullptr,
                                          options.exact, kAllSlots, options.covers_decide))
    return true;
  return options.self && self_in_collision(world, state, world.padding_for(true, options), nullptr,
                                           nullptr, false, kAllSlots, nullptr, options.exact);
}

}  // namespace kinetic
