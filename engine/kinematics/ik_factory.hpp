#pragma once
// Picks and builds the IK solver of a robot's planning group from kinetic.toml's [ik] table:
//   solver = "opw"     needs [ik.opw]
//            "ur"      uses [ik.ur], else the DH parameters read off a UR-shaped URDF chain
//            "numeric" damped least squares, any chain
//            "sweep"   7-DOF: sweeps [ik] redundant_joint (default: the chain's 3rd joint)
//            "auto"    opw if [ik.opw] is given, else ur if [ik.ur] is given or the chain is
//                      UR-shaped, else sweep for 7 DOF, else numeric (the default)
// Every solver works on the group's chain with the end effector's TCP, so targets are TCP poses
// in the group's base link.
#include <string>
#include <vector>

#include "engine/kinematics/ik_solver.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

// group "" = [ik] group, else the first planning group. Throws Error(InvalidValue) for an
// unknown solver name or a solver the robot cannot use (saying why and what to write instead),
// Error(InvalidModel) when analytic parameters do not match the robot's URDF.
IkSolverPtr make_ik_solver(RobotModelPtr model, const std::string& group = "");

// The options every IK call on this robot starts from: kinetic.toml's [ik] position_tolerance,
// orientation_tolerance, timeout_ms and max_iterations (IkOptions' defaults where the file is
// silent).
IkOptions ik_options_from_config(const RobotModel& model);

// The solver names kinetic.toml accepts.
const std::vector<std::string>& ik_solver_names();

}  // namespace kinetic
