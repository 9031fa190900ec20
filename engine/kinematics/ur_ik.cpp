#include "engine/kinematics/ur_ik.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <sstream>
#include <utility>

#include "engine/core/error.hpp"
#include "engine/kinematics/fast_atan2.hpp"
#include "engine/kinematics/fast_sincos.hpp"

namespace kinetic {
namespace {

// J6 steps per half turn tried at the wrist singularity when the hint's J6 leaves the arm short.
constexpr int kSingularJ6Steps = 180;

// Standard DH step Rz(theta) Tz(d) Tx(a) Rx(alpha) from sin/cos of theta and alpha.
Pose dh_sc(double s, double c, double d, double a, double sin_alpha, double cos_alpha) {
  Pose t = Pose::Identity();
  t.linear() << c, -s * cos_alpha, s * sin_alpha,  //
      s, c * cos_alpha, -c * sin_alpha,            //
      0.0, sin_alpha, cos_alpha;
  t.translation() << a * c, a * s, d;
  return t;
}

Pose dh(double theta, double d, double a, double sin_alpha, double cos_alpha) {
  return dh_sc(std::sin(theta), std::cos(theta), d, a, sin_alpha, cos_alpha);
}

}  // namespace

Pose ur_forward(const UrParameters& p, const Vector6& q) {
  return dh(q[0], p.d1, 0.0, 1.0, 0.0) * dh(q[1], 0.0, p.a2, 0.0, 1.0) *
         dh(q[2], 0.0, p.a3, 0.0, 1.0) * dh(q[3], p.d4, 0.0, 1.0, 0.0) *
         dh(q[4], p.d5, 0.0, -1.0, 0.0) * dh(q[5], p.d6, 0.0, 0.0, 1.0);
}

AnalyticSolutions ur_inverse(const UrParameters& p, const Pose& flange, const WristHint* hint) {
  AnalyticSolutions out;
  const Eigen::Matrix3d rotation = flange.linear();
  const Vector3 x6 = rotation.col(0), y6 = rotation.col(1), z6 = rotation.col(2);
  const Vector3 wrist = flange.translation() - p.d6 * z6;  // origin of DH frame 5

  // Joint 1: frame 5 sits d4 off the arm plane along z1 = (sin q1, -cos q1, 0).
  const double radius = std::sqrt(wrist.x() * wrist.x() + wrist.y() * wrist.y());
  if (!(radius >= std::abs(p.d4)) || radius == 0.0) return out;
  const double heading = std::atan2(wrist.y(), wrist.x());
  const double offset = std::asin(std::clamp(p.d4 / radius, -1.0, 1.0));
  const double shoulder[2] = {heading + offset, heading + std::numbers::pi - offset};

  for (const double q1 : shoulder) {
    double s1, c1;
    detail::fast_sincos(q1, s1, c1);
    const Vector3 z1(s1, -c1, 0.0);
    // Joint 5: the tool z axis leans away from z1 by q5.
    // (atan2 of |z6 × z1| and z6·z1 stays accurate near 0 and pi, where acos does not.)
    const double s5 = z6.cross(z1).norm();
    const double q5_magnitude = detail::fast_atan2(s5, z6.dot(z1));
    const double lean = std::sqrt(s5 * s5 + (z6.dot(z1)) * (z6.dot(z1)));
    const double sin5 = s5 / lean, cos5 = z6.dot(z1) / lean;
    const bool singular = s5 <= kWristSingularity;
    const Pose t01_inverse = dh_sc(s1, c1, p.d1, 0.0, 1.0, 0.0).inverse();
    // Joints 2..4 for one wrist side and J6: a planar 3R arm in frame 1, T14 = T01⁻¹ T06
    // (T45 T56)⁻¹. Only its translation and first rotation column are used: matrix-vector
    // products, not full ones. T46 = DH(q5, d5, -pi/2) DH(q6, d6, 0) in closed form: its inverse
    // has x axis (c5 c6, -c5 s6, -s5) and origin (d5 s6, d5 c6, -d6). False when the arm cannot
    // reach.
    const auto add_arm = [&](double side, double q6, double s6, double c6) {
      const double q5 = side * q5_magnitude;
      const double s5_side = side * sin5;
      const Vector3 t64_x(cos5 * c6, -cos5 * s6, -s5_side);
      const Vector3 t64_origin(p.d5 * s6, p.d5 * c6, -p.d6);
      const Vector3 x14 = t01_inverse.linear() * (rotation * t64_x);
      const Vector3 o14 = t01_inverse * Vector3(flange * t64_origin);
      const double px = o14.x(), py = o14.y();
      double c3 = (px * px + py * py - p.a2 * p.a2 - p.a3 * p.a3) / (2.0 * p.a2 * p.a3);
      if (!(std::abs(c3) <= 1.0 + kCosineSlack)) return false;
      c3 = std::clamp(c3, -1.0, 1.0);
      const double sin3 = std::sqrt((1.0 - c3) * (1.0 + c3));
      const double q3_magnitude = detail::fast_atan2(sin3, c3);
      // R14 = Rz(q2 + q3 + q4) Rx(pi/2).
      const double q234 = detail::fast_atan2(x14.y(), x14.x());
      for (const double elbow : {1.0, -1.0}) {
        if (elbow < 0.0 && q3_magnitude == 0.0) break;  // both elbows coincide
        const double q3 = elbow * q3_magnitude;
        // q2 = atan2(py, px) - atan2(y, x), as one atan2 of the difference angle.
        const double y = p.a3 * elbow * sin3, x = p.a2 + p.a3 * c3;
        const double q2 = detail::fast_atan2(py * x - px * y, px * x + py * y);
        Vector6 q;
        q << q1, q2, q3, q234 - q2 - q3, q5, q6;
        out.add(q);
      }
      return true;
    };
    if (singular) {
      // J5 = 0 or pi: one solution family, J6 free. J6 moves joint 4's origin on a circle of
      // radius d5 about the tool axis, so near the edge of the workspace some J6 values leave
      // the arm short: J6 keeps the hint where the arm reaches, else the nearest value (in
      // degree steps) where it does. (The arm stretched out at zero, moved up, was "out of
      // reach" from the zero seed and reached from others, seeds that then placed J1 at -2pi.)
      const double hint6 = hint ? hint->j6 : 0.0;
      for (int step = 0; step <= kSingularJ6Steps; ++step) {
        bool reached = false;
        for (const double sign : {1.0, -1.0}) {
          if (step == 0 && sign < 0.0) break;
          const double q6 = hint6 + sign * step * (std::numbers::pi / kSingularJ6Steps);
          reached = add_arm(1.0, q6, std::sin(q6), std::cos(q6)) || reached;
        }
        if (reached) break;
      }
      continue;
    }
    // Joint 6 from the tool axes' components along z1 (x6·z1 = c6 s5, y6·z1 = -s6 s5); the other
    // wrist side (q5 negated) turns J6 by pi.
    const double sy = -y6.dot(z1), cx = x6.dot(z1);
    const double q6_up = detail::fast_atan2(sy, cx);
    const double n6 = std::sqrt(sy * sy + cx * cx);
    const double s6_up = sy / n6, c6_up = cx / n6;
    add_arm(1.0, q6_up, s6_up, c6_up);
    add_arm(-1.0, q6_up > 0.0 ? q6_up - std::numbers::pi : q6_up + std::numbers::pi, -s6_up,
            -c6_up);
  }
  return out;
}

namespace {

struct AxisLine {
  Vector3 direction;
  Vector3 point;
};

// Closest point of line a to line b (lines not parallel).
Vector3 closest_point(const AxisLine& a, const AxisLine& b) {
  const Vector3 w = a.point - b.point;
  const double ab = a.direction.dot(b.direction);
  const double denominator = 1.0 - ab * ab;
  const double t = (ab * b.direction.dot(w) - a.direction.dot(w)) / denominator;
  return a.point + t * a.direction;
}

double line_distance(const AxisLine& a, const AxisLine& b) {
  return (closest_point(a, b) - closest_point(b, a)).norm();
}

// Displacement from line a to the parallel line b, perpendicular to both.
Vector3 parallel_offset(const AxisLine& a, const AxisLine& b) {
  const Vector3 w = b.point - a.point;
  return w - a.direction * a.direction.dot(w);
}

}  // namespace

std::optional<UrParameters> derive_ur_parameters(const KinematicChain& chain, std::string* why) {
  constexpr double kTolerance = 1e-6;  // m and unit-vector components
  auto fail = [&](const std::string& reason) -> std::optional<UrParameters> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (chain.dof() != 6)
    return fail("the chain has " + std::to_string(chain.dof()) + " joints, not 6");
  for (const int variable : chain.variable_indices()) {
    const JointType type = chain.model()->variable_joint(variable).type;
    if (type != JointType::Revolute && type != JointType::Continuous)
      return fail("joint '" + chain.model()->variable_joint(variable).name + "' is not revolute");
  }
  // Joint axes at zero from the geometric Jacobian: w = axis, v = axis × (tip - point).
  const JointVector zero = JointVector::Zero(6);
  const Jacobian jacobian = chain.jacobian(zero);
  const Vector3 tip = chain.fk(zero).translation();
  std::array<AxisLine, 6> axes;
  for (int j = 0; j < 6; ++j) {
    const Vector3 direction = jacobian.block<3, 1>(3, j).normalized();
    const Vector3 velocity = jacobian.block<3, 1>(0, j);
    axes[static_cast<std::size_t>(j)] = {direction, tip - velocity.cross(direction)};
  }
  auto axis = [&](int joint) -> const AxisLine& {
    return axes[static_cast<std::size_t>(joint - 1)];
  };
  auto same = [&](const Vector3& a, const Vector3& b) { return (a - b).norm() < kTolerance; };
  auto perpendicular = [&](int i, int j) {
    return std::abs(axis(i).direction.dot(axis(j).direction)) < kTolerance;
  };
  auto intersect = [&](int i, int j) { return line_distance(axis(i), axis(j)) < kTolerance; };

  if (!perpendicular(1, 2) || !intersect(1, 2))
    return fail("joint axes 1 and 2 are not perpendicular and intersecting");
  if (!same(axis(2).direction, axis(3).direction) || !same(axis(3).direction, axis(4).direction))
    return fail("joint axes 2, 3 and 4 are not parallel (same direction)");
  if (!perpendicular(4, 5) || !intersect(4, 5) || !perpendicular(5, 6) || !intersect(5, 6))
    return fail("the wrist axes 4-5 and 5-6 are not perpendicular and intersecting");
  // At the DH zero, z4 = -z0 and z5 = z1: the URDF's zero pose must be the same pose.
  if (!same(axis(5).direction, -axis(1).direction) || !same(axis(6).direction, axis(2).direction))
    return fail("the zero pose differs from the UR convention (arm stretched out horizontally)");

  const Vector3 x1 = axis(1).direction.cross(axis(2).direction).normalized();
  const Vector3 shoulder = closest_point(axis(1), axis(2));
  const Vector3 upper_arm = parallel_offset(axis(2), axis(3));
  const Vector3 forearm = parallel_offset(axis(3), axis(4));
  UrParameters params;
  params.a2 = x1.dot(upper_arm);
  params.a3 = x1.dot(forearm);
  if (!same(upper_arm, params.a2 * x1) || !same(forearm, params.a3 * x1) ||
      std::abs(params.a2) < kTolerance || std::abs(params.a3) < kTolerance)
    return fail("the upper arm and forearm do not lie along the common normal of joints 1 and 2");
  const Vector3 wrist_1 = closest_point(axis(4), axis(5));
  const Vector3 wrist_2 = closest_point(axis(5), axis(6));
  params.d1 = axis(1).direction.dot(shoulder);  // base origin to the shoulder, along joint 1
  params.d4 = axis(2).direction.dot(wrist_1 - shoulder);
  params.d5 = axis(5).direction.dot(wrist_2 - wrist_1);
  params.d6 = axis(6).direction.dot(tip - wrist_2);
  return params;
}

namespace {

std::string unreachable_reason(const UrParameters& p, const Pose& flange) {
  const Vector3 wrist = flange.translation() - p.d6 * flange.linear().col(2);
  std::ostringstream reason;
  reason << "the pose is out of reach: its wrist point (" << wrist.x() << ", " << wrist.y() << ", "
         << wrist.z() << ") m lies beyond the arm's reach or within " << std::abs(p.d4)
         << " m of the base axis";
  return reason.str();
}

}  // namespace

UrIkSolver::UrIkSolver(const UrParameters& params, JointVector lower, JointVector upper)
    : params_(params) {
  context_.lower = six_joint_bound(std::move(lower), -2.0 * std::numbers::pi, "UR");
  context_.upper = six_joint_bound(std::move(upper), 2.0 * std::numbers::pi, "UR");
  context_.verify_fk = [this](const JointVector& q) { return ur_forward(params_, q); };
  context_.condition_number = [this](const JointVector& q) {
    return numeric_condition_number([this](const JointVector& x) { return ur_forward(params_, x); },
                                    q);
  };
  context_.solver_name = "UR";
}

UrIkSolver::UrIkSolver(const UrParameters& params, KinematicChain chain)
    : params_(params), chain_(std::move(chain)) {
  if (chain_->dof() != 6)
    throw Error(ErrorCode::InvalidModel,
                "UR IK needs a 6-joint chain; " + chain_->base_link() + " -> " +
                    chain_->tip_link() + " has " + std::to_string(chain_->dof()),
                "use the numeric or sweep solver for this chain");
  adapter_ = fit_frame_adapter([this](const JointVector& q) { return chain_->fk(q); },
                               [this](const JointVector& q) { return ur_forward(params_, q); },
                               "UR IK on " + chain_->base_link() + " -> " + chain_->tip_link());
  context_.lower = chain_->lower_limits();
  context_.upper = chain_->upper_limits();
  context_.verify_fk = [this](const JointVector& q) { return chain_->fk(q); };
  context_.condition_number = [this](const JointVector& q) { return chain_->condition_number(q); };
  context_.solver_name = "UR";
}

IkResult UrIkSolver::solve(const Pose& target, const JointVector& seed,
                           const IkOptions& options) const {
  return solve_ranked(target, seed, options, SeedDistance::Euclidean);
}

IkResult UrIkSolver::solve_continuing(const Pose& target, const JointVector& previous,
                                      const IkOptions& options) const {
  return solve_ranked(target, previous, options, SeedDistance::LargestJointChange);
}

IkResult UrIkSolver::solve_ranked(const Pose& target, const JointVector& seed,
                                  const IkOptions& options, SeedDistance ranking) const {
  check_analytic_request(target, seed, "UR");
  const Pose flange = chain_ ? adapter_.to_analytic(target) : target;
  const WristHint hint{seed[3], seed[5]};
  const AnalyticSolutions raw = ur_inverse(params_, flange, &hint);
  return finish_analytic_result(
      raw, target, seed, options, context_,
      raw.count == 0 ? unreachable_reason(params_, flange) : std::string(), ranking);
}

}  // namespace kinetic
