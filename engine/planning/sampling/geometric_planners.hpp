#pragma once
// The sampling-based planners. Each searches a PlanningSpace from one start to any of several
// goals (several IK solutions of a pose goal) and returns a raw path in group order, or an empty
// path when the budget ran out. Post-processing and the output gates are the facade's job.
#include <memory>
#include <random>
#include <vector>

#include "engine/planning/plan_control.hpp"
#include "engine/planning/planner_options.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

struct SearchOutcome {
  JointPath path;  // group order; empty: no solution within the budget
  SearchStats stats;
};

// Extension step of the tree planners: options.range, else a twentieth of the joint box diagonal
// with each rotating joint's span counted up to one turn.
double extension_range(const PlanningSpace& space, const PlannerOptions& options);

SearchOutcome plan_rrt_connect(PlanningSpace& space, const JointVector& start,
                               const std::vector<JointVector>& goals, const PlannerOptions& options,
                               SearchClock& clock);
SearchOutcome plan_bitrrt(PlanningSpace& space, const JointVector& start,
                          const std::vector<JointVector>& goals, const PlannerOptions& options,
                          SearchClock& clock);
SearchOutcome plan_est(PlanningSpace& space, const JointVector& start,
                       const std::vector<JointVector>& goals, const PlannerOptions& options,
                       SearchClock& clock);
SearchOutcome plan_kpiece(PlanningSpace& space, const JointVector& start,
                          const std::vector<JointVector>& goals, const PlannerOptions& options,
                          SearchClock& clock);
SearchOutcome plan_rrt_star(PlanningSpace& space, const JointVector& start,
                            const std::vector<JointVector>& goals, const PlannerOptions& options,
                            SearchClock& clock);

}  // namespace kinetic
