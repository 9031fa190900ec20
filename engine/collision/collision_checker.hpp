#pragma once
// CollisionChecker: self and scene collision of a robot, in two tiers (sphere trees, then FCL for
// the pairs the spheres cannot decide). Queries: in collision (early exit), all contacts with
// penetration depth, minimum distance with closest points, motion validation.
//
// Thread safety: one checker per thread. A checker owns its pose buffers and mutates them in
// every query (that keeps queries allocation-free); the bodies it shares with its copies are
// immutable. Copy a checker to give another thread its own (cheap: geometry is shared).
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/collision/allowed_collision_matrix.hpp"
#include "engine/collision/body_pair.hpp"
#include "engine/collision/leaf_exact.hpp"
#include "engine/collision/obstacle_tree.hpp"
#include "engine/collision/sphere_set.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

struct CollisionCheckerOptions {
  SphereResolution resolution = SphereResolution::Default;
  // Sphere pairs proving two bodies within padding + refinement_margin report a collision without
  // FCL; false positives are therefore within this distance. 0 = exact answers only.
  double refinement_margin = 0.005;
};

struct CheckOptions {
  double padding = 0.0;  // m, added around every robot body on top of the robot's own padding
  bool self = true;
  bool scene = true;
  // false: `padding` keeps the robot clear of the scene only; links among themselves keep just
  // the robot's own padding (a planning margin is clearance from obstacles).
  bool pad_self = true;
};

struct Contact {
  std::string body_a, body_b;
  double depth = 0.0;  // penetration depth (m); within padding: padding - distance
};

struct DistanceResult {
  double distance = 0.0;  // geometric distance (no padding); <= 0 when intersecting
  std::string body_a, body_b;
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();  // world frame
  bool exact = true;      // false: sphere lower bound only (DistanceOptions::exact = false)
  bool found = false;     // false when there is no pair to measure
};

struct DistanceOptions {
  bool self = true;
  bool scene = true;
  bool exact = true;
};

class CollisionChecker {
 public:
  explicit CollisionChecker(RobotModelPtr model, CollisionCheckerOptions options = {});

  const RobotModel& model() const { return *model_; }
  const CollisionCheckerOptions& options() const { return options_; }

