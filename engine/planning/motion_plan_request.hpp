#pragma once
// A MoveIt moveit_msgs/MotionPlanRequest as YAML (MotionBenchMaker's requestNNNN.yaml, MoveIt's
// warehouse): the planning group, the start state's joint values and the goal's joint
// constraints (goal_constraints[0].joint_constraints), by joint name. Pose goals
// (position / orientation constraints) are an Error(Unsupported) naming the field.
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

struct JointValues {
  std::vector<std::string> names;
  std::vector<double> positions;
};

struct MotionPlanRequest {
  std::string source;                  // the file, for messages
  std::string group;                   // group_name ("" when absent)
  JointValues start;                   // start_state.joint_state (may be empty)
  JointValues goal;                    // goal_constraints[0].joint_constraints
  double allowed_planning_time = 0.0;  // s; 0 when absent
  std::string planner_id;              // MoveIt's planner name, informative
};

// Errors name the file, the line and the field (Error(ParseError / InvalidValue / Unsupported)).
MotionPlanRequest motion_plan_request_from_yaml(const std::string& text,
                                                const std::string& source = "<request>");
MotionPlanRequest load_motion_plan_request(
    const std::string& path);  // Error(FileNotFound) naming it

// `base` with the named joints set; joints the model does not have as variables (the virtual
// joint, mimic fingers) are skipped when `skip_unknown`, else Error(MissingJoint) names them.
JointVector with_joint_values(const RobotModel& model, JointVector base, const JointValues& values,
                              const std::string& what, bool skip_unknown);

}  // namespace kinetic
