#pragma once
// Planning one job step from where the previous one ended: a free-space plan (keeping the step's
// path constraints when it has any) or a Cartesian move (the TCP along a straight line or an arc
// by dense IK). Failures throw kinetic::Error (the planner's) or JobFailure (a Cartesian line that
// stopped short of its "min_fraction").
#include "app/headless/job_file.hpp"
#include "engine/planning/planner.hpp"

namespace kinetic::app::headless {

// what: the step as messages name it ("steps[1] (\"approach\")").
PlanResult plan_step(Planner& planner, const StepSpec& step, const JointVector& current,
                     const PlanningGoal& goal, const PlanControl& control, const std::string& what);

}  // namespace kinetic::app::headless
