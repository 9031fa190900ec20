#pragma once
// The Teleop panel's Goal input: the servo tracks the goal marker. The marker lives in the world
// frame (where the gizmo is dragged); the servo wants a pose of its group's TCP in the group's
// base link. They differ for a robot mounted with an offset or turned (on a table, a wall, a
// ceiling) and for a group whose base is not the root. Plain functions, checked without a GUI.
#include "app/goal/tcp_kinematics.hpp"
#include "engine/servo/servo.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

// q: where the arm is (model order): the base link may hang on joints outside the group.
Pose goal_in_group_base(const TcpKinematics& group, const Pose& goal_in_world,
                        const JointVector& q);

// The servo command that moves the group's TCP onto the goal (Kind::PoseTarget): the engine's
// pose gain, speed caps and slow-downs apply as for any Cartesian command.
ServoCommand follow_goal_command(const TcpKinematics& group, const Pose& goal_in_world,
                                 const JointVector& q);

// How far the group's TCP is from the goal: metres and radians.
panels::GoalDistance distance_to_goal(const TcpKinematics& group, const Pose& goal_in_world,
                                      const JointVector& q);

}  // namespace kinetic::app
