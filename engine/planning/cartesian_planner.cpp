#include "engine/planning/cartesian_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/core/error.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/planning/cartesian_step_ik.hpp"
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

// The most steps a segment may take within the arm's reach (two million: 2 km of millimetres).
constexpr double kMaxSegmentSteps = 2e6;

struct SegmentPoses {
  double steps = 0;  // the segment's steps, all of them (for the fraction achieved)
  Pose end;          // where it ends
  bool cut = false;  // poses stop where the TCP would leave the arm's reach
};

// TCP poses of one segment from `from`, at most the step sizes apart (the first is excluded),
// appended to `poses` up to where the TCP would be farther than `reach` from the base (a goal
// 10 km away was followed a millimetre at a time: 22 s and 2.5 GB); `reach` < 0: only counted.
SegmentPoses interpolate(const Pose& from, const CartesianSegment& segment,
                         const CartesianOptions& o, double reach, std::vector<Pose>& poses) {
  SegmentPoses out;
  const auto step_count = [&](double length, double angle) {
    const double n =
        std::ceil(std::max(length / o.max_translation_step, angle / o.max_rotation_step));
    return std::isfinite(n) ? std::max(1.0, n) : HUGE_VAL;
  };
  // Poses i = 1..n of the segment, `at(t)` giving the pose at fraction t.
  const auto emit = [&](double n, const auto& at) {
    out.steps = n;
    out.end = at(1.0);
    if (reach < 0) return;
    for (double i = 1; i <= n; ++i) {
      const Pose p = at(i / n);
      if (p.translation().norm() > reach) {
        out.cut = true;
        return;
      }
      if (i > kMaxSegmentSteps) {
        char text[200];
        std::snprintf(
            text, sizeof text,
            "a Cartesian segment needs more than %.0f steps of %g m / %g rad within reach",
            kMaxSegmentSteps, o.max_translation_step, o.max_rotation_step);
        throw Error(ErrorCode::InvalidValue, text,
                    "raise translation_step / rotation_step, or split the motion");
      }
      poses.push_back(p);
    }
  };
  if (segment.type == CartesianSegment::Type::Line) {
    validate_pose(segment.target, "Cartesian line target");
    const Quaternion qa(from.linear()), qb(segment.target.linear());
    const Vector3 a = from.translation(), b = segment.target.translation();
    emit(step_count((b - a).norm(), qa.angularDistance(qb)), [&](double t) {
      Pose p = Pose::Identity();
      p.translation() = a + t * (b - a);
      p.linear() = qa.slerp(t, qb).toRotationMatrix();
      return p;
    });
    return out;
  }
  if (!(segment.axis.norm() > 1e-9) || !segment.center.allFinite() || !std::isfinite(segment.angle))
    throw Error(ErrorCode::InvalidValue,
                "Cartesian arc needs a finite centre, a non-zero axis and a finite angle");
  const Vector3 axis = segment.axis.normalized();
  const Vector3 radial = from.translation() - segment.center;
  const double radius = (radial - radial.dot(axis) * axis).norm();
  emit(step_count(radius * std::abs(segment.angle), std::abs(segment.angle)), [&](double t) {
    const Eigen::AngleAxisd turn(segment.angle * t, axis);
    Pose p = Pose::Identity();
    p.translation() = segment.center + turn * radial;
    p.linear() = turn.toRotationMatrix() * from.linear();
    return p;
  });
  return out;
}

// Farther than any pose of the chain can be from its base link's origin: every joint's offset on
// the way to the tip, a prismatic joint's travel and the tool offset (infinite with a floating or
// planar joint on the way).
double chain_reach(const KinematicChain& chain) {
  const RobotModel& model = *chain.model();
  double reach = chain.tip_offset().translation().norm();
  const int base = model.link_index(chain.base_link());
  for (int link = model.link_index(chain.tip_link()); link != base;) {
    const int j = model.links()[static_cast<std::size_t>(link)].parent_joint;
    if (j < 0) break;
    const Joint& joint = model.joints()[static_cast<std::size_t>(j)];
    if (joint.type == JointType::Floating || joint.type == JointType::Planar) return HUGE_VAL;
    reach += joint.origin.translation().norm();
    if (joint.type == JointType::Prismatic)
      reach += std::max(std::abs(joint.limits.lower), std::abs(joint.limits.upper));
    link = joint.parent_link;
  }
  return reach;
}

}  // namespace

