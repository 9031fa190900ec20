#pragma once
// Constrained planning: RRT-Connect whose every new state is projected onto the path constraints
// (ConstraintProjector), and whose edges are walked in resolution-sized steps, each projected and
// collision-checked. The returned path is that dense walk, so every waypoint keeps the
// constraints and consecutive waypoints are at most ~2 x resolution apart.
#include <random>
#include <vector>

#include "engine/planning/path_constraints.hpp"
#include "engine/planning/sampling/geometric_planners.hpp"

namespace kinetic {

// Space and projector must describe the same variables in the same order (chain order).
SearchOutcome plan_constrained(PlanningSpace& space, const ConstraintProjector& projector,
                               const JointVector& start, const std::vector<JointVector>& goals,
                               const PlannerOptions& options, SearchClock& clock);

// Shortcutting for a dense constrained path: between two random waypoints, the walk on the
// constraint set (projected resolution steps, each checked) replaces the stretch between them
// when it is shorter. The path stays dense and every waypoint keeps the constraints. Stops after
// `passes` tries, or once a run of tries changed nothing.
void shortcut_constrained(PlanningSpace& space, const ConstraintProjector& projector,
                          JointPath& path, int passes, std::mt19937_64& rng, SearchClock& clock);

}  // namespace kinetic
