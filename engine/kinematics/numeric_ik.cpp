#include "engine/kinematics/numeric_ik.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// x = A⁻¹ b for the damped 6×6 normal matrix (symmetric positive definite while lambda > 0):
// a fixed-size Cholesky the compiler unrolls (Eigen's LLT took ~17% of a solve in perf). False
// when A is not positive definite (NaN input), so the caller can reject the step.
bool solve_spd6(const Matrix6& a, const Vector6& b, Vector6& x) {
  double l[6][6];
  double inverse_diagonal[6];
  for (int j = 0; j < 6; ++j) {
    double d = a(j, j);
    for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0.0)) return false;
    l[j][j] = std::sqrt(d);
    inverse_diagonal[j] = 1.0 / l[j][j];
    for (int i = j + 1; i < 6; ++i) {
      double v = a(i, j);
      for (int k = 0; k < j; ++k) v -= l[i][k] * l[j][k];
      l[i][j] = v * inverse_diagonal[j];
    }
  }
  double y[6];
  for (int i = 0; i < 6; ++i) {
    double v = b[i];
    for (int k = 0; k < i; ++k) v -= l[i][k] * y[k];
    y[i] = v * inverse_diagonal[i];
  }
  for (int i = 5; i >= 0; --i) {
    double v = y[i];
    for (int k = i + 1; k < 6; ++k) v -= l[k][i] * x[k];
    x[i] = v * inverse_diagonal[i];
  }
  return true;
}

// One solve: the target, what counts as converged, and the Levenberg–Marquardt iteration.
class LmSolve {
 public:
  LmSolve(const KinematicChain& chain, const NumericIkSettings& settings, const Pose& target,
          const IkOptions& options, std::uint64_t locked_mask)
      : chain_(chain),
        settings_(settings),
        target_(target),
        options_(options),
        locked_mask_(locked_mask),
        lower_(chain.lower_limits()),
        upper_(chain.upper_limits()),
        dq_(chain.dof()) {}

  struct State {
    JointVector q;
    Pose pose = Pose::Identity();
    Jacobian jacobian;  // locked columns and, position-only, orientation rows zeroed
    Vector6 error = Vector6::Zero();
    double cost = std::numeric_limits<double>::infinity();  // squared error norm
    double position_error = 0.0, orientation_error = 0.0;
  };

  bool locked(int i) const { return (locked_mask_ >> i) & 1U; }

  void project(JointVector& q) const {
    if (!options_.respect_limits) return;
    for (int i = 0; i < q.size(); ++i)
      if (chain_.has_position_limits(i)) q[i] = std::clamp(q[i], lower_[i], upper_[i]);
  }

  // dq = Jᵀ (J Jᵀ + lambda I)⁻¹ e (damped least squares); false for a non-finite system.
  bool damped_step(const Jacobian& jacobian, const Vector6& error, double lambda) {
    Matrix6 a;
    a.noalias() = jacobian.lazyProduct(jacobian.transpose());
    a.diagonal().array() += lambda;
    Vector6 weights;
    if (!solve_spd6(a, error, weights)) return false;
    dq_.noalias() = jacobian.transpose().lazyProduct(weights);
    return true;
  }

  // Marks in blocked_ the bounded joints at a limit that dq_ pushes beyond it; true if any.
  bool blocked_at_limits(const JointVector& q) {
    blocked_.assign(q.size(), 0);
    bool any = false;
    for (int i = 0; i < q.size(); ++i) {
      if (!chain_.has_position_limits(i)) continue;
      const bool at_lower = q[i] <= lower_[i] && dq_[i] < 0.0;
      const bool at_upper = q[i] >= upper_[i] && dq_[i] > 0.0;
      if (at_lower || at_upper) {
        blocked_[i] = 1;
        any = true;
      }
    }
    return any;
  }

