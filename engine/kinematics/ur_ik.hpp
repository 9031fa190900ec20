#pragma once
// Closed-form IK of the Universal Robots family (offset wrist: joints 2, 3, 4 parallel, the wrist
// axes offset rather than intersecting), after Hawkins, "Analytic inverse kinematics for the
// Universal Robots UR-5/UR-10 arms" (2013). Standard DH: alpha = (pi/2, 0, 0, pi/2, -pi/2, 0),
// a = (0, a2, a3, 0, 0, 0), d = (d1, 0, 0, d4, d5, d6); UR publishes a2, a3 < 0.
#include <optional>
#include <string>

#include "engine/kinematics/analytic_ik_common.hpp"
#include "engine/kinematics/ik_solver.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_config.hpp"

namespace kinetic {

// Tool-flange pose (DH frame 6) in the DH base frame.
Pose ur_forward(const UrParameters& params, const Vector6& q);

// All (≤ 8) solutions, not normalised and not filtered. At the wrist singularity (sin J5 = 0) J6
// is taken from `hint` (0 without one) and J2..J4 absorb the rest; where that J6 leaves the arm
// short of the pose, the nearest J6 (in degree steps) with which it reaches.
AnalyticSolutions ur_inverse(const UrParameters& params, const Pose& flange,
                             const WristHint* hint = nullptr);

// DH parameters read off a URDF chain's joint axes at zero, when the chain has the UR structure
// (6 revolute joints; 1⊥2 intersecting; 2∥3∥4; 4⊥5 and 5⊥6 intersecting; zero pose matching the
// DH zero). Otherwise nullopt, with the reason in *why.
std::optional<UrParameters> derive_ur_parameters(const KinematicChain& chain,
                                                 std::string* why = nullptr);

class UrIkSolver : public IkSolver {
 public:
  // The bare DH model: targets are flange poses in the DH base frame; limits default to ±2π.
  explicit UrIkSolver(const UrParameters& params, JointVector lower = {}, JointVector upper = {});
  // On a URDF chain (TCP included): base_link vs DH base and flange/TCP vs DH frame 6 are measured
  // here; every solution is verified with the chain's FK. Throws Error(InvalidModel) on mismatch.
  UrIkSolver(const UrParameters& params, KinematicChain chain);
  // The verification callbacks point into the solver: share it (IkSolverPtr), don't copy it.
  UrIkSolver(const UrIkSolver&) = delete;
  UrIkSolver& operator=(const UrIkSolver&) = delete;

  std::string name() const override { return "ur"; }
  int dof() const override { return 6; }
  IkResult solve(const Pose& target, const JointVector& seed,
                 const IkOptions& options = {}) const override;
  // Path-following variant: ranked by the largest single-joint change from `previous`.
  IkResult solve_continuing(const Pose& target, const JointVector& previous,
                            const IkOptions& options = {}) const;

  const UrParameters& parameters() const { return params_; }
  const FrameAdapter& frames() const { return adapter_; }

 private:
  IkResult solve_ranked(const Pose& target, const JointVector& seed, const IkOptions& options,
                        SeedDistance ranking) const;

  UrParameters params_;
  std::optional<KinematicChain> chain_;
  FrameAdapter adapter_;
  AnalyticSolveContext context_;
};

}  // namespace kinetic
