#pragma once
// Scene changes along a trajectory: a pick-and-place motion grasps and releases an object, so the
// world it moves in is not one scene. Each change says "from this time on, the world is this
// scene"; playback draws the scene in force at the playhead.
#include <vector>

#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic::app {

struct SceneChange {
  double time = 0.0;    // s, on the trajectory's clock
  PlanningScene scene;  // the world from `time` on
};

// Index of the change in force at `t`: the last one with time <= t (changes sorted by time);
// the first one before it starts, -1 when there are none.
int scene_change_index(const std::vector<SceneChange>& changes, double t);

// The changes moved onto the clock of `after`, a re-timing of `before` through the same waypoints:
// a change at a waypoint of `before` happens at that waypoint of `after` (the robot grasps where
// it grasped). When the waypoints do not correspond, times scale with the durations.
std::vector<SceneChange> retime_scene_changes(const std::vector<SceneChange>& changes,
                                              const Trajectory& before, const Trajectory& after);

}  // namespace kinetic::app
