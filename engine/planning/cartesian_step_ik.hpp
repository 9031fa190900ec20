#pragma once
// One step of dense Cartesian IK (cartesian_planner.cpp): the joint state at the next TCP pose, a
// millimetre from the last one.
//
// By default the numeric solve seeded with the last state, as every step has always been solved:
// the same iterates, so the same path, stops and reasons (only the Jacobian's condition number,
// which no step uses, is no longer computed: its SVD took more time than the solve itself). A seed
// predicted from the last step's joint change saved another sixth, but changes the iterates: the
// path moves within the tolerance, and a 7-joint arm drifts along its redundancy differently.
//
// Opt-in for robots with a closed-form solver (UR, OPW): the closed-form solution on the last
// state's branch, exact rather than within the IK tolerance, a fifth to a third faster per motion;
// where it has none within the jump threshold, the numeric solve decides (failures, jumps and
// joints at their limits are reported as before). The path differs from the numeric one within
// the IK tolerance, so near a singularity, or where a joint's step is about the jump threshold, the
// motion can stop a few steps elsewhere, and from a singular start it can take another branch.
#include <functional>

#include "engine/kinematics/analytic_ik_common.hpp"
#include "engine/kinematics/ik_solver.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"

namespace kinetic {

class CartesianStepIk {
 public:
  // closed_form: the robot's solver on this chain (make_ik_solver), used when it is a closed-form
  // one (UR, OPW) and ignored otherwise; null: numeric steps only. options: tolerances and budget
  // of the numeric solve.
  CartesianStepIk(const KinematicChain& chain, const IkSolverPtr& closed_form,
                  const IkOptions& options, double jump_threshold);

  enum class Source { ClosedForm, Numeric };
  struct Step {
    IkResult ik;  // chain order; not converged when the numeric solve failed
    Source source = Source::Numeric;
  };
  // target: TCP pose in the chain's base; last: the last step's state (chain order).
  Step solve(const Pose& target, const JointVector& last) const;

  bool has_closed_form() const { return static_cast<bool>(raw_solutions_); }

 private:
  // Of the raw solutions, each joint turned by whole turns next to its last value, the one whose
  // largest joint change is smallest; kept when it is inside the limits, within the jump threshold,
  // and the chain's FK reaches the target within the IK tolerance. (The solvers' solve_continuing
  // ranks the same way but also places, verifies and copies all eight solutions: three times as
  // long as this, and slower than the numeric step.)
  bool closed_form_step(const Pose& target, const JointVector& last, IkResult& out) const;

  const KinematicChain& chain_;
  NumericIkSolver numeric_;
  // Raw solutions of a TCP target (chain base frame); the hint keeps J4/J6 at a wrist singularity.
  std::function<AnalyticSolutions(const Pose&, const WristHint&)> raw_solutions_;
  JointVector lower_, upper_;
  IkOptions options_;
  double jump_threshold_;
};

}  // namespace kinetic
