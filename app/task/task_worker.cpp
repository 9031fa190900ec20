#include "app/task/task_worker.hpp"

#include <QMetaObject>

#include "app/planning/background_priority.hpp"
#include "app/planning/worker_failure.hpp"
#include "app/planning/trajectory_timing.hpp"

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

TaskWorker::TaskWorker(QObject* parent) : QObject(parent), context_(new QObject) {
  qRegisterMetaType<kinetic::app::TaskOutcome>();
  thread_.setObjectName(QStringLiteral("task planner"));
  context_->moveToThread(&thread_);
  thread_.start();
  QMetaObject::invokeMethod(
      context_, [] { lower_current_thread_priority(); }, Qt::QueuedConnection);
}

TaskWorker::~TaskWorker() {
  cancel();
  thread_.quit();
  thread_.wait();
  delete context_;
}

quint64 TaskWorker::submit(TaskRequest request) {
  const bool was_busy = busy();
  const NewestRequest::Ticket ticket = requests_.begin();  // the newest request wins
  const quint64 id = ticket.id;
  const std::shared_ptr<std::atomic<bool>> flag = ticket.cancel;
  if (!was_busy) emit busyChanged(true);
  QMetaObject::invokeMethod(
      context_,
      [this, id, flag, request = std::move(request)] {
        // A request replaced before it started is answered as cancelled without running.
        TaskOutcome outcome;
        if (flag->load()) {
          outcome.error_code = ErrorCode::Cancelled;
          outcome.error = tr("planning cancelled");
        } else {
          outcome = run_task(request, flag.get());
        }
        outcome.id = id;
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)]() mutable { deliver(std::move(outcome)); },
            Qt::QueuedConnection);
      },
      Qt::QueuedConnection);
  return id;
}

void TaskWorker::cancel() { requests_.cancel(); }

void TaskWorker::deliver(TaskOutcome outcome) {
  if (!requests_.finish(outcome.id)) return;  // replaced by a newer request
  emit busyChanged(false);
  emit finished(outcome);
}

}  // namespace kinetic::app