namespace {

// Without a margin the per-step check is the collision gate's test of every waypoint, and the gate
// runs on the whole path first; meanwhile every kProbeStride-th state is checked, so that a motion
// a collision stops is found out during the IK: it takes the per-step check at once, and solves
// at most this many steps past the collision.
constexpr std::size_t kProbeStride = 16;

// Share (0..1) of the TCP's motion from its pose at q to `target` that the joints can make from q,
// to first order: 1 - |v - J dq| / |v| for the twist v and the damped least-squares step dq.
// Near 0 where the arm is stretched towards the target, or at another singularity for that
// direction: no joint motion moves the TCP that way.
double movable_share(const KinematicChain& chain, const JointVector& q, const Pose& target) {
  Pose tip;
  Jacobian jacobian;
  chain.fk_and_jacobian(q, tip, jacobian);
  Eigen::Matrix<double, 6, 1> twist;
  twist.head<3>() = target.translation() - tip.translation();
  const Eigen::AngleAxisd turn(target.linear() * tip.linear().transpose());
  twist.tail<3>() = turn.axis() * turn.angle();
  const double size = twist.norm();
  if (!(size > 1e-12)) return 1.0;
  // Directions whose singular value is well below the damping (0.01) count as unreachable: a
  // step along them would need joint speeds a hundred times the TCP's.
  constexpr double kDampingSquared = 1e-4;
  const Eigen::Matrix<double, 6, 6> gram = jacobian * jacobian.transpose();
  const Eigen::Matrix<double, 6, 1> weights =
      (gram + kDampingSquared * Eigen::Matrix<double, 6, 6>::Identity()).ldlt().solve(twist);
  return std::clamp(1.0 - (twist - gram * weights).norm() / size, 0.0, 1.0);
}

// A state that failed the per-step check while the IK ran, and its step (1-based).
struct CollidingState {
  std::size_t step = 0;
  JointVector q;
};

// The steps' joint states, from the start until every pose is reached or a step fails (no
// solution, a joint that would jump or is at its limit; the reason goes into `result`). Every
// `check_stride`-th state (0: none) gets the per-step collision check: the first that fails ends
// the IK and is returned, left out of the path.
std::optional<CollidingState> follow_poses(const KinematicChain& chain, CollisionChecker& checker,
                                           const std::vector<Pose>& poses,
                                           const CartesianOptions& options,
                                           const PlanControl& control,
                                           const IkSolverPtr& closed_form, std::size_t check_stride,
                                           std::size_t total, CartesianResult& result) {
  // The robot's tolerances; each step starts next to its answer, so 2 ms is plenty.
  IkOptions ik_options = ik_options_from_config(*chain.model());
  ik_options.timeout_ms = 2.0;
  ik_options.cancel =
      control.cancel;  // a first attempt runs to [ik] max_iterations whatever the time
  const CartesianStepIk ik(chain, options.closed_form_ik ? closed_form : nullptr, ik_options,
                           options.jump_threshold);
  const std::vector<std::string> names = chain.joint_names();
  SearchClock clock(1e9, control);
  JointVector q_chain = chain.to_chain(result.path.front());
  char text[320];
  for (std::size_t i = 0; i < poses.size(); ++i) {
    clock.poll("cartesian", static_cast<int>(i), static_cast<int>(poses.size()));
    const IkResult solved = ik.solve(poses[i], q_chain).ik;
    if (!solved.converged) {
      // Blame the joint pinned at a limit, if any: the usual reason a nearby pose has no solution.
      int pinned = -1;
      for (int j = 0; j < chain.dof(); ++j)
        if (chain.has_position_limits(j) && (q_chain[j] - chain.lower_limits()[j] < 1e-3 ||
                                             chain.upper_limits()[j] - q_chain[j] < 1e-3))
          pinned = j;
      const double share = pinned >= 0 ? 1.0 : movable_share(chain, q_chain, poses[i]);
      if (pinned >= 0)
        std::snprintf(text, sizeof text, "IK failed at step %zu of %zu with a joint at its limit",
                      i + 1, total);
      else if (share < 0.5)
        std::snprintf(text, sizeof text,
                      "IK failed at step %zu of %zu: from there the joints can move the TCP only "
                      "%.0f%% of the way "
                      "along the line (the arm is stretched out or at another singularity: start "
                      "from a pose with "
                      "the elbow bent, or keep the line within reach)",
                      i + 1, total, 100.0 * share);
      else
        std::snprintf(text, sizeof text,
                      "IK failed at step %zu of %zu (pose out of reach or at a singularity)", i + 1,
                      total);
      result.stop_reason = text;
      if (pinned >= 0) result.joint_at_fault = names[pinned];
      return std::nullopt;
    }
    const JointVector delta = (solved.q - q_chain).cwiseAbs();
    int worst = 0;
    const double jump = delta.maxCoeff(&worst);
    if (jump > options.jump_threshold) {
      // A joint that reached its limit and would have to swing round to go on: say so.
      const bool at_limit = chain.has_position_limits(worst) &&
                            (q_chain[worst] - chain.lower_limits()[worst] < 1e-2 ||
                             chain.upper_limits()[worst] - q_chain[worst] < 1e-2);
      const char* unit =
          chain.model()
                      ->variable_joint(chain.variable_indices()[static_cast<std::size_t>(worst)])
                      .type == JointType::Prismatic
              ? "m"
              : "rad";
      if (at_limit)
        std::snprintf(text, sizeof text,
                      "joint '%s' reached its limit (%.3f %s) at step %zu of %zu; going on would "
                      "need it to jump %.3f %s",
                      names[worst].c_str(), q_chain[worst], unit, i + 1, total, jump, unit);
      else
        std::snprintf(text, sizeof text,
                      "joint '%s' would jump %.3f %s (threshold %.3f %s) at step %zu of %zu",
                      names[worst].c_str(), jump, unit, options.jump_threshold, unit, i + 1, total);
      result.stop_reason = text;
      result.joint_at_fault = names[worst];
      return std::nullopt;
    }
    JointVector next = result.path.back();
    chain.to_model(solved.q, next);
    const bool checked = check_stride > 0 && ((i + 1) % check_stride == 0 || i + 1 == poses.size());
    if (checked && !state_collision_free(checker, next, options.margin))
      return CollidingState{i + 1, std::move(next)};
    q_chain = solved.q;
    result.path.push_back(std::move(next));
  }
  return std::nullopt;
}

// The motion stops before `state`, which failed the per-step collision check: says so.
void stop_for_collision(CollisionChecker& checker, const CollidingState& state,
                        std::size_t pose_count, const CartesianOptions& options,
                        CartesianResult& result) {
  const auto contacts = checker.contacts(state.q, CheckOptions{options.margin, true, true});
  result.stop_reason = "collision at step " + std::to_string(state.step) + " of " +
                       std::to_string(pose_count) + ": " + describe_contacts(contacts);
  result.joint_at_fault.clear();
  for (const auto& c : contacts) {
    result.links_at_fault.push_back(c.body_a);
    result.links_at_fault.push_back(c.body_b);
  }
}

// The path's first state that fails the per-step check, in the order the steps were taken, cut off
// with the rest of the path. `beyond`: a state past the path known to fail it (the IK stopped
// there), the first one when every state of the path passes.
void stop_at_first_collision(CollisionChecker& checker, std::size_t pose_count,
                             const CartesianOptions& options,
                             const std::optional<CollidingState>& beyond, CartesianResult& result) {
  for (std::size_t i = 1; i < result.path.size(); ++i) {
    if (state_collision_free(checker, result.path[i], options.margin)) continue;
    stop_for_collision(checker, CollidingState{i, result.path[i]}, pose_count, options, result);
    result.path.resize(i);
    return;
  }
  if (beyond) stop_for_collision(checker, *beyond, pose_count, options, result);
}

}  // namespace

