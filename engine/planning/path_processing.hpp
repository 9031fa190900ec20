#pragma once
// Post-processing of geometric paths (group order). Every new edge is validated with the same
// edge check the planners use (PlanningSpace::motion_valid at its margin and resolution), so a
// collision-free input stays collision-free; pieces of edges already on the path are not checked
// again.
#include <random>

#include "engine/planning/plan_control.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

double path_length(const JointPath& path);  // sum of joint-space L2 segment lengths

// Drops waypoints whose neighbours see each other directly (cheap first pass).
void remove_redundant_waypoints(PlanningSpace& space, JointPath& path);

// Random shortcuts between two points anywhere on the path (not only at waypoints): `passes`
// attempts; an attempt replaces the stretch between the points by a straight edge when that edge
// is valid and saves at least 0.2% of the path's length and 5% of the edge's own length (smaller
// gains are not worth an edge check). Stops early once a quarter of the passes in a row changed
// nothing.
void shortcut_path(PlanningSpace& space, JointPath& path, int passes, std::mt19937_64& rng,
                   SearchClock& clock);

// Corner cutting (Chaikin): each round replaces every interior corner by points at 1/4 and 3/4 of
// its two edges, which converges to the quadratic B-spline of the path. Only corners turning by
// more than 0.25 rad are cut (gentler ones cost a time-optimal trajectory nothing). A cut is kept
// only when the edge across the corner is valid, so a corner next to an obstacle stays as it is
// (the pieces of the old edges on either side of the cut were checked with those edges).
void smooth_path(PlanningSpace& space, JointPath& path, int rounds, SearchClock& clock);

}  // namespace kinetic