  // FK, Jacobian and task error at s.q.
  void evaluate(State& s) const {
    chain_.fk_and_jacobian(s.q, s.pose, s.jacobian);
    if (locked_mask_ != 0)
      for (int i = 0; i < chain_.dof(); ++i)
        if (locked(i)) s.jacobian.col(i).setZero();
    s.error.head<3>() = target_.translation() - s.pose.translation();
    // Orientation error: rotation vector of R_target * Rᵀ, in the base frame.
    Eigen::Quaterniond q(Eigen::Matrix3d(target_.linear() * s.pose.linear().transpose()));
    if (q.w() < 0) q.coeffs() = -q.coeffs();
    const double n = q.vec().norm();
    const double angle = 2.0 * std::atan2(n, q.w());
    s.error.tail<3>() = n > 1e-300 ? Vector3(q.vec() * (angle / n)) : Vector3(2.0 * q.vec());
    s.position_error = s.error.head<3>().norm();
    s.orientation_error = angle;
    if (options_.position_only) {
      s.error.tail<3>().setZero();
      s.jacobian.bottomRows<3>().setZero();
    }
    s.cost = s.error.squaredNorm();
  }

  bool converged(const State& s) const {
    return s.position_error <= options_.position_tolerance &&
           (options_.position_only || s.orientation_error <= options_.orientation_tolerance);
  }

  // Levenberg–Marquardt from s.q; returns true once converged. `iterations` accumulates.
  bool descend(State& s, int max_iterations, NumericIkSolver::Clock::time_point deadline,
               bool check_time, int& iterations) {
    evaluate(s);
    if (converged(s)) return true;
    double lambda = settings_.initial_damping;
    double best = s.cost;
    int last_progress = 0;
    trial_.q.resize(s.q.size());
    for (int it = 1; it <= max_iterations; ++it) {
      ++iterations;
      stop_if_ik_cancelled(options_);
      if (check_time && NumericIkSolver::Clock::now() >= deadline) return false;
      // Damped least squares: dq = Jᵀ (J Jᵀ + lambda I)⁻¹ e, at most max_step per joint.
      if (!damped_step(s.jacobian, s.error, lambda)) return false;
      if (options_.respect_limits && blocked_at_limits(s.q)) {
        // Joints resting on a limit and pushed outwards would only be clamped back, which makes
        // the step useless and drives the damping up: solve again without them.
        free_jacobian_ = s.jacobian;
        for (int i = 0; i < dq_.size(); ++i)
          if (blocked_[i]) free_jacobian_.col(i).setZero();
        if (!damped_step(free_jacobian_, s.error, lambda)) return false;
      }
      const double largest = dq_.cwiseAbs().maxCoeff();
      if (largest > settings_.max_step) dq_ *= settings_.max_step / largest;
      trial_.q = s.q + dq_;
      project(trial_.q);
      evaluate(trial_);
      if (trial_.cost < s.cost) {
        std::swap(s, trial_);
        lambda = std::max(lambda * 0.2, settings_.min_damping);
        if (converged(s)) return true;
        if (s.cost < best * 0.9025) {  // the error norm fell by at least 5%
          best = s.cost;
          last_progress = it;
        }
      } else {
        lambda *= 10.0;
        if (lambda > settings_.max_damping) return false;
      }
      if (it - last_progress > settings_.stall_iterations) return false;
    }
    return false;
  }

 private:
  const KinematicChain& chain_;
  const NumericIkSettings& settings_;
  const Pose& target_;
  const IkOptions& options_;
  std::uint64_t locked_mask_;
  JointVector lower_, upper_;
  JointVector dq_;
  Jacobian free_jacobian_;
  std::vector<char> blocked_;
  State trial_;
};

// Objective h(q) to minimise in the null space, and its gradient.
class NullSpaceObjectiveFunction {
 public:
  NullSpaceObjectiveFunction(const KinematicChain& chain, NullSpaceObjective objective,
                             const JointVector& seed, bool position_only)
      : chain_(chain), objective_(objective), seed_(seed), position_only_(position_only) {
    mid_ = chain.mid_configuration();
    range_ = (chain.upper_limits() - chain.lower_limits()).cwiseMax(1e-6);
  }

