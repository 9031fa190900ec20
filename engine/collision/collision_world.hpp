#pragma once
// CollisionWorld: everything about a robot in a scene that no query changes: the bodies (robot
// links, attached objects, obstacles) with their sphere trees and exact geometry, which pairs are
// checked, the obstacles' broad phase, and the tables the motion checks step by (how fast each
// body and pair can move per joint, the part plans of solid pairs). Built once per robot + scene
// (build_collision_world) and immutable after, as Pinocchio's Model: any number of threads share
// one, each with its own query state (CollisionState for state checks, GridCheckState,
// PathCheckState, DistanceState), as Pinocchio's Data.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/collision/allowed_collision_matrix.hpp"
#include "engine/collision/check_options.hpp"
#include "engine/collision/collision_body.hpp"
#include "engine/collision/leaf_exact.hpp"
#include "engine/collision/obstacle_tree.hpp"
#include "engine/collision/sphere_set.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

// Moving slots (robot links with geometry, attached objects) as bits of a mask: the bodies a
// scene check covers, or a proof still has to cover. Slots from 63 on share bit 63. Self pairs
// are named in masks the same way.
using SlotMask = std::uint64_t;
inline constexpr SlotMask kAllSlots = ~SlotMask{0};
inline SlotMask slot_bit(std::size_t m) {
  return SlotMask{1} << std::min<std::size_t>(m, 63);
}

class SelfPairTable;
struct LaneModel;

struct CollisionWorld {
  struct BodySlot {
    std::shared_ptr<const CollisionBody> body;
    int link = -1;  // pose = link pose * offset; -1: fixed in the world
    Pose offset = Pose::Identity();
    bool moving() const { return link >= 0; }
  };
  // (body index, variable, speed factor): |d point| <= factor * |d q_variable|
  struct SpeedTerm {
    int joint;  // a joint moving both bodies of a pair moves them rigidly: no closing speed
    int variable;
    double factor;
    // The whole body's rotation_speed about the joint's axis when that axis is fixed in the
    // body's frame (the joint moves the body's link, or a link it is fixed to), else infinite.
    double own_turn = std::numeric_limits<double>::infinity();
  };
  // Per obstacle (index - obstacle_begin): world -> shape frame and the shape, for obstacles of
  // one solid primitive (shape null otherwise). A link's root sphere is tested against the shape
  // itself before any traversal starts.
  struct ObstacleFrame {
    Eigen::Matrix3d to_local = Eigen::Matrix3d::Identity();
    Vector3 origin = Vector3::Zero();
    // to_local's columns and to_local * origin, each padded to four doubles (body_in_obstacle).
    alignas(32) double local_columns[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    alignas(32) double local_origin[4] = {0, 0, 0, 0};
    const Shape* shape = nullptr;
    bool culled_as_solid = false;  // the flat broad phase tests it by its shape (SphereSet::Solid)
    // Radius of the smallest ball that holds the shape (0 for a half-space): a shape wider than
    // a body cannot lie inside it, which the body's inner spheres need.
    double enclosing_radius = 0.0;
  };
  // A self pair the continuous path check watches. Bodies of several solid primitives are
  // watched part against part (part_a/part_b >= 0): a part near a joint's axis moves slowly,
  // where the whole body's bound is set by its far end.
  struct PathPair {
    int a, b;
    int part_a = -1, part_b = -1;  // -1: the whole body
    bool solid = false;            // both bodies are made of boxes, cylinders and spheres only
  };
  static constexpr std::size_t kMaxSplitPartPairs = 16;  // bodies with more are watched whole
  // Self pairs of bodies made of a few boxes, cylinders and spheres are checked part against part
  // (exact, no sphere walk: such pairs sit millimetres apart in every pose of a built-in arm), and
  // part pairs no joint moves relative to each other carry their one distance (pair_motion.cpp).
  static constexpr std::size_t kMaxSolidPlanPairs = 16;

  RobotModelPtr model;
  CollisionCheckerOptions options;
  std::shared_ptr<const ForwardKinematics> fk;
  AllowedCollisionMatrix robot_acm;  // the robot's own (adjacent, SRDF, kinetic.toml)
  PlanningScene scene;   // as given (its overrides are re-applied with a new robot matrix)
  std::uint64_t id = 0;  // unique per built world: a path check begun on one ends on it

  std::vector<BodySlot> bodies;  // robot links (link index), attached objects, obstacles
  int attached_begin = 0, obstacle_begin = 0;
  AllowedCollisionMatrix acm;  // all bodies
  // Poses and root-sphere centres of the obstacles (index >= obstacle_begin; the rest identity):
  // the start of every query state's buffers.
  std::vector<Pose> fixed_poses;
  std::vector<Vector3> fixed_bound_centers;
  std::vector<Vector3> local_root_centers;  // root-sphere centre of each body in its own frame
  std::vector<double> root_radii;           // and its radius
  // Per body: it has a sphere tree, so a root sphere (read here, every body's flag on a line or
  // two, rather than through each body: the scene check asks it of every slot in every state).
  std::vector<unsigned char> has_root;
  double robot_padding = 0.0;

