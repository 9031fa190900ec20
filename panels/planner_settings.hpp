#pragma once
// Everything the Planner panel lets a user set, as one value: what a session saves and restores
// so that reopening a piece of work plans and times the way it did (planning group, planner,
// options, seed, Cartesian settings, orientation constraint, timing). Goal and start choices are
// not settings: they follow the document.
#include <QString>

#include "engine/planning/cartesian_planner.hpp"
#include "engine/planning/planner_options.hpp"

namespace kinetic::panels {

struct PlannerSettings {
  // The planning group planned for (its joints move, its chain's TCP is the pose goal's); "" = the
  // robot's first. A name the robot lacks falls back to the first.
  QString group;
  PlannerOptions options;  // options.planner unused when cartesian; options.seed when !random_seed
  bool cartesian = false;
  bool random_seed = true;
  CartesianOptions cartesian_options;
  bool keep_orientation = false;
  double orientation_tolerance = 5.0 * 3.14159265358979323846 / 180.0;  // rad
  QString timing =
      QStringLiteral("time_optimal");  // "time_optimal" | "trapezoidal" | "scurve" | "cubic_spline"
  double velocity_scaling = 1.0;       // (0, 1]
  double acceleration_scaling = 1.0;   // (0, 1]
  // A new plan replaces the trajectory the last plan added (RViz keeps one plan), while that one
  // is unchanged; off: every plan is kept.
  bool replace_last_plan = false;
};

}  // namespace kinetic::panels
