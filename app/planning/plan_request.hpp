#pragma once
// What the studio asks the plan worker for, and what comes back. Plain values: a request is a
// snapshot of the document taken on the GUI thread, the outcome is delivered back to it.
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "app/trajectories/trajectory_timing.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/planner.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic::app {

struct PlanRequest {
  RobotModelPtr robot;
  std::string group;  // the planning group: "" = the robot's first (its joints alone move)
  PlanningScene scene;
  quint64 scene_revision = 0;  // a new revision (or robot) makes a new engine Planner
  // The start: given joints (model order), or a random collision-free state drawn by the worker.
  std::optional<JointVector> start;
  bool random_start = false;
  PlanningGoal goal = JointGoal{};
  PlannerOptions options;
  bool random_seed = false;  // draw options.seed at random (the one used is reported)
  bool cartesian = false;    // straight TCP line to a PoseGoal instead of a free-space plan
  CartesianOptions cartesian_options;  // Cartesian only: steps, jump threshold, collisions, IK
  // rad: every waypoint keeps the TCP within it of its orientation at the start (free-space only).
  std::optional<double> keep_orientation_tolerance;
  TimingSettings timing;
  QString name;  // of the trajectory to add ("plan 3 · RRT-Connect")
};

struct PlanOutcome {
  quint64 id = 0;
  bool ok = false;
  // Failure: the engine's code, message (names the links / joints / goal) and hint.
  ErrorCode error_code = ErrorCode::InvalidValue;
  QString error, hint;
  // Success.
  PlanResult stats;                          // time, iterations, tree size, lengths, notes
  std::optional<CartesianResult> cartesian;  // its fraction / stop reason in Cartesian mode
  JointVector start;                         // the start actually used (model order)
  std::uint64_t seed = 0;
  Trajectory trajectory;
  double timing_ms = 0.0;
  TrajectoryValidationReport validation;
  QString name;
};

}  // namespace kinetic::app
