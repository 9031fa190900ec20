#pragma once
// Giving the planner a stage's scene (internal to plan_pick_and_place). The stages of one candidate
// come back to the same scenes again and again (the grasp check, the approach, the restore at the
// end); setting a scene rebuilds the checker's bodies and pairs and drops the PRM roadmap, so a
// scene equal to the planner's own is not set again.
#include "engine/planning/planner.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::task_detail {

// Same obstacles, attached objects and pair overrides, in the same order, with the same shapes
// and bit-for-bit the same poses (what the checker would build from either is the same).
bool same_scene(const PlanningScene& a, const PlanningScene& b);

// planner.set_scene(scene) unless the planner holds an equal scene already.
void use_scene(Planner& planner, const PlanningScene& scene);

}  // namespace kinetic::task_detail
