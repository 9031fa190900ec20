// time_pick_and_place (pick_place.hpp): the stages' motions timed one by one and joined at rest.
#include <optional>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/trajectory/clear_time_optimal.hpp"
#include "engine/trajectory/join_at_rest.hpp"

namespace kinetic {

namespace {

// A stage's motion, its corners kept clear of the stage's scene when there is a checker.
Trajectory time_stage(const TaskStage& stage, const TrajectoryLimits& limits,
                      CollisionChecker* checker, std::vector<std::string>& notes) {
  if (!checker) return time_optimal(stage.path, limits);
  checker->set_scene(stage.scene);
  ClearTiming timing = time_optimal_clear(
      stage.path, limits, [checker](const JointVector& q) { return checker->in_collision(q); },
      [checker](const JointVector& q) { return describe_contacts(checker->contacts(q)); });
  const std::string note = narrowed_corners_note(timing);
  if (!note.empty()) notes.push_back("stage \"" + stage.name + "\": " + note);
  return std::move(timing.trajectory);
}

}  // namespace

TimedPickPlace time_pick_and_place(const PickPlaceResult& result, const TrajectoryLimits& limits,
                                   CollisionChecker* checker) {
  TimedPickPlace timed;
  std::vector<Trajectory> motions;
  std::optional<Trajectory> still;  // a stage that does not move: one sample, the robot stays
  double at = 0.0;                  // where the next stage begins: each motion follows the last
  for (const TaskStage& stage : result.stages) {
    timed.stage_start.push_back(at);
    if (!stage.moves()) continue;  // grasp and release happen at rest, between the motions
    if (stage.path.empty())
      throw Error(ErrorCode::InvalidValue,
                  "pick and place stage \"" + stage.name + "\" has no path");
    Trajectory motion = time_stage(stage, limits, checker, timed.notes);
    at += motion.duration();
    if (motion.duration() > 0.0)
      motions.push_back(std::move(motion));
    else if (!still)
      still = std::move(motion);
  }
  if (motions.empty() && !still)
    throw Error(ErrorCode::InvalidValue, "the pick and place result has no motion stages to time");
  timed.trajectory = motions.empty() ? *still : join_at_rest(motions);
  const double origin = timed.trajectory.start_time();
  for (double& t : timed.stage_start) t += origin;
  return timed;
}

}  // namespace kinetic