CartesianResult plan_cartesian(const KinematicChain& chain, CollisionChecker& checker,
                               const JointVector& start,
                               const std::vector<CartesianSegment>& segments,
                               const CartesianOptions& options, const PlanControl& control,
                               const IkSolverPtr& closed_form) {
  const RobotModel& model = *chain.model();
  if (auto problem = limits_problem(model, start, "Cartesian start state")) throw *problem;
  if (options.avoid_collisions)
    if (auto problem = collision_problem(checker, start, "Cartesian start state")) throw *problem;
  if (!(options.max_translation_step > 0) || !(options.max_rotation_step > 0) ||
      !(options.jump_threshold > 0))
    throw Error(ErrorCode::InvalidValue, "Cartesian step sizes and jump threshold must be > 0");

  // All poses first: the fraction is measured in steps, which are evenly spaced per segment.
  // Poses beyond the arm's reach are never followed: the line stops where it would leave it.
  std::vector<Pose> poses;
  Pose at = chain.fk(chain.to_chain(start));
  const double reach = chain_reach(chain);
  double total_steps = 0;
  bool cut = false;
  for (const auto& segment : segments) {
    const SegmentPoses part = interpolate(at, segment, options, cut ? -1.0 : reach, poses);
    total_steps += part.steps;
    at = part.end;
    cut = cut || part.cut;
  }

  CartesianResult result;
  result.path.push_back(start);
  const std::size_t total =
      total_steps < 1e15 ? static_cast<std::size_t>(total_steps) : std::size_t(1e15);
  if (poses.empty() && !cut) {
    result.fraction = 1.0;
    return result;
  }
  // The motion stops at its first state that fails the per-step check. With a margin every state
  // is checked as the IK reaches it. Without one that check is the test the collision gate applies
  // to every waypoint (in_collision, no padding): a path the gate passes has no such state, so the
  // gate alone decides, and only a path it rejects, or whose probes found a collision, is checked
  // state by state and then gated as cut.
  const bool gate_first = options.avoid_collisions && options.margin == 0.0;
  const std::size_t check_stride = !options.avoid_collisions ? 0 : gate_first ? kProbeStride : 1;
  const std::optional<CollidingState> colliding = follow_poses(
      chain, checker, poses, options, control, closed_form, check_stride, total, result);
  std::optional<std::string> gate_problem;
  bool gated = false;  // gate_problem is the collision gate's verdict on result.path
  if (colliding && !gate_first) {
    stop_for_collision(checker, *colliding, total, options, result);
  } else if (colliding) {
    stop_at_first_collision(checker, total, options, colliding, result);
  } else if (gate_first) {
    gate_problem = collision_gate(checker, result.path);
    gated = true;
    if (gate_problem) {
      const std::size_t taken = result.path.size();
      stop_at_first_collision(checker, total, options, std::nullopt, result);
      gated = result.path.size() == taken;
    }
  }
  result.steps = static_cast<int>(result.path.size()) - 1;
  result.fraction = static_cast<double>(result.steps) / static_cast<double>(total);
  if (cut && result.stop_reason.empty()) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "the TCP would leave the arm's reach (%.3f m from '%.40s') after step %zu of %zu",
                  reach, chain.base_link().c_str(), poses.size(), total);
    result.stop_reason = text;
  }

  // Output gates on what is returned.
  if (auto problem = limits_gate(model, result.path))
    throw Error(ErrorCode::OutOfLimits, "Cartesian path failed the limits gate: " + *problem);
  if (options.avoid_collisions) {
    if (!gated) gate_problem = collision_gate(checker, result.path);
    if (gate_problem)
      throw Error(ErrorCode::InCollision,
                  "Cartesian path failed the collision gate: " + *gate_problem,
                  "raise the margin so the per-step check keeps more clearance");
  }
  return result;
}

}  // namespace kinetic
