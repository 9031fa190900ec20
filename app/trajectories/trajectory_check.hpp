#pragma once
// Collision checks and validation of a stored trajectory in the studio's world: a trajectory names
// its own joints (the model's others stay where the robot is), and a pick and place runs through
// several scenes (its scene changes), so one fixed checker does not fit every trajectory. Used by
// Validate, Re-time and Blend on worker threads: everything here captures values only.
#include <functional>
#include <string>
#include <vector>

#include "app/document/scene_change.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic::app {

struct TrajectoryCollisionCheck {
  std::function<bool(const JointVector&)> in_collision;
  std::function<std::string(const JointVector&)> collision_names;
};

// Callbacks deciding a state given in `joint_names` order (the model's other joints at `base`,
// model order) in `scene`. They share one checker of their own: call them from one thread.
TrajectoryCollisionCheck trajectory_collision_check(const RobotModelPtr& robot,
                                                    const PlanningScene& scene,
                                                    const std::vector<std::string>& joint_names,
                                                    const JointVector& base);

// Limits and collisions along `trajectory`. Without scene changes every state is checked in
// `scene`; with them (a pick and place) each stretch is checked in the scene in force then (the
// part held by the gripper from the grasp, put down from the release), as playback shows it. The
// instant of a change belongs to the scene after it, and the stretch before a grasp may touch the
// part it grasps with the links the grasp lets touch it. Throws for joints the robot lacks.
TrajectoryValidationReport validate_in_scenes(const RobotModelPtr& robot,
                                              const Trajectory& trajectory,
                                              const PlanningScene& scene,
                                              const std::vector<SceneChange>& scene_changes,
                                              const JointVector& base);

}  // namespace kinetic::app
