#include "engine/kinematics/analytic_ik_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/small_decompositions.hpp"

namespace kinetic {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kLimitSlack = 1e-9;  // a solution this far outside a limit still counts as inside
constexpr double kDuplicate = 1e-9;   // solutions closer than this (rad, every joint) are one
constexpr double kAdapterTolerance = 1e-8;  // m and rad: chain vs analytic model after fitting

// Orthonormal frame whose first axis is `first` and whose second lies in the plane of both.
Eigen::Matrix3d frame_from_axes(const Vector3& first, const Vector3& second) {
  const Vector3 x = first.normalized();
  const Vector3 z = x.cross(second).normalized();
  Eigen::Matrix3d frame;
  frame.col(0) = x;
  frame.col(1) = z.cross(x);
  frame.col(2) = z;
  return frame;
}

// Value of `angle` + 2πk nearest to `seed`, among those within [lower, upper] when `bounded`.
std::optional<double> place_near_seed(double angle, double seed, double lower, double upper,
                                      bool bounded) {
  if (!bounded) return angle + kTwoPi * std::round((seed - angle) / kTwoPi);
  std::optional<double> best;
  for (int k = -2; k <= 2; ++k) {
    const double candidate = angle + kTwoPi * k;
    if (candidate < lower - kLimitSlack || candidate > upper + kLimitSlack) continue;
    if (!best || std::abs(candidate - seed) < std::abs(*best - seed)) best = candidate;
  }
  return best;
}

}  // namespace

double wrap_angle(double angle) {
  double wrapped = std::remainder(angle, kTwoPi);  // [-pi, pi]
  if (wrapped <= -std::numbers::pi) wrapped += kTwoPi;
  return wrapped;
}

PoseDistance pose_distance(const Pose& a, const Pose& b) {
  PoseDistance distance;
  distance.position = (a.translation() - b.translation()).norm();
  // Quaternion angle: accurate for tiny differences, unlike acos of the trace.
  const Quaternion qa(a.linear()), qb(b.linear());
  distance.orientation = qa.angularDistance(qb);
  return distance;
}

FrameAdapter fit_frame_adapter(const PoseFunction& chain_fk, const PoseFunction& analytic_fk,
                               const std::string& what) {
  const JointVector zero = JointVector::Zero(6);
  const Pose chain_zero = chain_fk(zero);
  const Pose analytic_zero = analytic_fk(zero);

  // Motions of joint 1 and joint 2 alone: chain motion = X * analytic motion * X⁻¹.
  constexpr double kStep = 0.7;
  std::array<Vector3, 2> chain_axes, analytic_axes;
  std::array<Pose, 2> chain_motions, analytic_motions;
  for (int joint = 0; joint < 2; ++joint) {
    JointVector q = zero;
    q[joint] = kStep;
    chain_motions[joint] = chain_fk(q) * chain_zero.inverse();
    analytic_motions[joint] = analytic_fk(q) * analytic_zero.inverse();
    chain_axes[joint] = Eigen::AngleAxisd(chain_motions[joint].linear()).axis();
    analytic_axes[joint] = Eigen::AngleAxisd(analytic_motions[joint].linear()).axis();
  }
  const Eigen::Matrix3d rotation = frame_from_axes(chain_axes[0], chain_axes[1]) *
                                   frame_from_axes(analytic_axes[0], analytic_axes[1]).transpose();
  // (R_A - I) t = R t_B - t_A for both motions: least squares over the stacked 6×3 system.
  Eigen::Matrix<double, 6, 3> lhs;
  Eigen::Matrix<double, 6, 1> rhs;
  for (int joint = 0; joint < 2; ++joint) {
    lhs.block<3, 3>(3 * joint, 0) = chain_motions[joint].linear() - Eigen::Matrix3d::Identity();
    rhs.segment<3>(3 * joint) =
        rotation * analytic_motions[joint].translation() - chain_motions[joint].translation();
  }
  FrameAdapter adapter;
  adapter.base.linear() = rotation;
  adapter.base.translation() = least_squares(lhs, rhs);
  adapter.tip = (adapter.base * analytic_zero).inverse() * chain_zero;
  adapter.base_inverse = adapter.base.inverse();
  adapter.tip_inverse = adapter.tip.inverse();

  // Check on spread-out configurations: a wrong parameter or joint direction shows up here.
  double worst_position = 0.0, worst_orientation = 0.0;
  for (int sample = 1; sample <= 8; ++sample) {
    JointVector q(6);
    for (int joint = 0; joint < 6; ++joint) q[joint] = 2.5 * std::sin(1.37 * sample + 0.91 * joint);
    const PoseDistance d = pose_distance(chain_fk(q), adapter.base * analytic_fk(q) * adapter.tip);
    worst_position = std::max(worst_position, d.position);
    worst_orientation = std::max(worst_orientation, d.orientation);
  }
  if (!(worst_position <= kAdapterTolerance && worst_orientation <= kAdapterTolerance)) {
    std::ostringstream message;
    message << what << ": the chain's forward kinematics differs from the analytic model by up to "
            << worst_position << " m / " << worst_orientation
            << " rad beyond any fixed base and tool frame";
    throw Error(ErrorCode::InvalidModel, message.str(),
                "check the analytic parameters (lengths, offsets, sign corrections) against the "
                "robot's URDF, or set [ik] solver = \"numeric\"");
  }
  return adapter;
}

