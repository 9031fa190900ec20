#pragma once
// PlanningSpace: the joint space a planner searches — the variables of one planning group, their
// limits, and validity (collision at the planning margin) through the project's CollisionChecker.
// Variables outside the group keep the values of a template configuration (the start state).
// Vectors handed to planners are in group order; to_full() gives model order.
#include <cstdint>
#include <random>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/types.hpp"
#include "engine/planning/planner_options.hpp"

namespace kinetic {

// The planners' notion of a valid state: no self collision, and every robot body at least
// `margin` from the scene. The margin is about obstacles only: links of one arm sit closer to
// each other than any useful margin (the checker would double it for self pairs).
// covers_decide: the stricter, cheaper check of CheckOptions::covers_decide; exact: without the
// checker's refinement margin (CheckOptions::exact).
bool state_collision_free(CollisionChecker& checker, const JointVector& q, double margin,
                          bool covers_decide = false, bool exact = false);
// The checker options of that check.
CheckOptions planning_check_options(double margin, bool covers_decide = false, bool exact = false);

// Grid steps of an edge at a resolution: n = ceil(max |dq_j| / resolution). Throws
// Error(InvalidValue) for an end that is not finite or a resolution that is not > 0.
int edge_steps(const JointVector& q0, const JointVector& q1, double resolution);

// States q0 + (q1 - q0) * i / n for i = 1 .. n-1 (n = edge_steps), checked one by one in
// bisection order so a blocked edge is usually rejected after a few checks, each with
// state_collision_free. The end states are NOT checked: callers have validated them. Model order.
// With workspace bounds, every interior state must also keep every link origin inside them.
// obstacles false: self collisions only.
bool edge_collision_free(CollisionChecker& checker, const JointVector& q0, const JointVector& q1,
                         double resolution, double margin,
                         const WorkspaceBounds* workspace = nullptr, bool exact = false,
                         bool obstacles = true);

// The first link whose origin lies outside the bounds at the checker's current poses (after an
// update or a query), or -1.
int link_outside_workspace(const CollisionChecker& checker, const WorkspaceBounds& workspace);

class PlanningSpace {
 public:
  // variables: model variable indices of the group; full_template: model-order configuration the
  // other variables take. Throws Error(InvalidValue) for an empty group.
  PlanningSpace(CollisionChecker& checker, std::vector<int> variables, JointVector full_template,
                double margin, double resolution);

  int dof() const { return static_cast<int>(variables_.size()); }
  const std::vector<int>& variables() const { return variables_; }
  const JointVector& lower() const { return lower_; }
  const JointVector& upper() const { return upper_; }
  double extent() const { return extent_; }  // L2 diagonal of the joint box
  double margin() const { return margin_; }
  double resolution() const { return resolution_; }

  JointVector to_full(const JointVector& group) const;
  JointVector to_group(const JointVector& full) const;

  // States must also keep every link origin inside these bounds (none: no such condition).
  void set_workspace(const std::optional<WorkspaceBounds>& workspace) { workspace_ = workspace; }
  const std::optional<WorkspaceBounds>& workspace() const { return workspace_; }

  // Validity by the sphere covers alone where they come near an obstacle (CheckOptions::
  // covers_decide): stricter than the exact check, so what passes it passes that one too.
  void set_covers_decide(bool on) { covers_decide_ = on; }
  bool covers_decide() const { return covers_decide_; }
  // States and edges checked without the checker's refinement margin (CheckOptions::exact): for a
  // start or goal within that margin of an obstacle, which the faster check would call colliding.
  void set_exact(bool on) { exact_ = on; }
  bool exact() const { return exact_; }
  // Self collisions (and the workspace) only, the scene's obstacles ignored: to tell a path the
  // obstacles block from one the robot's own links wall off.
  void set_obstacles_ignored(bool on) { obstacles_ignored_ = on; }
  bool obstacles_ignored() const { return obstacles_ignored_; }

  bool within_limits(const JointVector& q) const;
  bool valid(const JointVector& q);  // within limits, collision-free
  // Interior of the edge. A state found blocked is remembered (the last few): the next edge checks
  // its grid state nearest to one of them first, since edges tried one after another (shortcuts
  // of one path, connections towards one sample) are mostly blocked by the same obstacle. The
  // verdict is the same; blocked shortcuts took 30% less time (20-box scenes).
  bool motion_valid(const JointVector& a, const JointVector& b);
  // valid(a) && valid(b) && motion_valid(a, b), the ends checked with the edge's states (one
  // pass of the lane check, where the world has one, instead of two state checks).
  bool segment_valid(const JointVector& a, const JointVector& b);
  void sample(std::mt19937_64& rng, JointVector& out) const;  // uniform in the joint box
  static double distance(const JointVector& a, const JointVector& b) { return (a - b).norm(); }

  CollisionChecker& checker() { return checker_; }
  const CollisionChecker& checker() const { return checker_; }
  std::uint64_t state_checks() const { return state_checks_; }
  std::uint64_t motion_checks() const { return motion_checks_; }

 private:
  const JointVector& full(const JointVector& group, JointVector& buffer) const;
  // The grid step of a -> b nearest to a remembered blocked state (0: none remembered, or none
  // within kProbeReach of the edge).
  int step_nearest_blocked(const JointVector& a, const JointVector& b, int steps);
  void remember_blocked(const JointVector& a, const JointVector& b, double t);  // a + (b - a) t
  CheckOptions check_options() const;  // of this space's states and edges

  static constexpr std::size_t kBlockedKept = 8;  // 4 to 32 did equally well

  CollisionChecker& checker_;
  std::vector<int> variables_;
  JointVector template_;
  JointVector lower_, upper_;
  // The limits widened by the tolerance within_limits allows, kept: it runs before every state
  // check, and widening them there each time was an Eigen expression per call.
  std::vector<double> lowest_, highest_;
  double extent_ = 0.0;
  double margin_ = 0.0;
  double resolution_ = 0.05;
  bool identity_ = false;  // group == all variables in model order
  bool covers_decide_ = false;
  bool exact_ = false;
  bool obstacles_ignored_ = false;
  std::optional<WorkspaceBounds> workspace_;
  JointVector buffer_a_, buffer_b_, direction_;
  std::vector<double> blocked_;  // a ring of kBlockedKept states (group order), row after row
  std::size_t blocked_count_ = 0, next_blocked_ = 0;
  std::uint64_t state_checks_ = 0, motion_checks_ = 0;
};

}  // namespace kinetic