  double value(const JointVector& q) const {
    switch (objective_) {
      case NullSpaceObjective::JointCentering:
        return 0.5 * ((q - mid_).cwiseQuotient(range_)).squaredNorm();
      case NullSpaceObjective::MinimalDisplacement:
        return 0.5 * (q - seed_).squaredNorm();
      case NullSpaceObjective::Manipulability:
        return -manipulability(q);
      case NullSpaceObjective::None:
        break;
    }
    return 0.0;
  }

  JointVector gradient(const JointVector& q) const {
    switch (objective_) {
      case NullSpaceObjective::JointCentering:
        return (q - mid_).cwiseQuotient(range_.cwiseProduct(range_));
      case NullSpaceObjective::MinimalDisplacement:
        return q - seed_;
      case NullSpaceObjective::Manipulability: {
        JointVector g(q.size());
        JointVector probe = q;
        constexpr double kDelta = 1e-6;
        for (int i = 0; i < q.size(); ++i) {
          probe[i] = q[i] + kDelta;
          const double up = -manipulability(probe);
          probe[i] = q[i] - kDelta;
          const double down = -manipulability(probe);
          probe[i] = q[i];
          g[i] = (up - down) / (2 * kDelta);
        }
        return g;
      }
      case NullSpaceObjective::None:
        break;
    }
    return JointVector::Zero(q.size());
  }

 private:
  // sqrt(det(J Jᵀ)) of the rows being solved: cheap enough for finite differences.
  double manipulability(const JointVector& q) const {
    const Jacobian j = chain_.jacobian(q);
    if (position_only_) {
      const Eigen::Matrix3d a = j.topRows<3>() * j.topRows<3>().transpose();
      return std::sqrt(std::max(0.0, a.determinant()));
    }
    if (j.cols() < 6) return KinematicChain::manipulability(j);
    const Matrix6 a = j * j.transpose();
    return std::sqrt(std::max(0.0, a.determinant()));
  }

  const KinematicChain& chain_;
  NullSpaceObjective objective_;
  JointVector seed_, mid_, range_;
  bool position_only_;
};

JointVector wrap_continuous(const KinematicChain& chain, JointVector q) {
  for (int i = 0; i < q.size(); ++i)
    if (!chain.has_position_limits(i)) q[i] = std::remainder(q[i], 2.0 * M_PI);
  return q;
}

}  // namespace

void stop_if_ik_cancelled(const IkOptions& options) {
  if (options.cancel && options.cancel->load(std::memory_order_relaxed))
    throw Error(ErrorCode::Cancelled, "IK cancelled");
}

void validate_ik_request(const Pose& target, const JointVector& seed, int dof) {
  if (seed.size() != dof)
    throw Error(ErrorCode::DimensionMismatch, "IK seed has " + std::to_string(seed.size()) +
                                                  " values, the chain has " + std::to_string(dof) +
                                                  " joints");
  if (!seed.allFinite())
    throw Error(ErrorCode::InvalidValue, "IK seed contains NaN or infinite values");
  if (!target.matrix().allFinite())
    throw Error(ErrorCode::InvalidValue, "IK target pose contains NaN or infinite values",
                "check the goal pose (position in metres, a valid rotation)");
}

NumericIkSolver::NumericIkSolver(KinematicChain chain, NumericIkSettings settings)
    : chain_(std::move(chain)), settings_(settings) {
  if (chain_.dof() == 0)
    throw Error(
        ErrorCode::InvalidModel,
        "chain " + chain_.base_link() + " -> " + chain_.tip_link() + " has no moving joints",
        "choose a tip link below at least one moving joint");
  if (chain_.dof() > 64)
    throw Error(ErrorCode::Unsupported, "numeric IK supports chains of at most 64 joints");
}

IkResult NumericIkSolver::solve(const Pose& target, const JointVector& seed,
                                const IkOptions& options) const {
  const auto deadline =
      Clock::now() + std::chrono::nanoseconds(static_cast<long long>(options.timeout_ms * 1e6));
  return solve_locked(target, seed, 0, options, deadline);
}

