#pragma once
// What the studio asks the task worker for (a snapshot of the document taken on the GUI thread)
// and what comes back: a planned and timed pick and place, or why not.
#include <QMetaType>
#include <QString>
#include <vector>

#include "app/document/scene_change.hpp"
#include "engine/core/error.hpp"
#include "engine/task/pick_place.hpp"

namespace kinetic::app {

struct TaskRequest {
  RobotModelPtr robot;
  PlanningScene scene;
  JointVector start;  // model order
  PickPlaceRequest pick_place;
  double velocity_scaling = 1.0;
  double acceleration_scaling = 1.0;
};

struct TaskOutcome {
  quint64 id = 0;
  bool ok = false;
  // Failure: the engine's code, message (names the object, the stage, the obstacle) and hint.
  ErrorCode error_code = ErrorCode::InvalidValue;
  QString error, hint;
  // Success.
  RobotModelPtr robot;  // planned for
  QString object;
  PickPlaceResult result;
  TimedPickPlace timed;
  // The world along the timed trajectory: the scene at planning time from its start, the
  // grasp's scene from the grasp, the release's from the release.
  std::vector<SceneChange> scene_changes;
  std::uint64_t seed = 0;
};

// The scene changes of a timed task, given the scene it was planned in.
std::vector<SceneChange> task_scene_changes(const PickPlaceResult& result,
                                            const TimedPickPlace& timed,
                                            const PlanningScene& start_scene);

}  // namespace kinetic::app

Q_DECLARE_METATYPE(kinetic::app::TaskOutcome)
