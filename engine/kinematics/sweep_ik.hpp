#pragma once
// IK for redundant (7+ DOF) arms by sweeping one redundant joint: for each sampled value of that
// joint the remaining 6-DOF problem is solved numerically, seeded from the neighbouring sample's
// solution (a continuation along the self-motion). Returns the distinct solutions found in
// IkResult::solutions and, in IkResult::q, the one nearest the seed.
#include <string>

#include "engine/kinematics/numeric_ik.hpp"

namespace kinetic {

struct SweepIkSettings {
  std::string redundant_joint;  // "" = chosen automatically (see below)
  int samples = 16;             // values of the redundant joint across its range
  // Two solutions are distinct when some joint differs by more than this (rad or m).
  double distinct_distance = 0.05;
  NumericIkSettings numeric;
};

class RedundantSweepIkSolver : public IkSolver {
 public:
  // Throws Error(InvalidModel) below 7 DOF, Error(MissingJoint) for an unknown redundant joint.
  // Automatic choice: the joint with the largest share of the Jacobian's null-space direction at
  // mid-limits, i.e. the one whose locking removes the self-motion best.
  explicit RedundantSweepIkSolver(KinematicChain chain, SweepIkSettings settings = {});

  std::string name() const override { return "sweep"; }
  int dof() const override { return solver_.dof(); }
  IkResult solve(const Pose& target, const JointVector& seed,
                 const IkOptions& options = {}) const override;

  int redundant_index() const { return redundant_; }  // chain index of the swept joint
  const KinematicChain& chain() const { return solver_.chain(); }

 private:
  NumericIkSolver solver_;
  SweepIkSettings settings_;
  int redundant_ = 0;
};

}  // namespace kinetic