IkResult NumericIkSolver::solve_locked(const Pose& target, const JointVector& seed,
                                       std::uint64_t locked_mask, const IkOptions& options,
                                       Clock::time_point deadline) const {
  const auto start = Clock::now();
  validate_ik_request(target, seed, dof());
  if (!(options.position_tolerance > 0) || !(options.orientation_tolerance > 0))
    throw Error(ErrorCode::InvalidValue, "IK tolerances must be positive");

  LmSolve lm(chain_, settings_, target, options, locked_mask);
  const JointVector lower = chain_.lower_limits(), upper = chain_.upper_limits();
  // Seeded at the first restart, as most solves never restart: seeding its 312 words costs about
  // half a solve from a seed next to its answer (dense path IK).
  std::optional<std::mt19937_64> random;
  std::uniform_real_distribution<double> unit(0.0, 1.0);

  IkResult result;
  LmSolve::State state, best;
  int attempts = 0;
  bool converged = false;
  while (!converged) {
    if (attempts == 0) {
      state.q = seed;
    } else {
      if (Clock::now() >= deadline) break;
      if (!random) random.emplace(options.random_seed);
      for (int i = 0; i < dof(); ++i)
        state.q[i] = lm.locked(i) ? seed[i] : lower[i] + unit(*random) * (upper[i] - lower[i]);
    }
    lm.project(state.q);
    ++attempts;
    // The first attempt runs to its iteration limit whatever the budget, so that a zero timeout
    // still yields one honest attempt; restarts stop at the deadline.
    converged =
        lm.descend(state, options.max_iterations, deadline, attempts > 1, result.iterations);
    if (converged || state.cost < best.cost) best = state;
  }

  if (converged && options.objective != NullSpaceObjective::None) {
    // Improve the objective along the null space; every accepted point is itself converged.
    NullSpaceObjectiveFunction h(chain_, options.objective, seed, options.position_only);
    double value = h.value(best.q);
    for (int it = 0; it < settings_.null_space_iterations && Clock::now() < deadline; ++it) {
      lm.evaluate(best);
      const Jacobian& j = best.jacobian;
      Matrix6 a = j * j.transpose();
      a.diagonal().array() += 1e-10;
      JointVector gradient = h.gradient(best.q);
      for (int i = 0; i < dof(); ++i)
        if (lm.locked(i)) gradient[i] = 0.0;
      const JointVector direction = -(gradient - j.transpose() * a.llt().solve(j * gradient));
      const double largest = direction.cwiseAbs().maxCoeff();
      if (!(largest > 1e-9)) break;
      double gamma = std::min(1.0, 0.2 / largest);
      bool accepted = false;
      for (int halving = 0; halving < 8 && !accepted; ++halving, gamma *= 0.5) {
        LmSolve::State trial;
        trial.q = best.q + gamma * direction;
        lm.project(trial.q);
        int correction_iterations = 0;
        if (!lm.descend(trial, 8, deadline, false, correction_iterations)) continue;
        const double trial_value = h.value(trial.q);
        if (trial_value < value - 1e-12) {
          best = trial;
          value = trial_value;
          accepted = true;
        }
      }
      ++result.iterations;
      if (!accepted) break;
    }
  }

  result.q = wrap_continuous(chain_, best.q);
  lm.evaluate(best);  // errors and Jacobian at the returned configuration
  result.converged = converged;
  result.position_error = best.position_error;
  result.orientation_error = best.orientation_error;
  if (options.condition_number)
    result.condition_number = KinematicChain::condition_number(chain_.jacobian(result.q));
  if (!converged) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::ostringstream message;
    message << "no IK solution within tolerance (" << options.position_tolerance << " m, "
            << options.orientation_tolerance << " rad) after " << attempts << " attempt(s), "
            << result.iterations << " iterations, " << ms << " ms; best position error "
            << best.position_error << " m, orientation error " << best.orientation_error
            << " rad: the target may be out of reach or outside the joint limits, or the time "
               "budget too small";
    result.message = message.str();
  }
  return result;
}

}  // namespace kinetic
