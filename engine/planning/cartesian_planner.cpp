#include "engine/planning/cartesian_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic {

CartesianSegment CartesianSegment::line_to(const Pose& target) {
  CartesianSegment s;
  s.type = Type::Line;
  s.target = target;
  return s;
}

CartesianSegment CartesianSegment::arc(const Vector3& center, const Vector3& axis, double angle) {
  CartesianSegment s;
  s.type = Type::Arc;
  s.center = center;
  s.axis = axis;
  s.angle = angle;
  return s;
}

namespace {

// TCP poses of one segment from `from`, at most the step sizes apart (the first is excluded).
std::vector<Pose> interpolate(const Pose& from, const CartesianSegment& segment, const CartesianOptions& o) {
  std::vector<Pose> poses;
  if (segment.type == CartesianSegment::Type::Line) {
    validate_pose(segment.target, "Cartesian line target");
    const Quaternion qa(from.linear()), qb(segment.target.linear());
    const double distance = (segment.target.translation() - from.translation()).norm();
    const double angle = qa.angularDistance(qb);
    const int n = std::max(1, static_cast<int>(std::ceil(std::max(distance / o.max_translation_step,
                                                                  angle / o.max_rotation_step))));
    for (int i = 1; i <= n; ++i) {
      const double t = static_cast<double>(i) / n;
      Pose p = Pose::Identity();
      p.translation() = from.translation() + t * (segment.target.translation() - from.translation());
      p.linear() = qa.slerp(t, qb).toRotationMatrix();
      poses.push_back(p);
    }
    return poses;
  }
  if (!(segment.axis.norm() > 1e-9) || !segment.center.allFinite() || !std::isfinite(segment.angle))
    throw Error(ErrorCode::InvalidValue, "Cartesian arc needs a finite centre, a non-zero axis and a finite angle");
  const Vector3 axis = segment.axis.normalized();
  const Vector3 radial = from.translation() - segment.center;
  const double radius = (radial - radial.dot(axis) * axis).norm();
  const double arc_length = radius * std::abs(segment.angle);
  const int n = std::max(1, static_cast<int>(std::ceil(std::max(arc_length / o.max_translation_step,
                                                                std::abs(segment.angle) / o.max_rotation_step))));
  for (int i = 1; i <= n; ++i) {
    const Eigen::AngleAxisd turn(segment.angle * i / n, axis);
    Pose p = Pose::Identity();
    p.translation() = segment.center + turn * radial;
    p.linear() = turn.toRotationMatrix() * from.linear();
    poses.push_back(p);
  }
  return poses;
}

}  // namespace

CartesianResult plan_cartesian(const KinematicChain& chain, CollisionChecker& checker,
                               const JointVector& start, const std::vector<CartesianSegment>& segments,
                               const CartesianOptions& options, const PlanControl& control) {
  const RobotModel& model = *chain.model();
  if (auto problem = limits_problem(model, start, "Cartesian start state")) throw *problem;
  const CheckOptions check{options.margin, true, true};
  if (options.avoid_collisions)
    if (auto problem = collision_problem(checker, start, "Cartesian start state")) throw *problem;
  if (!(options.max_translation_step > 0) || !(options.max_rotation_step > 0) || !(options.jump_threshold > 0))
    throw Error(ErrorCode::InvalidValue, "Cartesian step sizes and jump threshold must be > 0");

  // All poses first: the fraction is measured in steps, which are evenly spaced per segment.
  std::vector<Pose> poses;
  Pose at = chain.fk(chain.to_chain(start));
  for (const auto& segment : segments) {
    std::vector<Pose> part = interpolate(at, segment, options);
    at = part.back();
    poses.insert(poses.end(), part.begin(), part.end());
  }

  CartesianResult result;
  result.path.push_back(start);
  if (poses.empty()) {
    result.fraction = 1.0;
    return result;
  }
  const NumericIkSolver ik(chain);
  // The robot's tolerances; each step starts next to its answer, so 2 ms is plenty.
  IkOptions ik_options = ik_options_from_config(model);
  ik_options.timeout_ms = 2.0;
  const std::vector<std::string> names = chain.joint_names();
  SearchClock clock(1e9, control);
  JointVector q_chain = chain.to_chain(start);
  JointVector full = start;
  char text[256];
  for (std::size_t i = 0; i < poses.size(); ++i) {
    clock.poll("cartesian", static_cast<int>(i), static_cast<int>(poses.size()));
    const IkResult solved = ik.solve(poses[i], q_chain, ik_options);
    if (!solved.converged) {
      // Blame the joint pinned at a limit, if any: the usual reason a nearby pose has no solution.
      int pinned = -1;
      for (int j = 0; j < chain.dof(); ++j)
        if (chain.has_position_limits(j) &&
            (q_chain[j] - chain.lower_limits()[j] < 1e-3 || chain.upper_limits()[j] - q_chain[j] < 1e-3))
          pinned = j;
      std::snprintf(text, sizeof text, "IK failed at step %zu of %zu%s", i + 1, poses.size(),
                    pinned >= 0 ? " with a joint at its limit" : " (pose out of reach or at a singularity)");
      result.stop_reason = text;
      if (pinned >= 0) result.joint_at_fault = names[pinned];
      break;
    }
    const JointVector delta = (solved.q - q_chain).cwiseAbs();
    int worst = 0;
    const double jump = delta.maxCoeff(&worst);
    if (jump > options.jump_threshold) {
      // A joint that reached its limit and would have to swing round to go on: say so.
      const bool at_limit = chain.has_position_limits(worst) &&
                            (q_chain[worst] - chain.lower_limits()[worst] < 1e-2 ||
                             chain.upper_limits()[worst] - q_chain[worst] < 1e-2);
      if (at_limit)
        std::snprintf(text, sizeof text, "joint '%s' reached its limit (%.3f) at step %zu of %zu; going on would "
                      "need it to jump %.3f", names[worst].c_str(), q_chain[worst], i + 1, poses.size(), jump);
      else
        std::snprintf(text, sizeof text, "joint '%s' would jump %.3f (threshold %.3f) at step %zu of %zu",
                      names[worst].c_str(), jump, options.jump_threshold, i + 1, poses.size());
      result.stop_reason = text;
      result.joint_at_fault = names[worst];
      break;
    }
    JointVector next = full;
    chain.to_model(solved.q, next);
    if (options.avoid_collisions && !state_collision_free(checker, next, options.margin)) {
      const auto contacts = checker.contacts(next, check);
      result.stop_reason = "collision at step " + std::to_string(i + 1) + " of " +
                           std::to_string(poses.size()) + ": " + describe_contacts(contacts);
      for (const auto& c : contacts) {
        result.links_at_fault.push_back(c.body_a);
        result.links_at_fault.push_back(c.body_b);
      }
      break;
    }
    q_chain = solved.q;
    full = next;
    result.path.push_back(full);
    result.steps = static_cast<int>(i + 1);
  }
  result.fraction = static_cast<double>(result.steps) / static_cast<double>(poses.size());

  // Output gates on what is returned.
  if (auto problem = limits_gate(model, result.path))
    throw Error(ErrorCode::OutOfLimits, "Cartesian path failed the limits gate: " + *problem);
  if (options.avoid_collisions)
    if (auto problem = collision_gate(checker, result.path)) {
      throw Error(ErrorCode::InCollision, "Cartesian path failed the collision gate: " + *problem,
                  "raise the margin so the per-step check keeps more clearance");
    }
  return result;
}

}  // namespace kinetic
