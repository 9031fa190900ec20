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

// Where a segment from `from` ends.
Vector3 segment_end(const Pose& from, const CartesianSegment& segment) {
  if (segment.type == CartesianSegment::Type::Line) return segment.target.translation();
  if (!(segment.axis.norm() > 1e-9)) return from.translation();
  return segment.center + Eigen::AngleAxisd(segment.angle, segment.axis.normalized()) *
                              (from.translation() - segment.center);
}

// A goal 10 km away was followed a millimetre at a time: 22 s and 2.5 GB before it failed. A
// segment ending beyond the chain's reach can never be finished, so it fails at once; and no
// segment may take more than kMaxSegmentSteps steps.
constexpr double kMaxSegmentSteps = 2e6;

void check_segments_within_reach(const KinematicChain& chain, const Pose& start,
                                 const std::vector<CartesianSegment>& segments,
                                 const CartesianOptions& o) {
  const double reach = chain_reach(chain);
  Pose at = start;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const CartesianSegment& segment = segments[i];
    const Vector3 end = segment_end(at, segment);
    const double distance = end.norm();
    char text[256];
    if (std::isfinite(distance) && distance > reach) {
      std::snprintf(text, sizeof text,
                    "Cartesian segment %zu ends %.3f m from the origin of '%.40s', beyond the "
                    "arm's reach (%.3f m "
                    "at most)",
                    i + 1, distance, chain.base_link().c_str(), reach);
      throw Error(ErrorCode::Unreachable, text,
                  "give a goal the arm can reach (poses are in the group's base frame, in metres)");
    }
    const double length =
        segment.type == CartesianSegment::Type::Line
            ? (end - at.translation()).norm()
            : (at.translation() - segment.center).norm() * std::abs(segment.angle);
    if (std::isfinite(length) && length / o.max_translation_step > kMaxSegmentSteps) {
      std::snprintf(text, sizeof text,
                    "Cartesian segment %zu is %.3f m long: %.0f steps of %g m, more than %.0f",
                    i + 1, length, length / o.max_translation_step, o.max_translation_step,
                    kMaxSegmentSteps);
      throw Error(ErrorCode::InvalidValue, text, "raise translation_step or split the motion");
    }
    if (segment.type == CartesianSegment::Type::Line)
      at = segment.target;
    else
      at.translation() = end;
  }
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
                                           const std::vector<Pose>& poses, const CartesianOptions& options,
                                           const PlanControl& control, const IkSolverPtr& closed_form,
                                           std::size_t check_stride, CartesianResult& result) {
  // The robot's tolerances; each step starts next to its answer, so 2 ms is plenty.
  IkOptions ik_options = ik_options_from_config(*chain.model());
  ik_options.timeout_ms = 2.0;
  ik_options.cancel = control.cancel;  // a first attempt runs to [ik] max_iterations whatever the time
  const CartesianStepIk ik(chain, options.closed_form_ik ? closed_form : nullptr, ik_options, options.jump_threshold);
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
        if (chain.has_position_limits(j) &&
            (q_chain[j] - chain.lower_limits()[j] < 1e-3 || chain.upper_limits()[j] - q_chain[j] < 1e-3))
          pinned = j;
      const double share = pinned >= 0 ? 1.0 : movable_share(chain, q_chain, poses[i]);
      if (pinned >= 0)
        std::snprintf(text, sizeof text, "IK failed at step %zu of %zu with a joint at its limit", i + 1, poses.size());
      else if (share < 0.5)
        std::snprintf(text, sizeof text,
                      "IK failed at step %zu of %zu: from there the joints can move the TCP only %.0f%% of the way "
                      "along the line (the arm is stretched out or at another singularity: start from a pose with "
                      "the elbow bent, or keep the line within reach)",
                      i + 1, poses.size(), 100.0 * share);
      else
        std::snprintf(text, sizeof text, "IK failed at step %zu of %zu (pose out of reach or at a singularity)", i + 1,
                      poses.size());
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
          chain.model()->variable_joint(chain.variable_indices()[static_cast<std::size_t>(worst)]).type ==
                  JointType::Prismatic
              ? "m"
              : "rad";
      if (at_limit)
        std::snprintf(text, sizeof text, "joint '%s' reached its limit (%.3f %s) at step %zu of %zu; going on would "
                      "need it to jump %.3f %s", names[worst].c_str(), q_chain[worst], unit, i + 1, poses.size(),
                      jump, unit);
      else
        std::snprintf(text, sizeof text, "joint '%s' would jump %.3f %s (threshold %.3f %s) at step %zu of %zu",
                      names[worst].c_str(), jump, unit, options.jump_threshold, unit, i + 1, poses.size());
      result.stop_reason = text;
      result.joint_at_fault = names[worst];
      return std::nullopt;
    }
    JointVector next = result.path.back();
    chain.to_model(solved.q, next);
    const bool checked = check_stride > 0 && ((i + 1) % check_stride == 0 || i + 1 == poses.size());
    if (checked && !state_collision_free(checker, next, options.margin)) return CollidingState{i + 1, std::move(next)};
    q_chain = solved.q;
    result.path.push_back(std::move(next));
  }
  return std::nullopt;
}

