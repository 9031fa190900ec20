#pragma once
// The search checks an edge's states at its resolution; the output gate checks the whole segment
// continuously, so it can refuse an edge whose checked states all passed (a shelf's edge clipped
// between two of them). Rather than handing over a path its own gate refuses, the planner
// re-plans each refused segment between its ends with a finer edge check and splices the new
// pieces in once they pass the gate themselves.
#include <functional>
#include <vector>

#include "engine/planning/plan_control.hpp"
#include "engine/planning/planner_options.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

// The gate's verdict on one segment (group order): true when it refuses it.
using SegmentRefused = std::function<bool(const JointVector& a, const JointVector& b)>;

struct RepairOutcome {
  bool passed = false;  // every segment of the path now passes the gate
  int refused = 0;      // segments the gate refused
  int repaired = 0;     // of those, re-planned into pieces that pass
};

// `levels`: the search's space with finer and finer resolutions (the same margin). Each refused
// segment is re-planned with RRT-Connect (a few seeds) in the first level, pieces the gate still
// refuses in the next, all within `clock`'s budget; `path` keeps its ends. A level deeper than the
// last is a failure.
RepairOutcome repair_refused_segments(const std::vector<PlanningSpace*>& levels, JointPath& path,
                                      const SegmentRefused& refused, const PlannerOptions& options,
                                      SearchClock& clock);

}  // namespace kinetic
