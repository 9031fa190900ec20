#include "app/task/task_worker.hpp"

#include "app/trajectories/trajectory_timing.hpp"
#include "app/workers/worker_failure.hpp"

namespace kinetic::app {

std::vector<SceneChange> task_scene_changes(const PickPlaceResult& result,
                                            const TimedPickPlace& timed,
                                            const PlanningScene& start_scene) {
  std::vector<SceneChange> changes{{timed.trajectory.start_time(), start_scene}};
  for (std::size_t i = 0; i < result.stages.size() && i < timed.stage_start.size(); ++i) {
    const TaskStage& stage = result.stages[i];
    // Grasp and Release hold the scene after them: the object held, then put down.
    if (!stage.moves()) changes.push_back({timed.stage_start[i], stage.scene});
  }
  return changes;
}

TaskOutcome run_task(const TaskRequest& request, const std::atomic<bool>* cancel) {
  TaskOutcome outcome;
  outcome.robot = request.robot;
  outcome.object = QString::fromStdString(request.pick_place.object);
  outcome.seed = request.pick_place.options.seed;
  try {
    if (!request.robot)
      throw Error(ErrorCode::InvalidValue, "no robot loaded", "load a robot first");
    Planner planner(request.robot, request.scene);
    PlanControl control;
    control.cancel = cancel;
    outcome.result = plan_pick_and_place(planner, request.start, request.pick_place, control);
    TrajectoryLimits limits = limits_for(*request.robot);
    limits.velocity_scaling = request.velocity_scaling;
    limits.acceleration_scaling = request.acceleration_scaling;
    outcome.timed = time_pick_and_place(outcome.result, limits, &planner.checker());
    if (cancel && cancel->load()) throw Error(ErrorCode::Cancelled, "planning cancelled");
    outcome.scene_changes = task_scene_changes(outcome.result, outcome.timed, request.scene);
    outcome.ok = true;
  } catch (...) {
    record_failure(outcome, std::current_exception());
  }
  return outcome;
}

TaskWorker::TaskWorker(QObject* parent) : QObject(parent), worker_(QStringLiteral("task planner")) {
  qRegisterMetaType<kinetic::app::TaskOutcome>();
  connect(&worker_, &NewestWinsWorker::busyChanged, this, &TaskWorker::busyChanged);
}

TaskWorker::~TaskWorker() = default;

quint64 TaskWorker::submit(TaskRequest request) {
  return worker_.submit(
      [request = std::move(request)](const NewestWinsWorker::Job& job) {
        // A request cancelled before it started is answered as cancelled without running.
        TaskOutcome outcome;
        if (job.cancelled()) {
          outcome.error_code = ErrorCode::Cancelled;
          outcome.error = tr("planning cancelled");
        } else {
          outcome = run_task(request, job.cancel_flag());
        }
        outcome.id = job.id();
        return outcome;
      },
      [this](TaskOutcome outcome) { emit finished(outcome); });
}

void TaskWorker::cancel() {
  worker_.cancel();
}

}  // namespace kinetic::app