double numeric_condition_number(const PoseFunction& fk, const JointVector& q) {
  constexpr double kStep = 1e-6;
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian(6, q.size());
  for (int j = 0; j < q.size(); ++j) {
    JointVector plus = q, minus = q;
    plus[j] += kStep;
    minus[j] -= kStep;
    const Pose a = fk(plus), b = fk(minus);
    jacobian.block<3, 1>(0, j) = (a.translation() - b.translation()) / (2.0 * kStep);
    const Eigen::AngleAxisd turn(a.linear() * b.linear().transpose());
    jacobian.block<3, 1>(3, j) = turn.axis() * turn.angle() / (2.0 * kStep);
  }
  const Eigen::VectorXd sigma = singular_values(jacobian);
  const double smallest = sigma[sigma.size() - 1];
  return smallest > 0.0 ? sigma[0] / smallest : std::numeric_limits<double>::infinity();
}

void check_analytic_request(const Pose& target, const JointVector& seed, const char* solver_name) {
  if (!target.matrix().allFinite())
    throw Error(ErrorCode::InvalidValue,
                std::string(solver_name) + " IK: the target pose contains NaN or infinite values");
  if (seed.size() != 6)
    throw Error(ErrorCode::DimensionMismatch, std::string(solver_name) + " IK: the seed has " +
                                                  std::to_string(seed.size()) +
                                                  " values, the chain has 6 joints");
  if (!seed.allFinite())
    throw Error(ErrorCode::InvalidValue,
                std::string(solver_name) + " IK: the seed contains NaN or infinite values");
}

IkResult finish_analytic_result(const AnalyticSolutions& raw, const Pose& target,
                                const JointVector& seed, const IkOptions& options,
                                const AnalyticSolveContext& context,
                                const std::string& empty_reason, SeedDistance ranking) {
  IkResult result;
  result.iterations = 1;
  int outside_limits = 0, failed_check = 0;
  double best_position_error = std::numeric_limits<double>::infinity();
  double best_orientation_error = std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, JointVector>> accepted;  // (squared distance to seed, q)
  accepted.reserve(static_cast<std::size_t>(raw.count));

  for (int s = 0; s < raw.count; ++s) {
    const Vector6& candidate = raw.q[static_cast<std::size_t>(s)];
    if (!candidate.allFinite()) continue;
    JointVector q(6);
    bool inside = true;
    for (int j = 0; j < 6 && inside; ++j) {
      const auto placed = place_near_seed(wrap_angle(candidate[j]), seed[j], context.lower[j],
                                          context.upper[j], options.respect_limits);
      if (placed)
        q[j] = *placed;
      else
        inside = false;
    }
    if (!inside) {
      ++outside_limits;
      continue;
    }
    const PoseDistance error = pose_distance(context.verify_fk(q), target);
    const bool orientation_ok =
        options.position_only || error.orientation <= options.orientation_tolerance;
    if (!(error.position <= options.position_tolerance && orientation_ok)) {
      ++failed_check;
      best_position_error = std::min(best_position_error, error.position);
      best_orientation_error = std::min(best_orientation_error, error.orientation);
      continue;
    }
    const bool duplicate = std::any_of(accepted.begin(), accepted.end(), [&](const auto& other) {
      return (other.second - q).cwiseAbs().maxCoeff() < kDuplicate;
    });
    if (duplicate) continue;
    const double distance =
        ranking == SeedDistance::Euclidean
            ? (q - seed).squaredNorm()
            : (q - seed).cwiseAbs().maxCoeff() + 1e-6 * (q - seed).squaredNorm();
    accepted.emplace_back(distance, std::move(q));
  }

  std::sort(accepted.begin(), accepted.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& entry : accepted) result.solutions.push_back(std::move(entry.second));

  if (result.solutions.empty()) {
    result.q = seed;
    std::ostringstream message;
    message << context.solver_name << " IK: ";
    if (raw.count == 0)
      message << empty_reason;
    else if (failed_check == 0)
      message << "all " << outside_limits << " solutions of the pose lie outside the joint limits";
    else
      message << failed_check << " solutions failed the forward-kinematics check (best errors "
              << best_position_error << " m, " << best_orientation_error << " rad) and "
              << outside_limits << " lie outside the joint limits";
    result.message = message.str();
    return result;
  }
  result.converged = true;
  result.q = result.solutions.front();
  const PoseDistance error = pose_distance(context.verify_fk(result.q), target);
  result.position_error = error.position;
  result.orientation_error = error.orientation;
  if (options.condition_number && context.condition_number)
    result.condition_number = context.condition_number(result.q);
  return result;
}

JointVector six_joint_bound(JointVector bound, double value, const char* solver_name) {
  if (bound.size() == 0) return JointVector::Constant(6, value);
  if (bound.size() != 6)
    throw Error(ErrorCode::DimensionMismatch, std::string(solver_name) +
                                                  " IK: joint limits need 6 values, got " +
                                                  std::to_string(bound.size()));
  return bound;
}

}  // namespace kinetic
