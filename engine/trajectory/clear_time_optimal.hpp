#pragma once
// Time-optimal timing whose corners stay clear of obstacles. The blends of time_optimal() pass up
// to max_deviation (0.05 rad) from each waypoint, off the path the planner checked: planned with
// no margin, about one motion in ten among 20 boxes then failed validation with a collision at a
// corner. Here the timed motion is checked where it leaves the path (state by state, as validation
// does), and a motion that collides is timed again with blends half as wide, down to 1/64 of the
// deviation asked for, where the blend hugs the checked corner.
#include <functional>
#include <string>

#include "engine/trajectory/time_optimal.hpp"

namespace kinetic {

struct ClearTiming {
  Trajectory trajectory;
  double max_deviation = 0.0;  // the deviation used: options.max_deviation or a smaller one
  std::string narrowed_for;    // what the wider blends hit ("" when none was narrowed)
};

// `in_collision` decides a state; `collision_names` (optional) says what collides there. When even
// the narrowest blends collide, the last timing is returned: validation reports the collision.
ClearTiming time_optimal_clear(
    const JointPath& path, const TrajectoryLimits& limits,
    const std::function<bool(const JointVector&)>& in_collision,
    const std::function<std::string(const JointVector&)>& collision_names = {},
    TimeOptimalOptions options = {});

// "corners rounded within 0.0125 rad, not 0.05: wider blends touched 'link6' with 'c33'" ("" when
// the blends were not narrowed); `asked` is the deviation the timing was asked for.
std::string narrowed_corners_note(const ClearTiming& timing,
                                  double asked = TimeOptimalOptions{}.max_deviation);

}  // namespace kinetic
