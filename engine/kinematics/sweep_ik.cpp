#include "engine/kinematics/sweep_ik.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include "engine/core/small_decompositions.hpp"

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

int choose_redundant_joint(const KinematicChain& chain, const std::string& name) {
  if (!name.empty()) {
    const std::vector<std::string> names = chain.joint_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw Error(ErrorCode::MissingJoint,
                  "redundant joint '" + name + "' is not in the chain " + chain.base_link() +
                      " -> " + chain.tip_link(),
                  "choose one of: " + known);
    }
    return static_cast<int>(it - names.begin());
  }
  // The self-motion at mid-limits is the Jacobian's (last) right singular vector: lock the joint
  // that takes the largest part in it.
  const Jacobian j = chain.jacobian(chain.mid_configuration());
  Eigen::VectorXd sigma;
  Eigen::MatrixXd v;
  singular_values(j, sigma, &v);
  const Eigen::VectorXd self_motion = v.col(chain.dof() - 1);
  Eigen::Index best = 0;
  self_motion.cwiseAbs().maxCoeff(&best);
  return static_cast<int>(best);
}

bool is_distinct(const std::vector<JointVector>& solutions, const JointVector& q, double distance) {
  return std::all_of(solutions.begin(), solutions.end(), [&](const JointVector& s) {
    return (s - q).cwiseAbs().maxCoeff() > distance;
  });
}

}  // namespace

RedundantSweepIkSolver::RedundantSweepIkSolver(KinematicChain chain, SweepIkSettings settings)
    : solver_(std::move(chain), settings.numeric), settings_(std::move(settings)) {
  if (solver_.dof() < 7)
    throw Error(ErrorCode::InvalidModel,
                "the sweep IK solver needs a redundant chain (7+ joints); " +
                    solver_.chain().base_link() + " -> " + solver_.chain().tip_link() + " has " +
                    std::to_string(solver_.dof()),
                "use the numeric or an analytic solver for this chain");
  if (settings_.samples < 1)
    throw Error(ErrorCode::InvalidValue, "the sweep IK solver needs at least one sample");
  redundant_ = choose_redundant_joint(solver_.chain(), settings_.redundant_joint);
}

IkResult RedundantSweepIkSolver::solve(const Pose& target, const JointVector& seed,
                                       const IkOptions& options) const {
  using Clock = NumericIkSolver::Clock;
  validate_ik_request(target, seed, dof());
  const auto start = Clock::now();
  const auto deadline =
      start + std::chrono::nanoseconds(static_cast<long long>(options.timeout_ms * 1e6));
  const KinematicChain& chain = solver_.chain();
  const double low = chain.lower_limits()[redundant_];
  const double high = chain.upper_limits()[redundant_];
  const int samples = settings_.samples;

  // Sample values ordered outwards from the seed's value, so each continuation starts close.
  std::vector<double> values;
  for (int k = 0; k < samples; ++k)
    values.push_back(samples == 1 ? 0.5 * (low + high) : low + (high - low) * k / (samples - 1));
  const double seed_value = seed[redundant_];
  std::vector<int> above, below;
  for (int k = 0; k < samples; ++k) (values[k] >= seed_value ? above : below).push_back(k);
  std::reverse(below.begin(), below.end());

  IkOptions sub_options = options;
  sub_options.objective = NullSpaceObjective::None;
  const std::uint64_t locked = std::uint64_t{1} << redundant_;

  IkResult result;
  std::vector<JointVector> solutions;
  auto record = [&](const IkResult& sub) {
    result.iterations += sub.iterations;
    if (sub.converged && is_distinct(solutions, sub.q, settings_.distinct_distance))
      solutions.push_back(sub.q);
  };
  // The free 7-DOF solve from the seed first: usually the solution nearest the seed.
  {
    const auto share = (deadline - Clock::now()) / (samples + 1);
    record(solver_.solve_locked(target, seed, 0, sub_options, Clock::now() + share));
  }
  int remaining = samples;
  for (const std::vector<int>* branch : {&above, &below}) {
    JointVector previous = seed;
    for (const int k : *branch) {
      if (Clock::now() >= deadline) break;
      const auto share = (deadline - Clock::now()) / std::max(remaining, 1);
      --remaining;
      JointVector sub_seed = previous;
      sub_seed[redundant_] = values[k];
      sub_options.random_seed = options.random_seed + static_cast<std::uint64_t>(k) + 1;
      const IkResult sub =
          solver_.solve_locked(target, sub_seed, locked, sub_options, Clock::now() + share);
      record(sub);
      previous = sub.converged ? sub.q : seed;
    }
  }

  result.solutions = solutions;
  result.converged = !solutions.empty();
  if (result.converged) {
    result.q = *std::min_element(solutions.begin(), solutions.end(),
                                 [&](const JointVector& a, const JointVector& b) {
                                   return (a - seed).squaredNorm() < (b - seed).squaredNorm();
                                 });
  } else {
    result.q = seed;
    result.message = "no IK solution found sweeping joint '" + chain.joint_names()[redundant_] +
                     "' over " + std::to_string(samples) +
                     " values within the time budget: the target may be out of reach or outside "
                     "the joint limits";
  }
  const Pose reached = chain.fk(result.q);
  result.position_error = (target.translation() - reached.translation()).norm();
  result.orientation_error =
      Eigen::AngleAxisd(Eigen::Matrix3d(target.linear() * reached.linear().transpose())).angle();
  if (options.condition_number)
    result.condition_number = KinematicChain::condition_number(chain.jacobian(result.q));
  return result;
}

}  // namespace kinetic
