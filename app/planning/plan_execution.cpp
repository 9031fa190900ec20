#include "app/planning/plan_execution.hpp"

#include "app/document/studio_document.hpp"
#include "app/trajectories/playback_controller.hpp"

namespace kinetic::app {

PlanExecution::PlanExecution(StudioDocument& document, PlaybackController& playback,
                             MoveRobot move_robot, QObject* parent)
    : QObject(parent),
      document_(document),
      playback_(playback),
      move_robot_(std::move(move_robot)) {
  connect(&playback_, &PlaybackController::endReached, this, &PlanExecution::on_end_reached);
  // Reaching the end emits endReached before the playback stops: a stop seen here came first.
  connect(&playback_, &PlaybackController::playingChanged, this, [this](bool playing) {
    if (!playing) cancel(tr("the playback stopped before the end"));
  });
  connect(&document_, &StudioDocument::jointsChanged, this,
          [this] { cancel(tr("the robot was moved")); });
  connect(&document_, &StudioDocument::sceneChanged, this,
          [this] { cancel(tr("the scene was edited")); });
  connect(&document_, &StudioDocument::robotChanged, this,
          [this] { cancel(tr("the robot was reloaded")); });
  connect(&document_, &StudioDocument::workReplaced, this,
          [this] { cancel(tr("other work was opened")); });
}

void PlanExecution::start(const QString& name, const Trajectory& trajectory) {
  pending_ = Pending{name, trajectory};
}

void PlanExecution::cancel(const QString& why) {
  if (!pending_) return;
  const QString name = pending_->name;
  pending_.reset();
  emit finished(false, name,
                tr("'%1' was not executed: %2. The robot stays where it was.").arg(name, why));
}

void PlanExecution::on_end_reached() {
  if (!pending_) return;
  if (!(playback_.trajectory() == pending_->trajectory)) {
    cancel(tr("another trajectory is playing"));
    return;
  }
  // By content: a rename or another trajectory added while it played moves it in the list.
  int index = -1;
  const auto& list = document_.trajectories();
  for (int i = 0; i < static_cast<int>(list.size()) && index < 0; ++i)
    if (list[static_cast<std::size_t>(i)].trajectory == pending_->trajectory) index = i;
  if (index < 0) {
    cancel(tr("it was removed from the list"));
    return;
  }
  const Pending done = *pending_;
  pending_.reset();  // before the move: its jointsChanged is not an edit that calls it off
  if (move_robot_(index, done.trajectory.end_time()))
    emit finished(true, done.name, QString());
  else
    emit finished(false, done.name, QString());  // move_robot_ said why
}

}  // namespace kinetic::app