// The motion stops before `state`, which failed the per-step collision check: says so.
void stop_for_collision(CollisionChecker& checker, const CollidingState& state, std::size_t pose_count,
                        const CartesianOptions& options, CartesianResult& result) {
  const auto contacts = checker.contacts(state.q, CheckOptions{options.margin, true, true});
  result.stop_reason = "collision at step " + std::to_string(state.step) + " of " + std::to_string(pose_count) + ": " +
                       describe_contacts(contacts);
  result.joint_at_fault.clear();
  for (const auto& c : contacts) {
    result.links_at_fault.push_back(c.body_a);
    result.links_at_fault.push_back(c.body_b);
  }
}

// The path's first state that fails the per-step check, in the order the steps were taken, cut off
// with the rest of the path. `beyond`: a state past the path known to fail it (the IK stopped
// there), the first one when every state of the path passes.
void stop_at_first_collision(CollisionChecker& checker, std::size_t pose_count, const CartesianOptions& options,
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
                               const JointVector& start, const std::vector<CartesianSegment>& segments,
                               const CartesianOptions& options, const PlanControl& control,
                               const IkSolverPtr& closed_form) {
  const RobotModel& model = *chain.model();
  if (auto problem = limits_problem(model, start, "Cartesian start state")) throw *problem;
  if (options.avoid_collisions)
    if (auto problem = collision_problem(checker, start, "Cartesian start state")) throw *problem;
  if (!(options.max_translation_step > 0) || !(options.max_rotation_step > 0) || !(options.jump_threshold > 0))
    throw Error(ErrorCode::InvalidValue, "Cartesian step sizes and jump threshold must be > 0");

  // All poses first: the fraction is measured in steps, which are evenly spaced per segment.
  std::vector<Pose> poses;
  Pose at = chain.fk(chain.to_chain(start));
  check_segments_within_reach(chain, at, segments, options);
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
  // The motion stops at its first state that fails the per-step check. With a margin every state
  // is checked as the IK reaches it. Without one that check is the test the collision gate applies
  // to every waypoint (in_collision, no padding): a path the gate passes has no such state, so the
  // gate alone decides, and only a path it rejects, or whose probes found a collision, is checked
  // state by state and then gated as cut.
  const bool gate_first = options.avoid_collisions && options.margin == 0.0;
  const std::size_t check_stride = !options.avoid_collisions ? 0 : gate_first ? kProbeStride : 1;
  const std::optional<CollidingState> colliding =
      follow_poses(chain, checker, poses, options, control, closed_form, check_stride, result);
  std::optional<std::string> gate_problem;
  bool gated = false;  // gate_problem is the collision gate's verdict on result.path
  if (colliding && !gate_first) {
    stop_for_collision(checker, *colliding, poses.size(), options, result);
  } else if (colliding) {
    stop_at_first_collision(checker, poses.size(), options, colliding, result);
  } else if (gate_first) {
    gate_problem = collision_gate(checker, result.path);
    gated = true;
    if (gate_problem) {
      const std::size_t taken = result.path.size();
      stop_at_first_collision(checker, poses.size(), options, std::nullopt, result);
      gated = result.path.size() == taken;
    }
  }
  result.steps = static_cast<int>(result.path.size()) - 1;
  result.fraction = static_cast<double>(result.steps) / static_cast<double>(poses.size());

  // Output gates on what is returned.
  if (auto problem = limits_gate(model, result.path))
    throw Error(ErrorCode::OutOfLimits, "Cartesian path failed the limits gate: " + *problem);
  if (options.avoid_collisions) {
    if (!gated) gate_problem = collision_gate(checker, result.path);
    if (gate_problem)
      throw Error(ErrorCode::InCollision, "Cartesian path failed the collision gate: " + *gate_problem,
                  "raise the margin so the per-step check keeps more clearance");
  }
  return result;
}

}  // namespace kinetic
