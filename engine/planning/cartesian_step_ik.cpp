#include "engine/planning/cartesian_step_ik.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"

namespace kinetic {

CartesianStepIk::CartesianStepIk(const KinematicChain& chain, const IkSolverPtr& closed_form,
                                 const IkOptions& options, double jump_threshold)
    : chain_(chain),
      numeric_(chain),
      lower_(chain.lower_limits()),
      upper_(chain.upper_limits()),
      options_(options),
      jump_threshold_(jump_threshold) {
  options_.condition_number = false;
  if (chain.dof() != 6) return;
  if (auto ur = std::dynamic_pointer_cast<const UrIkSolver>(closed_form))
    raw_solutions_ = [ur](const Pose& target, const WristHint& hint) {
      return ur_inverse(ur->parameters(), ur->frames().to_analytic(target), &hint);
    };
  else if (auto opw = std::dynamic_pointer_cast<const OpwIkSolver>(closed_form))
    raw_solutions_ = [opw](const Pose& target, const WristHint& hint) {
      return opw_inverse(opw->parameters(), opw->frames().to_analytic(target), &hint);
    };
}

bool CartesianStepIk::closed_form_step(const Pose& target, const JointVector& last,
                                       IkResult& out) const {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  const AnalyticSolutions raw = raw_solutions_(target, WristHint{last[3], last[5]});
  Vector6 best;
  double best_change = std::numeric_limits<double>::infinity();
  for (int s = 0; s < raw.count; ++s) {
    Vector6 q = raw.q[static_cast<std::size_t>(s)];
    double change = 0.0;
    for (int j = 0; j < 6 && change < best_change; ++j) {
      q[j] += kTwoPi * std::round((last[j] - q[j]) / kTwoPi);
      change = std::max(change, std::abs(q[j] - last[j]));
    }
    if (change < best_change && q.allFinite()) {
      best = q;
      best_change = change;
    }
  }
  if (!(best_change <= jump_threshold_)) return false;
  for (int j = 0; j < 6; ++j)
    if (!(best[j] >= lower_[j] && best[j] <= upper_[j])) return false;
  out.q = best;
  const PoseDistance error = pose_distance(chain_.fk(out.q), target);
  out.position_error = error.position;
  out.orientation_error = error.orientation;
  out.iterations = 1;
  out.converged = error.position <= options_.position_tolerance &&
                  error.orientation <= options_.orientation_tolerance;
  return out.converged;
}

CartesianStepIk::Step CartesianStepIk::solve(const Pose& target, const JointVector& last) const {
  Step step;
  if (raw_solutions_ && closed_form_step(target, last, step.ik)) {
    step.source = Source::ClosedForm;
    return step;
  }
  step.ik = numeric_.solve(target, last, options_);
  step.source = Source::Numeric;
  return step;
}

}  // namespace kinetic