  std::vector<std::pair<int, int>>
      self_pairs;  // robot-robot pairs checked (not allowed, both with geometry)
  // The same pairs as flat arrays for the root-sphere cull: body indices and summed root radii.
  std::vector<int> self_first, self_second;
  std::vector<double> self_reach;
  std::vector<int> self_pair_of;   // [a * obstacle_begin + b], a < b -> self pair index or -1
  std::vector<int> moving_bodies;  // robot links with geometry and attached objects
  std::vector<int> slot_of_body;   // body index -> moving slot, -1 for obstacles and empty bodies
  // The moving slots' sphere covers (cover_check.hpp), flat in single precision, in the body
  // frame: slot m's spheres are [cover_begin[m], cover_begin[m + 1]). Radii carry a slack for
  // the rounding of single precision.
  std::vector<std::size_t> cover_begin;
  std::vector<float> cover_x, cover_y, cover_z, cover_r;
  // The moving slots' witness points (witness_check.hpp), flat in single precision in the body
  // frame: slot m's are [witness_begin[m], witness_begin[m + 1]).
  std::vector<std::size_t> witness_begin;
  std::vector<float> witness_x, witness_y, witness_z;
  // All the candidates the witnesses were chosen from (every hull vertex, the solids' points),
  // the same way: slot m's are [vertex_begin[m], vertex_begin[m + 1]). Scanned only for pairs
  // whose hulls touch (hull_vertex_within).
  std::vector<std::size_t> vertex_begin;
  std::vector<float> vertex_x, vertex_y, vertex_z;
  // The moving slots' inner spheres (inner_spheres.hpp), the same way: slot m's are
  // [inner_begin[m], inner_begin[m + 1]).
  std::vector<std::size_t> inner_begin;
  std::vector<float> inner_x, inner_y, inner_z, inner_r;
  // Per moving slot, for self pairs (self_contact_witnessed): whether its witnesses all lie on
  // one closed mesh of one piece, the body's only part.
  std::vector<unsigned char> witnesses_on_one_surface;
  std::vector<std::vector<unsigned char>> scene_allowed;  // [moving slot][obstacle]
  // Per moving slot, a lower bound on its root sphere's distance to every obstacle it may touch
  // in any configuration (slot_reach.hpp): a scene check padded by less skips the slot.
  std::vector<double> scene_reach_gap;
  std::vector<ObstacleFrame> obstacle_frames;
  ObstacleTree obstacle_tree;  // bounded obstacles (broad phase)
  SphereSet obstacle_spheres;  // the same, flat: the broad phase for up to a few hundred of them
  std::vector<int> unbounded_obstacles;  // half-spaces

  // Motion tables (pair_motion.cpp).
  std::vector<std::vector<SpeedTerm>> speed_terms;  // per body
  // [moving slot * dof + variable]: how fast the slot's body can move, per unit of the variable.
  std::vector<double> body_speed_table;
  // Closing speeds per unit of each variable's motion: [self pair * dof + variable], and
  // [solid part pair * dof + variable].
  std::vector<double> self_speed_table, solid_part_speed_table;
  std::vector<std::vector<SolidPartPair>> solid_plans;  // per self pair; empty: not solid
  // Per self pair, the first of its part pairs in the flat per-part-pair arrays (size pairs + 1).
  std::vector<std::size_t> solid_part_begin;
  bool self_pairs_solid = false;  // every self pair has a solid plan
  // Per self pair, the table of its distance over the one or two variables it depends on
  // (self_pair_table.hpp); null for the others.
  std::vector<std::shared_ptr<const SelfPairTable>> self_tables;
  // Every self pair (or its part pairs) as the continuous path check watches it, and per watched
  // pair and variable its closing speed coefficient.
  std::vector<PathPair> path_pairs;
  std::vector<double> path_speed_coefficients;
  // The robot's kinematics for the lane check (lane_check.hpp); null where the lanes cannot serve
  // this world, and the motion checks go state by state.
  std::shared_ptr<const LaneModel> lanes;

  int body_count() const { return static_cast<int>(bodies.size()); }
  int robot_body_count() const { return static_cast<int>(model->links().size()); }
  bool has_obstacles() const { return obstacle_begin < body_count(); }
  const std::string& body_name(int index) const {
    return bodies[static_cast<std::size_t>(index)].body->name;
  }
  const CollisionBody& body(int index) const {
    return *bodies[static_cast<std::size_t>(index)].body;
  }
  // The padding a pair keeps: a scene pair the robot's padding plus the check's, a self pair
  // both bodies' (the check's only with pad_self).
  double padding_for(bool self_pair, const CheckOptions& options) const;
  // Per row of a speed table ([row * dof + variable]): how fast it moves along dq (sum of
  // coefficient * |dq_variable|), into out (size rows).
  void speeds_along(const std::vector<double>& table, std::size_t rows, const JointVector& dq,
                    std::vector<double>& out) const;
};

// A world for `model` in `scene` with the robot's matrix `robot_acm`. Throws Error(MissingLink)
// for an object attached to an unknown link, Error(MissingMesh) for unreadable meshes,
// Error(InvalidValue) for an object named like a link. previous (may be null): a world of the
// same model whose link bodies, kinematics and unchanged primitive objects are reused (a scene
// change then costs what changed).
std::shared_ptr<const CollisionWorld> build_collision_world(
    RobotModelPtr model, const CollisionCheckerOptions& options,
    const AllowedCollisionMatrix& robot_acm, const PlanningScene& scene,
    const CollisionWorld* previous = nullptr);

}  // namespace kinetic