  // Takes the scene's obstacles, attached objects and pair overrides (throws Error(MissingLink)
  // for an object attached to an unknown link, Error(MissingMesh) for unreadable meshes).
  void set_scene(const PlanningScene& scene);
  // The robot's matrix (adjacent, SRDF, kinetic.toml); edits apply to later queries.
  const AllowedCollisionMatrix& robot_acm() const { return robot_acm_; }
  void set_robot_acm(const AllowedCollisionMatrix& acm);

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
  // ends (grid_motion_check.cpp).
  // first_step (0 < first_step < steps): that state is checked before all others, where the
  // caller expects a collision (the verdict is the same). After false, grid_blocked_step() is the
  // state found in collision.
  bool grid_motion_free(const JointVector& q0, const JointVector& q1, int steps, const CheckOptions& options = {},
                        int first_step = 0);
  int grid_blocked_step() const { return grid_blocked_step_; }
  // Self collision only, by conservative advancement per pair (continuous_path_check.cpp): a
  // pair is looked at again only once its clearance at the last look, divided by its closing
  // speed along dq, is used up. True proves that no checked pair comes closer than
  // (self padding - tolerance) anywhere on the segment and both ends pass in_collision's self
  // test; false means some state on the segment (an end or a state looked at) fails that test.
  // options.scene is ignored; padding and pad_self mean what they mean in in_collision.
  bool self_motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                    const CheckOptions& options = {}, double tolerance = 1e-3);
  // Continuous check along a path, one segment at a time, for the self pairs and/or the scene
  // as options select (continuous_path_check.cpp). Self pairs by conservative advancement: a
  // pair's clearance left at a waypoint carries into the next segment, so far pairs are not
  // looked at again per segment (as self_motion_valid_continuous). The scene by adaptive
  // bisection with padded states: no body comes closer than its padding to an obstacle, and a
  // body within the tolerance of one anywhere on the segment counts as contact. begin() checks
  // the first state with in_collision; each advance() checks the segment from the last state to
  // q, and q itself with in_collision. False: that segment (or q) fails; path_contact() then
  // names the pair that failed on the segment (empty when q itself failed in_collision).
  bool path_begin(const JointVector& q, const CheckOptions& options = {}, double tolerance = 1e-3);
  bool path_advance(const JointVector& q);
  struct PathContact {
    std::string body_a, body_b;
    bool scene = false;  // body_b is an obstacle
  };
  const PathContact& path_contact() const { return path_contact_; }
  // path_begin/path_advance for self pairs only (options.scene ignored).
  bool self_path_begin(const JointVector& q, const CheckOptions& options = {}, double tolerance = 1e-3);
  bool self_path_advance(const JointVector& q) { return path_advance(q); }

  // Lower-level access (ACM generator, tests, benchmarks).
  void update(const JointVector& q);  // FK into the pose buffer
  int body_count() const { return static_cast<int>(bodies_.size()); }
  int robot_body_count() const { return static_cast<int>(model_->links().size()); }
  const CollisionBody& body(int index) const { return *bodies_[index].body; }
  // The same body, kept alive for a caller after the checker's scene changes.
  std::shared_ptr<const CollisionBody> shared_body(int index) const { return bodies_[index].body; }
  const std::string& body_name(int index) const { return bodies_[index].body->name; }
  const Pose& body_pose(int index) const { return pose(index); }
  const std::vector<Pose>& link_poses() const { return link_poses_; }
  // Both tiers for one pair at the current poses (after update()).
  bool pair_in_collision(int a, int b, double padding = 0.0) const;
  bool pair_in_collision(int a, int b, double padding, double margin) const;  // margin 0: exact
  // Robot-robot pairs checked for self collision (not allowed, both with geometry).
  const std::vector<std::pair<int, int>>& self_pairs() const { return self_pairs_; }

 private:
  struct BodySlot {
    std::shared_ptr<const CollisionBody> body;
    int link = -1;                 // pose = link pose * offset; -1: fixed in the world
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

  const Pose& pose(int body) const { return body < attached_begin_ ? link_poses_[body] : body_poses_[body]; }
  void rebuild_pairs();
  void update_body_poses();
  double padding_for(bool self_pair, const CheckOptions& options) const;
  // extra (null: none): per self pair, added to its padding; part_extra: the same per part pair
  // of the solid plans (indexed from solid_part_begin_).
  // proof_only: true unless every pair is proven clear by a cheap tier (mesh pairs by their
  // convex hulls alone, solid parts as always): a run proof (grid_motion_free) that fails only
  // splits the run, so it must not pay for sphere walks and triangles under a padding that spans
  // the whole run.
  // pairs: only the self pairs of this mask (slot_bit of the pair's index) are checked.
  // unproven (null: none): set to the pairs not proven clear, the one found in collision and
  // those not looked at yet (a run proof's halves then check only those).
  bool self_in_collision(double padding, const double* extra = nullptr, const double* part_extra = nullptr,
                         bool proof_only = false, std::uint64_t pairs = ~std::uint64_t{0},
                         std::uint64_t* unproven = nullptr) const;
  // Moving slots (robot links with geometry, attached objects) as bits of a mask: the bodies a
  // scene check covers, or a proof still has to cover. Slots from 63 on share bit 63. Self
  // pairs are named in masks the same way.
  using SlotMask = std::uint64_t;
  static constexpr SlotMask kAllSlots = ~SlotMask{0};
  static SlotMask slot_bit(std::size_t m) { return SlotMask{1} << std::min<std::size_t>(m, 63); }
  // Whether moving slot m's body comes within `padding` of an obstacle; with a refinement
  // `margin` > 0, a sphere-tier answer within padding + margin counts as near too.
  bool slot_near_scene(std::size_t m, double padding, double margin) const;
  // extra_padding: per moving slot, added to `padding` (null: none). exact: no refinement
  // margin (no false positives, for continuous checks that must not call a near miss contact).
  // Only the bodies of `slots` are checked.
  bool scene_in_collision(double padding, const double* extra_padding = nullptr, bool exact = false,
                          SlotMask slots = kAllSlots) const;
  // Whether slot m's root sphere clears every obstacle by `padding` + `extra`: a proof of the
  // scene that never descends into sphere trees, so failing costs little. False also where it
  // cannot tell cheaply (an obstacle of several parts or a mesh).
  // gap: set on false to the failing root sphere's clearance minus `padding` (negative: it
  // lies within the padding already, and proofs of nearby states will fail too; -infinity where
  // it could not tell).
  bool slot_root_clear(std::size_t m, double padding, double extra, double& gap) const;
  // Continuous check along q0 + t * dq, t in [0, 1] (path_advance), of the scene when the path
  // options ask for it and of the self pairs when `self`: adaptive bisection, an interval proven
  // free when its middle state keeps every moving body clear of the scene by padding + how far the
  // body can move in half the interval (its speed terms, at most its own turning speed per joint),
  // and every self part pair clear by padding + how far it can close in half the interval (as
  // grid_motion_free proves runs; only for self pairs all of solid parts, whose verdicts are
  // exact). Fails when some body comes within `tolerance` of an obstacle, or a self pair fails
  // in_collision's test where no pair can close by the tolerance; path_contact_ then names the pair.
  bool segment_free(const JointVector& q0, const JointVector& dq, double tolerance, bool self);
  void compute_speed_terms();

  RobotModelPtr model_;
  CollisionCheckerOptions options_;
  std::shared_ptr<const ForwardKinematics> fk_;
  AllowedCollisionMatrix robot_acm_;
  std::vector<BodySlot> bodies_;  // robot links (link index), attached objects, obstacles
  int attached_begin_ = 0, obstacle_begin_ = 0;
  PlanningScene scene_;  // as last set (overrides are re-applied when the robot matrix changes)
  AllowedCollisionMatrix acm_;  // all bodies
  std::vector<std::pair<int, int>> self_pairs_;
  // The same pairs as flat arrays for the root-sphere cull: body indices and summed root radii.
  std::vector<int> self_first_, self_second_;
  std::vector<double> self_reach_;
  // Per obstacle (index - obstacle_begin_): world -> shape frame and the shape, for obstacles of
  // one solid primitive (shape null otherwise). A link's root sphere is tested against the shape
  // itself before any traversal starts.
  struct ObstacleFrame {
    Eigen::Matrix3d to_local = Eigen::Matrix3d::Identity();
    Vector3 origin = Vector3::Zero();
    const Shape* shape = nullptr;
  };
  std::vector<ObstacleFrame> obstacle_frames_;
  std::vector<int> moving_bodies_;          // robot links with geometry and attached objects
  std::vector<std::vector<unsigned char>> scene_allowed_;  // [moving slot][obstacle]
  std::vector<std::vector<SpeedTerm>> speed_terms_;         // per body
  ObstacleTree obstacle_tree_;                              // bounded obstacles (broad phase)
  SphereSet obstacle_spheres_;  // the same, flat: the broad phase for up to kFlatBroadPhase of them
  std::vector<int> unbounded_obstacles_;                    // half-spaces
  double robot_padding_ = 0.0;

  // Per-query buffers (allocation-free hot path).
  std::vector<Pose> link_poses_;
  std::vector<Pose> body_poses_;          // attached objects and obstacles (links: link_poses_)
  std::vector<Vector3> local_root_centers_;  // root-sphere centre of each body in its own frame
  std::vector<double> root_radii_;           // and its radius
  std::vector<Vector3> bound_centers_;  // world centre of each body's root sphere
  struct Candidate {
    double lower;
    int a, b;
  };
  std::vector<Candidate> candidates_;
  // Per self pair, what last proved its convex hulls apart (HullHint): the next state along an
  // edge is nearly the same pose, and one axis test from the same vertices usually proves it again.
  mutable std::vector<HullHint> self_hull_hint_;
  // Continuous check along a path (path_begin): the self pairs it watches, per pair the
  // clearance budget (m beyond padding, plus the tolerance) at the path parameter of its last
  // look along the current segment. Bodies of several solid primitives are watched part against
  // part (part_a/part_b >= 0): a part near a joint's axis moves slowly, where the whole body's
  // bound is set by its far end.
  struct PathPair {
    int a, b;
    int part_a = -1, part_b = -1;  // -1: the whole body
    bool solid = false;            // both bodies are made of boxes, cylinders and spheres only
  };
  // Every self pair (built with the pairs in rebuild_pairs; scene pairs are not watched one by
  // one: segment_free proves a segment for all of them at once, and for the self pairs too when
  // self_pairs_solid_). The budgets of a path check cover all of them when it watches self pairs
  // one by one, none otherwise.
  std::vector<PathPair> path_pairs_;
  std::vector<double> path_budget_, path_look_t_, path_speed_;
  // Per pair and variable: the pair's closing speed is the sum of these times |dq_variable|.
  std::vector<double> path_speed_coefficients_;
  void add_path_pairs(int a, int b);  // appends a self pair
  // [moving slot * dof + variable]: how fast the slot's body can move, per unit of the variable.
  std::vector<double> body_speed_table_;
  std::vector<double> segment_speeds_, segment_padding_;      // per moving slot (segment_free)
  struct SegmentInterval {
    double t0, t1;
    SlotMask bodies;  // the bodies still to prove clear of the scene on [t0, t1]
    bool self;        // the self pairs are still to prove there
  };
  std::vector<SegmentInterval> segment_intervals_;  // still to prove
  static constexpr std::size_t kMaxSplitPartPairs = 16;  // bodies with more are watched whole
  // pair_motion.cpp: per variable, how fast part part_a of body a and part part_b of body b (-1:
  // the whole body) can close in per unit of that variable's motion, added into `coefficients`
  // (self false: a's own motion only; b an obstacle, or -1 for none).
  void add_pair_speeds(int a, int part_a, int b, int part_b, bool self, double* coefficients) const;
  double part_reach(int body, int part) const;  // bound on the part's distance from its link origin
  // Per row of a speed table ([row * dof + variable]): how fast it moves along dq (sum of
  // coefficient * |dq_variable|), into out (size rows).
  void speeds_along(const std::vector<double>& table, std::size_t rows, const JointVector& dq,
                    std::vector<double>& out) const;
  // Bound on how fast turning `joint` (which moves `body` but not `other`, -1: a fixed obstacle)
  // changes the distance between a part of each (-1: the whole body), per unit of the joint's
  // motion, from rotation_speed(): the joint's axis is fixed in the frame of the link it moves
  // and of its parent link. Infinite when neither body is rigidly fixed to either link.
  double turning_speed(const SpeedTerm& term, int body, int part, int other, int other_part) const;
  // Pose of `link`'s frame in `ancestor`'s frame when only fixed joints lie between them.
  std::optional<Pose> fixed_offset(int link, int ancestor) const;
  // Self pairs of bodies made of a few boxes, cylinders and spheres are checked part against part
  // (exact, no sphere walk: such pairs sit millimetres apart in every pose of a built-in arm), and
  // part pairs no joint moves relative to each other carry their one distance (pair_motion.cpp).
  static constexpr std::size_t kMaxSolidPlanPairs = 16;
  std::vector<std::vector<SolidPartPair>> solid_plans_;  // per self pair; empty: not solid
  bool self_pairs_solid_ = false;  // every self pair has a solid plan
  std::vector<int> self_pair_of_;  // [a * obstacle_begin_ + b], a < b -> self pair index or -1
  void build_solid_plans();
  // extra: added to the padding; part_extra: per part pair instead, for a solid plan.
  bool self_pair_in_collision(std::size_t pair, double padding, double extra = 0.0,
                              const double* part_extra = nullptr, bool proof_only = false) const;
  // Per self pair, the first of its part pairs in the flat per-part-pair arrays (size pairs + 1).
  std::vector<std::size_t> solid_part_begin_;
  // Closing speeds per unit of each variable's motion: [self pair * dof + variable], and
  // [solid part pair * dof + variable] (add_pair_speeds).
  std::vector<double> self_speed_table_, solid_part_speed_table_;
  // grid_motion_free's buffers: per self pair and per solid part pair, speed along the edge and
  // the padding a run needs.
  std::vector<double> grid_self_speed_, grid_self_extra_, grid_part_speed_, grid_part_extra_;
  struct GridRun {
    int a, b;                     // the states strictly between grid states a and b
    SlotMask scene;               // the bodies whose clearance from the scene is still to prove
    SlotMask self;                // the self pairs still to prove (slot_bit of their index)
    SlotMask roots = kAllSlots;   // the bodies whose root-sphere proof may succeed (slot_root_clear)
  };
  std::vector<GridRun> grid_runs_;
  JointVector grid_state_;
  int grid_blocked_step_ = 0;
  // One look at a part pair (path_advance): its gap beyond padding, or nullopt for contact.
  std::optional<double> look_at_parts(std::size_t pair, double t, double padding, double remaining);
  struct Witness {  // the closest points of a pair's last exact look, in each body's frame
    Vector3 on_a = Vector3::Zero(), on_b = Vector3::Zero();
    bool known = false;
  };
  std::vector<Witness> path_witness_;
  std::vector<std::pair<double, int>> path_due_;  // (path parameter, pair) heap  // per body against fixed obstacles (-1: not yet known)
  JointVector path_q_;
  CheckOptions path_options_;
  double path_tolerance_ = 1e-3;
  PathContact path_contact_;
  std::uint64_t scene_generation_ = 0, path_scene_generation_ = 0;  // set_scene() calls
};

}  // namespace kinetic
