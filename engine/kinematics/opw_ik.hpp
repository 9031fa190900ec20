#pragma once
// Closed-form IK of ortho-parallel arms with a spherical wrist (Brandstötter, Angerer, Hofbaur,
// "An analytical solution of the inverse kinematics problem of industrial serial manipulators with
// an ortho-parallel basis and a spherical wrist", 2014), in the convention of the ROS
// opw_kinematics package: robot joint q = sign_correction * theta - offset.
#include <optional>

#include "engine/kinematics/analytic_ik_common.hpp"
#include "engine/kinematics/ik_solver.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_config.hpp"

namespace kinetic {

// Flange pose (tool frame at c4 beyond the wrist centre) in the OPW base frame; q in robot joints.
Pose opw_forward(const OpwParameters& params, const Vector6& q);

// All (≤ 8) solutions in robot joints, not normalised and not filtered. At the wrist singularity
// the J4/J6 split follows `hint` (J4 = J6 = 0 without one) and the pair counts once.
AnalyticSolutions opw_inverse(const OpwParameters& params, const Pose& flange,
                              const WristHint* hint = nullptr);

class OpwIkSolver : public IkSolver {
 public:
  // The bare OPW model: targets are flange poses in the OPW base frame; lower/upper default to
  // [-pi, pi] per joint.
  explicit OpwIkSolver(const OpwParameters& params, JointVector lower = {}, JointVector upper = {});
  // On a URDF chain (its TCP included): the fixed frames between the chain's base/tip and the OPW
  // base/flange are measured here, and every solution is verified with the chain's own FK.
  // Throws Error(InvalidModel) when the chain is not 6-DOF or does not match the parameters.
  OpwIkSolver(const OpwParameters& params, KinematicChain chain);
  // The verification callbacks point into the solver: share it (IkSolverPtr), don't copy it.
  OpwIkSolver(const OpwIkSolver&) = delete;
  OpwIkSolver& operator=(const OpwIkSolver&) = delete;

  std::string name() const override { return "opw"; }
  int dof() const override { return 6; }
  // All solutions, nearest the seed first; at the wrist singularity J4/J6 stay near the seed's.
  IkResult solve(const Pose& target, const JointVector& seed,
                 const IkOptions& options = {}) const override;
  // Continuing mode for paths: like solve() with the previous configuration as the seed, but
  // ranked by the largest single-joint change, so the chosen solution never swings one joint
  // (J4/J6 at the wrist singularity included) when a calmer one reaches the pose.
  IkResult solve_continuing(const Pose& target, const JointVector& previous,
                            const IkOptions& options = {}) const;

  const OpwParameters& parameters() const { return params_; }
  const FrameAdapter& frames() const { return adapter_; }
  const std::optional<KinematicChain>& chain() const { return chain_; }

 private:
  IkResult solve_ranked(const Pose& target, const JointVector& seed, const IkOptions& options,
                        SeedDistance ranking) const;

  OpwParameters params_;
  std::optional<KinematicChain> chain_;
  FrameAdapter adapter_;
  AnalyticSolveContext context_;
};

}  // namespace kinetic
