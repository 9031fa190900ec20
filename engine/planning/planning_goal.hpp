#pragma once
// What a plan should reach: joint values, a TCP pose (solved by IK), a named pose of the robot's
// configuration, or an offset of the TCP from where the start puts it.
#include <string>
#include <variant>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

struct JointGoal {
  JointVector q;  // model order (RobotModel::dof() values) or planning-group order (group size)
};

struct PoseGoal {
  Pose pose;  // TCP pose in the base link of the chain that reaches it
  // "": the planning group's own chain. Else an SRDF end effector of the group (the dual-arm
  // Panda's left_hand in both_arms): its parent group's chain reaches the pose, the group's other
  // joints keep their start values.
  std::string end_effector{};
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

// q (model order) with each of `variables` that rotates (revolute or continuous) turned by whole
// turns to its value nearest `reference`, within the joint's limits: the same pose and the same
// collisions, the shortest motion from `reference`. A goal solved by IK from a random restart seed
// otherwise keeps that seed's turn (a UR arm's base a full turn from the start).
JointVector turned_toward(JointVector q, const JointVector& reference, const RobotModel& model,
                          const std::vector<int>& variables);

}  // namespace kinetic
