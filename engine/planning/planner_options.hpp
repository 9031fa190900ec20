#pragma once
// Planner settings and the three presets (default / realtime / offline). Every field is a plain
// member, so a preset is a starting point the caller edits.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kinetic {

enum class PlannerType { RrtConnect, RrtStar, BiTrrt, Prm, Est, Kpiece };

const char* to_string(
    PlannerType type);  // "rrt_connect", "rrt_star", "bitrrt", "prm", "est", "kpiece"
// Throws Error(InvalidValue) listing the names for an unknown one.
PlannerType planner_type_from_string(const std::string& name);
const std::vector<PlannerType>& all_planner_types();

// A box (m, in the robot's root frame) every link origin must stay inside during the motion, as
// MoveIt's workspace bounds: keeps an arm inside its cell even where no obstacle is modelled.
struct WorkspaceBounds {
  std::array<double, 3> min{-1.0, -1.0, -1.0};
  std::array<double, 3> max{1.0, 1.0, 1.0};
};

struct PlannerOptions {
  PlannerType planner = PlannerType::RrtConnect;
  double timeout_ms = 50.0;    // planning budget (post-processing not included)
  int max_iterations = 10000;  // tree extensions / roadmap samples
  double margin = 0.02;        // m: clearance the planner keeps from obstacles and itself
  int shortcut_passes = 100;   // random shortcut attempts after a solution is found
  bool smoothing = true;       // corner cutting (quadratic B-spline) after shortcutting
  int smoothing_passes = 3;    // subdivision rounds; each validated segment by segment
  double resolution = 0.05;    // rad (or m): largest joint step between checked states on an edge
  double range = 0.0;          // largest extension per step (joint-space L2); 0 = automatic
  std::uint64_t seed = 0;      // same seed, same problem, same plan
  // RRT*: extra iterations after the first solution, as a multiple of those that found it.
  double rrt_star_refine_factor = 1.0;
  int prm_neighbors = 10;  // roadmap connections per new sample
  int ik_attempts = 8;     // numeric IK restarts for pose goals (analytic: all solutions)
  std::optional<WorkspaceBounds>
      workspace;  // none: only joint limits and collisions bound the search
  // A search that finds no path searches once more with the obstacles ignored (a quarter of
  // timeout_ms, 50 ms to 1 s) to say whether they block the way or the robot's own links wall
  // the start or goal in (Planner::plan). Off where failures are expected and time counts (the
  // task planner's candidates, a caller that re-plans in a loop).
  bool explain_failure = true;

  // Throws Error(InvalidValue) naming the field for a value that makes no sense.
  void validate() const;
};

// default: 50 ms, 10,000 iterations, 0.02 m margin, 100 shortcut passes, smoothing.
PlannerOptions default_preset();
// realtime: 10 ms, 2,000 iterations, 0.01 m margin, 20 shortcut passes, no smoothing.
PlannerOptions realtime_preset();
// offline: 500 ms, 100,000 iterations, 0.02 m margin, 500 shortcut passes, smoothing.
PlannerOptions offline_preset();
// "default" | "realtime" | "offline"; throws Error(InvalidValue) listing them.
PlannerOptions preset(const std::string& name);

}  // namespace kinetic
