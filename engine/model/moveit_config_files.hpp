#pragma once
// A MoveIt config's YAML files as the engine's configuration: joint_limits.yaml (velocity,
// acceleration, jerk and position limits, default scaling), kinematics.yaml (the IK group, timeout
// and iterations) and initial_positions.yaml (the pose the robot opens in). What cannot be used is
// skipped with a warning naming the file and line, never refusing the robot: a YAML that does not
// parse skips that file, an entry naming a joint or group the robot lacks skips that entry.
#include <string>
#include <vector>

#include "engine/model/moveit_config_package.hpp"
#include "engine/model/robot_config.hpp"

namespace kinetic {

class RobotModel;

// Writes into `config` what the package's files set (a kinetic.toml read afterwards over the same
// config wins). `model` is the robot with its SRDF (joint and group names). `notes`: one line per
// file used, saying what came from it; `warnings`: one per skipped file or entry.
void apply_moveit_config_files(const MoveItConfigPackage& package, const RobotModel& model,
                               RobotConfig& config, std::vector<std::string>& notes,
                               std::vector<std::string>& warnings);

}  // namespace kinetic
