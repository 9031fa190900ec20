#pragma once
// Collision of one configuration against a CollisionWorld, in two tiers (sphere trees and convex
// hulls, then exact geometry for the pairs they cannot decide), with the per-thread state it
// works in: the bodies' poses at the configuration and, per self pair, what last proved it apart.
// One CollisionState per thread; the world is shared. The grid, path and distance queries build
// on these checks.
#include <cstdint>
#include <vector>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_world.hpp"

namespace kinetic {

// A slot and obstacle the cheap tiers left to the exact one (scene_in_collision runs it last).
struct DeferredScenePair {
  std::size_t slot;
  int obstacle;
  double padding;
};

struct CollisionState {
  std::vector<Pose> link_poses;
  std::vector<Pose> body_poses;        // attached objects and obstacles (links: link_poses)
  std::vector<Vector3> bound_centers;  // world centre of each body's root sphere
  // Per self pair, what last proved its convex hulls apart: the next state along an edge is
  // nearly the same pose, and one axis test from the same vertices usually proves it again.
  // (Hints only speed the next proof up, whatever they hold: checks that are const otherwise keep
  // them.)
  mutable std::vector<HullHint> self_hull_hint;
  // The same per moving slot and obstacle ([slot * obstacles + obstacle]; empty where a scene has
  // so many obstacles that they would not fit kMaxSceneHullHints).
  mutable std::vector<HullHint> scene_hull_hint;
  // The moving slots in the order the scene check visits them: the last one to collide with the
  // scene first, then the one before it, ... (the distal slots first until they have collided).
  mutable std::vector<std::uint32_t> scene_order;
  // scene_in_collision's pairs for the exact tier (kept to reuse the allocation).
  mutable std::vector<DeferredScenePair> deferred_scene;
  int attached_begin = 0;
  // The covers' spheres in the world frame (cover_check.cpp), placed per slot when first needed
  // after a pose update: the slot's stamp then equals pose_stamp.
  mutable std::vector<float> cover_x, cover_y, cover_z;
  mutable std::vector<std::uint32_t> cover_stamp;
  mutable std::vector<unsigned char> cover_usable;
  std::uint32_t pose_stamp = 1;
  // The configuration the poses were computed from (update_poses), where q_stamp == pose_stamp:
  // the self pairs' tables are looked up by it.
  JointVector q;
  std::uint32_t q_stamp = 0;

  // Sizes the buffers for `world` (the obstacles' poses from it, the robot at its zero pose).
  void reset(const CollisionWorld& world);
  const Pose& pose(int body) const {
    return body < attached_begin ? link_poses[static_cast<std::size_t>(body)]
                                 : body_poses[static_cast<std::size_t>(body)];
  }
};

// FK of q into the state's poses, then the attached objects' poses and the root-sphere centres.
void update_poses(const CollisionWorld& world, CollisionState& state, const JointVector& q);

// update_poses(q), then in_collision_at_poses.
bool in_collision(const CollisionWorld& world, CollisionState& state, const JointVector& q,
                  const CheckOptions& options);
// At the state's current poses (after update_poses): the scene first, then the self pairs.
bool in_collision_at_poses(const CollisionWorld& world, const CollisionState& state,
                           const CheckOptions& options);

// extra (null: none): per self pair, added to its padding; part_extra: the same per part pair of
// the solid plans (indexed from solid_part_begin).
// proof_only: true unless every pair is proven clear by a cheap tier (mesh pairs by their convex
// hulls alone, solid parts as always): a run proof (grid_motion_free) that fails only splits the
// run, so it must not pay for sphere walks and triangles under a padding that spans the whole run.
// pairs: only the self pairs of this mask (slot_bit of the pair's index) are checked.
// unproven (null: none): set to the pairs not proven clear, the one found in collision and those
// not looked at yet (a run proof's halves then check only those).
bool self_in_collision(const CollisionWorld& world, const CollisionState& state, double padding,
                       const double* extra = nullptr, const double* part_extra = nullptr,
                       bool proof_only = false, std::uint64_t pairs = ~std::uint64_t{0},
                       std::uint64_t* unproven = nullptr, bool exact = false);
// Self pair k at the state's poses; extra is added to the padding, part_extra per part pair instead
// for a solid plan.
// exact: without the refinement margin (CheckOptions::exact).
bool self_pair_in_collision(const CollisionWorld& world, const CollisionState& state,
                            std::size_t pair, double padding, double extra = 0.0,
                            const double* part_extra = nullptr, bool proof_only = false,
                            bool exact = false);
// Whether moving slot m's body comes within `padding` of an obstacle; with a refinement `margin`
// > 0, a sphere-tier answer within padding + margin counts as near too. covers_decide: a body
// with a sphere cover is near wherever its cover is (CheckOptions::covers_decide). deferred
// (null: none): pairs the cheap tiers leave open are added to it, not decided (false for them).
bool slot_near_scene(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                     double padding, double margin, bool covers_decide = false,
                     std::vector<DeferredScenePair>* deferred = nullptr);
// extra_padding: per moving slot, added to `padding` (null: none). exact: no refinement margin
// (no false positives, for continuous checks that must not call a near miss contact). Only the
// bodies of `slots` are checked. covers_decide: as in slot_near_scene.
bool scene_in_collision(const CollisionWorld& world, const CollisionState& state, double padding,
                        const double* extra_padding = nullptr, bool exact = false,
                        SlotMask slots = kAllSlots, bool covers_decide = false);
// Whether slot m's root sphere clears every obstacle by `padding` + `extra`: a proof of the scene
// that never descends into sphere trees, so failing costs little. False also where it cannot tell
// cheaply (an obstacle of several parts or a mesh). gap: set on false to the failing root
// sphere's clearance minus `padding` (negative: it lies within the padding already, and proofs of
// nearby states will fail too; -infinity where it could not tell).
bool slot_root_clear(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                     double padding, double extra, double& gap);
// Both tiers for one pair of bodies at the state's poses (self pairs through their plans).
bool pair_in_collision(const CollisionWorld& world, const CollisionState& state, int a, int b,
                       double padding);
bool pair_in_collision(const CollisionWorld& world, const CollisionState& state, int a, int b,
                       double padding,
                       double margin);  // margin 0: exact

}  // namespace kinetic
