#pragma once
// Where a robot starts when no pose is asked for (the studio opening it, a headless run without a
// start). RobotModel::default_configuration() gives the rest pose a package names (home, ready,
// default), else zeros; it cannot check collisions (the model layer does not know them), so a
// robot whose zero pose folds into itself would open in collision although its package names a
// usable pose. This adds the check.
#include <string>

#include "engine/collision/collision_checker.hpp"

namespace kinetic {

struct RestPose {
  JointVector q;
  std::string pose;  // the named pose taken; "" for zero_configuration()
  // When the zero configuration was checked and collides with itself: the pairs, as
  // describe_contacts says them. "" otherwise.
  std::string zero_contacts;
};

// default_configuration() when the robot names a rest pose (home, ready, default). Otherwise zeros
// within the limits, unless they are in self-collision (the checker's robot alone, as
// CollisionChecker::in_collision with scene off) and one of its other named poses is free: then
// the first such pose, in named_pose_names() order, that is within the limits and sets every joint
// of the default planning group (kinetic.toml poses, SRDF states of that group or a larger one; a
// hand's "open" is no place to start). Zeros when none is.
RestPose rest_pose(const RobotModel& robot, CollisionChecker& checker);
// The same with a checker of its own, made only when the choice needs one.
RestPose rest_pose(const RobotModelPtr& robot);

// In words: "pose 'home'", "zeros within the joint limits", "pose 'arm_up' (zeros within the joint
// limits are in self-collision: 'a' with 'b' (3.0 mm deep))".
std::string describe(const RestPose& rest);

}  // namespace kinetic
