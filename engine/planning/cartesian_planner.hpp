#pragma once
// Cartesian planning: the TCP follows straight lines and circular arcs, solved by dense
// incremental IK (a step at most 1 mm / 1 mrad, each seeded with the previous solution). It stops
// at the first step that fails — IK does not converge, a joint jumps more than the threshold,
// a joint hits its limit, the state collides — and reports how much of the motion it achieved,
// why it stopped and the joint (or links) at fault.
#include <string>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/ik_solver.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/planning/plan_control.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

struct CartesianSegment {
  enum class Type { Line, Arc };
  Type type = Type::Line;
  Pose target = Pose::Identity();    // Line: end pose of the TCP (base frame), orientation slerped
  Vector3 center = Vector3::Zero();  // Arc: a point on the rotation axis (base frame)
  Vector3 axis = Vector3::UnitZ();   // Arc: rotation axis; the TCP turns with the arc
  double angle = 0.0;                // Arc: rad, right-handed about axis

  static CartesianSegment line_to(const Pose& target);
  static CartesianSegment arc(const Vector3& center, const Vector3& axis, double angle);
};

struct CartesianOptions {
  double max_translation_step = 0.001;  // m
  double max_rotation_step = 0.001;     // rad
  double jump_threshold = 0.05;         // rad (or m): largest joint change allowed in one step
  bool avoid_collisions = true;
  double margin = 0.0;  // m, padding of the collision check
  // Robots with a closed-form IK solver (UR, OPW): each step in closed form on the last step's
  // branch, the numeric solve where that has no answer within the jump threshold. A fifth to a
  // third faster and the TCP exactly on the path; but the path differs from the numeric default
  // within the IK tolerance, so near singularities and jump thresholds a motion may stop a few
  // steps elsewhere, and from a singular start take another branch (cartesian_step_ik.hpp).
  // Ignored for other robots.
  bool closed_form_ik = false;
};

struct CartesianResult {
  JointPath path;         // model order; from the start to the last reached step
  double fraction = 0.0;  // of the requested motion achieved (1 = complete)
  bool complete() const { return fraction >= 1.0 - 1e-12; }
  std::string stop_reason;     // "" when complete
  std::string joint_at_fault;  // joint that jumped / hit its limit ("" when not about a joint)
  std::vector<std::string> links_at_fault;  // colliding bodies when stopped by a collision
  int steps = 0;                            // steps taken
};

// start: model order. Throws Error(OutOfLimits / InCollision) for a bad start, Error(InvalidValue)
// for a degenerate segment (zero axis, non-finite values). closed_form: the robot's IK solver on
// this chain (make_ik_solver), used when options.closed_form_ik is set and it is a closed-form one
// (UR, OPW); null: numeric IK at every step.
CartesianResult plan_cartesian(const KinematicChain& chain, CollisionChecker& checker,
                               const JointVector& start,
                               const std::vector<CartesianSegment>& segments,
                               const CartesianOptions& options = {},
                               const PlanControl& control = {},
                               const IkSolverPtr& closed_form = nullptr);

}  // namespace kinetic
