#pragma once
// What a plan should reach: joint values, a TCP pose (solved by IK), a named pose of the robot's
// configuration, or an offset of the TCP from where the start puts it.
#include <string>
#include <variant>

#include "engine/core/types.hpp"

namespace kinetic {

struct JointGoal {
  JointVector q;  // model order (RobotModel::dof() values) or planning-group order (group size)
};

struct PoseGoal {
  Pose pose;  // TCP pose in the planning group's base link
};

struct NamedGoal {
  std::string name;  // kinetic.toml [named_poses] or an SRDF group state
};

struct RelativeGoal {
  enum class Frame { Tool, Base };
  // Tool: target = tcp * offset (move along the tool's own axes). Base: translate by the offset's
  // translation in the base frame and rotate by its rotation about the TCP point.
  Pose offset = Pose::Identity();
  Frame frame = Frame::Tool;
};

using PlanningGoal = std::variant<JointGoal, PoseGoal, NamedGoal, RelativeGoal>;

// The TCP pose a relative goal asks for, from the TCP pose where the motion starts.
Pose relative_target(const Pose& tcp, const RelativeGoal& goal);

}  // namespace kinetic
