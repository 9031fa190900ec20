#pragma once
// What the closed-form solvers (OPW, UR) share: the raw solution set, the fixed frames between a
// URDF chain and the analytic model, and the step that turns raw solutions into an IkResult
// (normalise, move by 2π toward the seed, filter by limits, verify by FK, sort by distance).
#include <array>
#include <functional>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "engine/core/types.hpp"
#include "engine/kinematics/ik_solver.hpp"

namespace kinetic {

using Vector6 = Eigen::Matrix<double, 6, 1>;

// Up to 8 closed-form solutions, robot joint convention, not yet normalised.
struct AnalyticSolutions {
  std::array<Vector6, 8> q;
  int count = 0;
  void add(const Vector6& solution) { q[static_cast<std::size_t>(count++)] = solution; }
};

// At a wrist singularity only J4 ± J6 is determined: the hint says where J4 and J6 were before,
// and the solvers split the change between them so both move as little as possible.
struct WristHint {
  double j4 = 0.0;
  double j6 = 0.0;
};

// |sin(J5)| below this is treated as the wrist singularity (the pose error of the split is at
// most this, in radians).
inline constexpr double kWristSingularity = 1e-10;

// Angle in (-pi, pi].
double wrap_angle(double angle);

struct PoseDistance {
  double position = 0.0;     // m
  double orientation = 0.0;  // rad
};
PoseDistance pose_distance(const Pose& a, const Pose& b);

using PoseFunction = std::function<Pose(const JointVector&)>;

// chain_fk(q) == base * analytic_fk(q) * tip for every q: the fixed frames between a URDF chain
// (base link, flange/TCP) and the analytic model's frames.
struct FrameAdapter {
  Pose base = Pose::Identity();
  Pose tip = Pose::Identity();
  Pose base_inverse = Pose::Identity();
  Pose tip_inverse = Pose::Identity();

  Pose to_analytic(const Pose& chain_target) const {
    return base_inverse * chain_target * tip_inverse;
  }
};

// Measures the adapter from joint-1 and joint-2 motions (a hand-eye problem: both motions rotate
// about non-parallel axes, which fixes the base frame), then checks it on further configurations.
// Throws Error(InvalidModel) naming `what` when the chain and the analytic model disagree.
FrameAdapter fit_frame_adapter(const PoseFunction& chain_fk, const PoseFunction& analytic_fk,
                               const std::string& what);

// Everything finish_analytic_result needs about the robot.
struct AnalyticSolveContext {
  JointVector lower;       // size 6
  JointVector upper;       // size 6
  PoseFunction verify_fk;  // chain FK (or the analytic FK) in the target's frame
  std::function<double(const JointVector&)> condition_number;  // of the Jacobian; may be empty
  const char* solver_name = "analytic";
};

// How solutions are ranked against the seed: Euclidean joint distance, or (continuing mode, for
// paths) the largest single-joint change, so no joint jumps when a smaller total move exists.
enum class SeedDistance { Euclidean, LargestJointChange };

// raw: solutions of the target; empty_reason: why there are none (when raw.count == 0).
IkResult finish_analytic_result(const AnalyticSolutions& raw, const Pose& target,
                                const JointVector& seed, const IkOptions& options,
                                const AnalyticSolveContext& context,
                                const std::string& empty_reason,
                                SeedDistance ranking = SeedDistance::Euclidean);

// Condition number of the geometric Jacobian of `fk` at q, by central differences (for analytic
// models that have no chain to ask).
double numeric_condition_number(const PoseFunction& fk, const JointVector& q);

// Checks a request for the analytic solvers (finite target, seed of size 6 and finite); throws
// Error(DimensionMismatch / InvalidValue) otherwise.
void check_analytic_request(const Pose& target, const JointVector& seed, const char* solver_name);

// Law-of-cosines values this far beyond ±1 are rounding.
inline constexpr double kCosineSlack = 1e-12;

// A solver's joint bound: six values, or `value` for each joint when none were given; throws
// Error(DimensionMismatch) naming the solver for another count.
JointVector six_joint_bound(JointVector bound, double value, const char* solver_name);

}  // namespace kinetic
