#include "engine/kinematics/opw_ik.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <utility>

#include "engine/core/error.hpp"
#include "engine/kinematics/fast_atan2.hpp"
#include "engine/kinematics/fast_sincos.hpp"

namespace kinetic {
namespace {

// OPW angle theta -> robot joint, and back.
double to_robot(const OpwParameters& p, int joint, double theta) {
  return (theta + p.offsets[static_cast<std::size_t>(joint)]) *
         p.sign_corrections[static_cast<std::size_t>(joint)];
}
double to_opw(const OpwParameters& p, int joint, double q) {
  return q * p.sign_corrections[static_cast<std::size_t>(joint)] -
         p.offsets[static_cast<std::size_t>(joint)];
}

// Appends the wrist solutions for one arm solution (theta1..3) given the wrist rotation
// R_ce = (Rz(theta1) Ry(theta2 + theta3))ᵀ R, which equals Rz(theta4) Ry(theta5) Rz(theta6).
void add_wrist_solutions(const OpwParameters& p, double t1, double t2, double t3,
                         const Eigen::Matrix3d& rce, double ref4, double ref6,
                         AnalyticSolutions& out) {
  auto add = [&](double t4, double t5, double t6) {
    Vector6 q;
    q << to_robot(p, 0, t1), to_robot(p, 1, t2), to_robot(p, 2, t3), to_robot(p, 3, t4),
        to_robot(p, 4, t5), to_robot(p, 5, t6);
    out.add(q);
  };
  const double s5 = std::sqrt(rce(0, 2) * rce(0, 2) + rce(1, 2) * rce(1, 2));
  if (s5 > kWristSingularity) {
    const double t4 = detail::fast_atan2(rce(1, 2), rce(0, 2));
    const double t5 = detail::fast_atan2(s5, rce(2, 2));
    const double norm = std::sqrt(s5 * s5 + rce(2, 2) * rce(2, 2));
    const double c5 = rce(2, 2) / norm, sn5 = s5 / norm;
    const double c4 = rce(0, 2) / s5, s4 = rce(1, 2) / s5;  // cos/sin of t4 without trigonometry
    // theta6 from what J4 and J5 leave over, Rz(theta6) = Ry(theta5)ᵀ Rz(theta4)ᵀ R_ce: exact
    // even when J5 is small, where a direct atan2 of R_ce's last row loses precision.
    const double t6 = detail::fast_atan2(-s4 * rce(0, 0) + c4 * rce(1, 0),
                                         c5 * (c4 * rce(0, 0) + s4 * rce(1, 0)) - sn5 * rce(2, 0));
    add(t4, t5, t6);
    add(t4 + std::numbers::pi, -t5, t6 + std::numbers::pi);  // the flipped wrist
    return;
  }
  // Singular wrist: R_ce = Rz(theta4 ± theta6) (times Ry(pi) when J5 = pi). Split the change of
  // the determined sum/difference evenly so J4 and J6 both move as little as possible.
  if (rce(2, 2) > 0.0) {
    const double sum = detail::fast_atan2(rce(1, 0), rce(0, 0));
    const double delta = wrap_angle(sum - (ref4 + ref6));
    add(ref4 + 0.5 * delta, 0.0, ref6 + 0.5 * delta);
  } else {
    const double difference = detail::fast_atan2(-rce(0, 1), rce(1, 1));
    const double delta = wrap_angle(difference - (ref4 - ref6));
    add(ref4 + 0.5 * delta, std::numbers::pi, ref6 - 0.5 * delta);
  }
}

}  // namespace

Pose opw_forward(const OpwParameters& p, const Vector6& qs) {
  double t[6];
  for (int j = 0; j < 6; ++j) t[j] = to_opw(p, j, qs[j]);
  const double psi3 = detail::fast_atan2(p.a2, p.c3);
  const double k = std::sqrt(p.a2 * p.a2 + p.c3 * p.c3);
  double s1, c1;
  detail::fast_sincos(t[0], s1, c1);
  double s2, c2;
  detail::fast_sincos(t[1], s2, c2);
  double s23, c23;
  detail::fast_sincos(t[1] + t[2], s23, c23);
  double s4, c4;
  detail::fast_sincos(t[3], s4, c4);
  double s5, c5;
  detail::fast_sincos(t[4], s5, c5);
  double s6, c6;
  detail::fast_sincos(t[5], s6, c6);

  // Wrist centre in the frame turned by J1, then in the base frame.
  const double cx1 = p.c2 * s2 + k * std::sin(t[1] + t[2] + psi3) + p.a1;
  const double cy1 = p.b;
  const double cz1 = p.c2 * c2 + k * std::cos(t[1] + t[2] + psi3);
  const Vector3 centre(cx1 * c1 - cy1 * s1, cx1 * s1 + cy1 * c1, cz1 + p.c1);

  Eigen::Matrix3d r0c;  // Rz(theta1) Ry(theta2 + theta3)
  r0c << c1 * c23, -s1, c1 * s23, s1 * c23, c1, s1 * s23, -s23, 0.0, c23;
  Eigen::Matrix3d rce;  // Rz(theta4) Ry(theta5) Rz(theta6)
  rce << c4 * c5 * c6 - s4 * s6, -c4 * c5 * s6 - s4 * c6, c4 * s5,  //
      s4 * c5 * c6 + c4 * s6, -s4 * c5 * s6 + c4 * c6, s4 * s5,     //
      -s5 * c6, s5 * s6, c5;
  Pose pose = Pose::Identity();
  pose.linear() = r0c * rce;
  pose.translation() = centre + p.c4 * pose.linear().col(2);
  return pose;
}

AnalyticSolutions opw_inverse(const OpwParameters& p, const Pose& flange, const WristHint* hint) {
  AnalyticSolutions out;
  const Eigen::Matrix3d rotation = flange.linear();
  const Vector3 centre = flange.translation() - p.c4 * rotation.col(2);

  const double radial2 = centre.x() * centre.x() + centre.y() * centre.y() - p.b * p.b;
  if (!(radial2 >= 0.0)) return out;  // inside the cylinder of radius b: no J1 reaches it
  const double radial = std::sqrt(radial2);
  const double heading = detail::fast_atan2(centre.y(), centre.x());
  const double lean = detail::fast_atan2(p.b, radial);
  // J1 facing the wrist centre (arm reaches forward), and turned away (arm reaches backward).
  const double shoulder[2] = {heading - lean, heading + lean - std::numbers::pi};
  const double reach_x[2] = {radial - p.a1, -radial - p.a1};
  const double reach_z = centre.z() - p.c1;

  const double k2 = p.a2 * p.a2 + p.c3 * p.c3;
  const double k = std::sqrt(k2);
  const double psi3 = detail::fast_atan2(p.a2, p.c3);
  const double ref4 = hint ? to_opw(p, 3, hint->j4) : 0.0;
  const double ref6 = hint ? to_opw(p, 5, hint->j6) : 0.0;

  for (int s = 0; s < 2; ++s) {
    const double x = reach_x[s];
    // Two-link arm in the J1 plane: c2 (upper arm) and k (forearm to wrist centre).
    double cos_u = (x * x + reach_z * reach_z - p.c2 * p.c2 - k2) / (2.0 * p.c2 * k);
    if (!(std::abs(cos_u) <= 1.0 + kCosineSlack)) continue;
    cos_u = std::clamp(cos_u, -1.0, 1.0);
    const double sin_elbow = std::sqrt((1.0 - cos_u) * (1.0 + cos_u));
    const double elbow = detail::fast_atan2(sin_elbow, cos_u);
    const double towards_centre = detail::fast_atan2(x, reach_z);
    double s1, c1;
    detail::fast_sincos(shoulder[s], s1, c1);
    for (const double side : {1.0, -1.0}) {
      if (side < 0.0 && elbow == 0.0) break;  // both elbows coincide
      const double u = side * elbow;
      const double t3 = u - psi3;
      const double t2 = towards_centre - detail::fast_atan2(k * side * sin_elbow, p.c2 + k * cos_u);
      double s23, c23;
      detail::fast_sincos(t2 + t3, s23, c23);
      Eigen::Matrix3d r0c;
      r0c << c1 * c23, -s1, c1 * s23, s1 * c23, c1, s1 * s23, -s23, 0.0, c23;
      const Eigen::Matrix3d rce = r0c.transpose() * rotation;
      add_wrist_solutions(p, shoulder[s], t2, t3, rce, ref4, ref6, out);
    }
  }
  return out;
}

namespace {

std::string unreachable_reason(const OpwParameters& p, const Pose& flange) {
  const Vector3 centre = flange.translation() - p.c4 * flange.linear().col(2);
  std::ostringstream reason;
  reason << "the pose is out of reach: its wrist centre (" << centre.x() << ", " << centre.y()
         << ", " << centre.z() << ") m lies beyond the arm's reach or inside its dead zone";
  return reason.str();
}

}  // namespace

OpwIkSolver::OpwIkSolver(const OpwParameters& params, JointVector lower, JointVector upper)
    : params_(params) {
  context_.lower = six_joint_bound(std::move(lower), -std::numbers::pi, "OPW");
  context_.upper = six_joint_bound(std::move(upper), std::numbers::pi, "OPW");
  context_.verify_fk = [this](const JointVector& q) { return opw_forward(params_, q); };
  context_.condition_number = [this](const JointVector& q) {
    return numeric_condition_number(
        [this](const JointVector& x) { return opw_forward(params_, x); }, q);
  };
  context_.solver_name = "OPW";
}

OpwIkSolver::OpwIkSolver(const OpwParameters& params, KinematicChain chain)
    : params_(params), chain_(std::move(chain)) {
  if (chain_->dof() != 6)
    throw Error(ErrorCode::InvalidModel,
                "OPW IK needs a 6-joint chain; " + chain_->base_link() + " -> " +
                    chain_->tip_link() + " has " + std::to_string(chain_->dof()),
                "use the numeric or sweep solver for this chain");
  adapter_ = fit_frame_adapter([this](const JointVector& q) { return chain_->fk(q); },
                               [this](const JointVector& q) { return opw_forward(params_, q); },
                               "OPW IK on " + chain_->base_link() + " -> " + chain_->tip_link());
  context_.lower = chain_->lower_limits();
  context_.upper = chain_->upper_limits();
  context_.verify_fk = [this](const JointVector& q) { return chain_->fk(q); };
  context_.condition_number = [this](const JointVector& q) { return chain_->condition_number(q); };
  context_.solver_name = "OPW";
}

IkResult OpwIkSolver::solve(const Pose& target, const JointVector& seed,
                            const IkOptions& options) const {
  return solve_ranked(target, seed, options, SeedDistance::Euclidean);
}

IkResult OpwIkSolver::solve_continuing(const Pose& target, const JointVector& previous,
                                       const IkOptions& options) const {
  return solve_ranked(target, previous, options, SeedDistance::LargestJointChange);
}

IkResult OpwIkSolver::solve_ranked(const Pose& target, const JointVector& seed,
                                   const IkOptions& options, SeedDistance ranking) const {
  check_analytic_request(target, seed, "OPW");
  const Pose flange = chain_ ? adapter_.to_analytic(target) : target;
  const WristHint hint{seed[3], seed[5]};
  const AnalyticSolutions raw = opw_inverse(params_, flange, &hint);
  return finish_analytic_result(
      raw, target, seed, options, context_,
      raw.count == 0 ? unreachable_reason(params_, flange) : std::string(), ranking);
}

}  // namespace kinetic
