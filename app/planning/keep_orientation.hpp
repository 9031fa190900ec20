#pragma once
// "Keep TCP orientation" for the studio's plans: the engine's orientation path constraint around
// the TCP orientation at the start actually used. A random start is drawn on the worker thread,
// so the reference is taken there, from the start the plan begins at.
#include "engine/planning/planner.hpp"

namespace kinetic::app {

// Every waypoint keeps the TCP within `tolerance` (rad) of its orientation at `start`.
PathConstraints keep_orientation_at(const Planner& planner, const JointVector& start,
                                    double tolerance);

// planner.plan_constrained() with that constraint. The engine always plans constrained motions
// with RRT-Connect plus projection: a note says so when another planner was chosen. A start or
// goal that breaks the constraint throws the engine's Error, its hint giving the tolerance in
// degrees (as the panel shows it).
PlanResult plan_keeping_orientation(Planner& planner, const JointVector& start,
                                    const PlanningGoal& goal, double tolerance,
                                    const PlannerOptions& options, const PlanControl& control);

}  // namespace kinetic::app
