#include "engine/kinematics/ik_factory.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/sweep_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"

namespace kinetic {
namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string describe(const RobotModel& model, const KinematicChain& chain) {
  return "robot '" + model.name() + "' (" + chain.base_link() + " -> " + chain.tip_link() + ", " +
         std::to_string(chain.dof()) + " joints)";
}

IkSolverPtr make_sweep(const RobotModel& model, const KinematicChain& chain, const IkConfig& ik) {
  if (chain.dof() != 7)
    throw Error(ErrorCode::InvalidValue,
                "[ik] solver = \"sweep\" needs a 7-joint chain; " + describe(model, chain) +
                    " has " + std::to_string(chain.dof()),
                "use solver = \"numeric\" (or \"auto\") for this robot");
  SweepIkSettings settings;
  // The third joint (the elbow-redundancy joint of Panda, iiwa, Gen3 and xArm 7) unless named.
  settings.redundant_joint =
      ik.redundant_joint.empty() ? chain.joint_names()[2] : ik.redundant_joint;
  settings.samples = ik.sweep_samples;
  return std::make_shared<RedundantSweepIkSolver>(chain, settings);
}

IkSolverPtr make_ur(const RobotModel& model, const KinematicChain& chain, const IkConfig& ik) {
  if (ik.ur) return std::make_shared<UrIkSolver>(*ik.ur, chain);
  std::string why;
  const auto derived = derive_ur_parameters(chain, &why);
  if (!derived)
    throw Error(ErrorCode::InvalidValue,
                "[ik] solver = \"ur\" needs [ik.ur] parameters or a UR-shaped chain, and " +
                    describe(model, chain) + " is not UR-shaped: " + why,
                "add [ik.ur] with d1, a2, a3, d4, d5, d6, or use solver = \"numeric\"");
  return std::make_shared<UrIkSolver>(*derived, chain);
}

}  // namespace

const std::vector<std::string>& ik_solver_names() {
  static const std::vector<std::string> names{"auto", "opw", "ur", "numeric", "sweep"};
  return names;
}

IkSolverPtr make_ik_solver(RobotModelPtr model, const std::string& group) {
  if (!model) throw Error(ErrorCode::InvalidValue, "make_ik_solver needs a robot model, got null");
  const IkConfig& ik = model->config().ik;
  const std::string kind = lowercase(ik.solver.empty() ? std::string("auto") : ik.solver);
  const auto& names = ik_solver_names();
  if (std::find(names.begin(), names.end(), kind) == names.end())
    throw Error(ErrorCode::InvalidValue,
                "robot '" + model->name() + "': unknown IK solver \"" + ik.solver + "\" in [ik]",
                "use one of auto, opw, ur, numeric, sweep");

  const KinematicChain chain = KinematicChain::from_config(model, group.empty() ? ik.group : group);
  if (kind == "opw") {
    if (!ik.opw)
      throw Error(ErrorCode::InvalidValue,
                  "[ik] solver = \"opw\" needs an [ik.opw] table, and " + describe(*model, chain) +
                      " has none",
                  "add [ik.opw] with a1, a2, b, c1, c2, c3, c4 (and offsets, sign_corrections), "
                  "or use solver = \"auto\"");
    return std::make_shared<OpwIkSolver>(*ik.opw, chain);
  }
  if (kind == "ur") return make_ur(*model, chain, ik);
  if (kind == "numeric") return std::make_shared<NumericIkSolver>(chain);
  if (kind == "sweep") return make_sweep(*model, chain, ik);

  // auto
  if (ik.opw) return std::make_shared<OpwIkSolver>(*ik.opw, chain);
  if (ik.ur) return std::make_shared<UrIkSolver>(*ik.ur, chain);
  if (const auto derived = derive_ur_parameters(chain)) {
    // UR-shaped axes whose zero pose or joint directions still disagree with the DH model make
    // the adapter fit throw; auto then falls back to the general solvers.
    try {
      return std::make_shared<UrIkSolver>(*derived, chain);
    } catch (const Error&) {
    }
  }
  if (chain.dof() == 7) return make_sweep(*model, chain, ik);
  return std::make_shared<NumericIkSolver>(chain);
}

IkOptions ik_options_from_config(const RobotModel& model) {
  const IkConfig& config = model.config().ik;
  IkOptions options;
  options.position_tolerance = config.position_tolerance;
  options.orientation_tolerance = config.orientation_tolerance;
  options.timeout_ms = config.timeout_ms;
  options.max_iterations = config.max_iterations;
  return options;
}

}  // namespace kinetic
