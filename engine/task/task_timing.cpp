// time_pick_and_place (pick_place.hpp): the stages' motions timed one by one and joined at rest.
#include <optional>

#include "engine/core/error.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/trajectory/join_at_rest.hpp"
#include "engine/trajectory/time_optimal.hpp"

namespace kinetic {

TimedPickPlace time_pick_and_place(const PickPlaceResult& result, const TrajectoryLimits& limits) {
  TimedPickPlace timed;
  std::vector<Trajectory> motions;
  std::optional<Trajectory> still;  // a stage that does not move: one sample, the robot stays
  double at = 0.0;                  // where the next stage begins: each motion follows the last
  for (const TaskStage& stage : result.stages) {
    timed.stage_start.push_back(at);
    if (!stage.moves()) continue;  // grasp and release happen at rest, between the motions
    if (stage.path.empty())
      throw Error(ErrorCode::InvalidValue, "pick and place stage \"" + stage.name + "\" has no path");
    Trajectory motion = time_optimal(stage.path, limits);
    at += motion.duration();
    if (motion.duration() > 0.0) motions.push_back(std::move(motion));
    else if (!still) still = std::move(motion);
  }
  if (motions.empty() && !still)
    throw Error(ErrorCode::InvalidValue, "the pick and place result has no motion stages to time");
  timed.trajectory = motions.empty() ? *still : join_at_rest(motions);
  const double origin = timed.trajectory.start_time();
  for (double& t : timed.stage_start) t += origin;
  return timed;
}

}  // namespace kinetic
