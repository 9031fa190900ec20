#pragma once
// What the Task panel is set to, as one value: what a session saves and restores so that
// reopening a piece of work shows the same pick and place to plan (the object, where it goes,
// the gripper, the straight-line distances). Engine units (m, rad), as the session file has them.
#include <QString>
#include <QStringList>
#include <array>

#include "engine/task/pick_place.hpp"

namespace kinetic::panels {

struct TaskSettings {
  QString object;  // the scene object to pick ("" for none); kept even when the scene lacks it
  std::array<double, 3> place_position{0.0, 0.0, 0.0};  // m, world
  double place_yaw = 0.0;                               // rad, heading about world Z
  // True until a place is typed or dragged: the place follows the chosen object.
  bool place_follows_object = true;
  int place_yaw_steps = PickPlaceRequest{}.place_yaw_steps;
  GripperSpec::Kind gripper = GripperSpec::Kind::Parallel;
  double max_opening = GripperSpec{}.max_opening;                   // m
  double finger_depth = GripperSpec{}.finger_depth;                 // m
  QStringList touch_links;                                          // empty: the engine's default
  double approach_distance = PickPlaceRequest{}.approach_distance;  // m, and the retreat
  double lift_distance = PickPlaceRequest{}.lift_distance;          // m, and the lowering
};

}  // namespace kinetic::panels
