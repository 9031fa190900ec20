#include "engine/planning/motion_plan_request.hpp"

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/yaml_fields.hpp"

namespace kinetic {

MotionPlanRequest motion_plan_request_from_yaml(const std::string& text,
                                                const std::string& source) {
  const YamlFields y(source);
  const YAML::Node root = y.parse(text);
  if (!root.IsMap() || !y.member(root, "goal_constraints", "").IsDefined()) {
    const bool scene = root.IsMap() && y.member(root, "world", "").IsDefined();
    throw Error(ErrorCode::InvalidValue,
                source + ": no \"goal_constraints\": this is not a MoveIt motion plan request",
                scene
                    ? "this is a planning scene: give it as the scene (--scene, a job's \"scene\")"
                    : "a motion plan request has start_state and goal_constraints");
  }
  MotionPlanRequest request;
  request.source = source;
  if (const YAML::Node group = y.member(root, "group_name", ""); group.IsDefined())
    request.group = y.text(group, "group_name");
  if (const YAML::Node planner = y.member(root, "planner_id", "");
      planner.IsDefined() && !planner.IsNull())
    request.planner_id = y.text(planner, "planner_id");
  if (const YAML::Node time = y.member(root, "allowed_planning_time", ""); time.IsDefined()) {
    request.allowed_planning_time = y.number(time, "allowed_planning_time");
    if (request.allowed_planning_time < 0)
      y.fail(time, "allowed_planning_time", "expected seconds >= 0");
  }
  const YAML::Node joint_state = y.member(y.member(root, "start_state", "start_state"),
                                          "joint_state", "start_state.joint_state");
  if (joint_state.IsDefined()) {
    request.start.names = y.texts(y.member(joint_state, "name", "start_state.joint_state"),
                                  "start_state.joint_state.name");
    request.start.positions =
        y.numbers(y.member(joint_state, "position", "start_state.joint_state"),
                  "start_state.joint_state.position");
    if (request.start.names.size() != request.start.positions.size())
      y.fail(joint_state, "start_state.joint_state",
             std::to_string(request.start.names.size()) + " names but " +
                 std::to_string(request.start.positions.size()) + " positions");
  }
  const std::vector<YAML::Node> goals =
      y.sequence(y.member(root, "goal_constraints", ""), "goal_constraints");
  if (goals.empty()) y.fail(root, "goal_constraints", "is empty: the request has no goal");
  for (const char* kind :
       {"position_constraints", "orientation_constraints", "visibility_constraints"})
    if (!y.sequence(y.member(goals[0], kind, "goal_constraints[0]"),
                    std::string("goal_constraints[0].") + kind)
             .empty())
      throw Error(
          ErrorCode::Unsupported,
          source + ": goal_constraints[0]." + kind + ": only joint goals are read from a request",
          "give the goal as joint_constraints, or plan to a pose with a job step's \"goal\": "
          "{\"pose\": ...}");
  const std::vector<YAML::Node> joints =
      y.sequence(y.member(goals[0], "joint_constraints", "goal_constraints[0]"),
                 "goal_constraints[0].joint_constraints");
  if (joints.empty())
    y.fail(goals[0], "goal_constraints[0].joint_constraints", "is empty: the request has no goal");
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const std::string field = "goal_constraints[0].joint_constraints[" + std::to_string(i) + "]";
    request.goal.names.push_back(
        y.text(y.required(joints[i], "joint_name", field), field + ".joint_name"));
    request.goal.positions.push_back(
        y.number(y.required(joints[i], "position", field), field + ".position"));
  }
  return request;
}

MotionPlanRequest load_motion_plan_request(const std::string& path) {
  // A regular file within a request's size (a FIFO hung the reader, /dev/zero ran out of memory).
  static constexpr InputKind kRequestInput{"motion plan request", 16 * kMiB};
  return motion_plan_request_from_yaml(read_input_file(path, kRequestInput), path);
}

JointVector with_joint_values(const RobotModel& model, JointVector base, const JointValues& values,
                              const std::string& what, bool skip_unknown) {
  for (std::size_t i = 0; i < values.names.size(); ++i) {
    const std::string& name = values.names[i];
    const int variable = model.find_joint(name) >= 0 ? model.variable_index(name) : -1;
    if (variable < 0) {
      if (skip_unknown) continue;
      throw Error(ErrorCode::MissingJoint,
                  what + ": robot '" + model.name() + "' has no movable joint '" + name + "'",
                  "the request was made for another robot, or names a fixed or mimic joint");
    }
    base[variable] = values.positions[i];
  }
  return base;
}

}  // namespace kinetic
