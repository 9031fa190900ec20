#pragma once
// PlanExecution: the second half of Plan & Execute. Once the plan it is given plays, it waits for
// the playback to reach the end and then has the robot moved there ("Robot to end": one undo
// step). Anything that would make that end stale first calls it off and the robot stays where it
// was: a pause, another trajectory shown, an edit of the joints, the scene or the robot, other
// work opened, or (through cancel()) a seek or a new plan.
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic::app {

class PlaybackController;
class StudioDocument;

class PlanExecution : public QObject {
  Q_OBJECT
 public:
  // Moves the robot to trajectory `index` at time `t` as one undo step; false when it could not.
  using MoveRobot = std::function<bool(int index, double t)>;
  PlanExecution(StudioDocument& document, PlaybackController& playback, MoveRobot move_robot,
                QObject* parent = nullptr);

  // Waits for `trajectory` (the document's list holds it as `name`), which the playback plays now.
  void start(const QString& name, const Trajectory& trajectory);
  // Calls off the execution waiting, if any, saying `why`; the robot stays.
  void cancel(const QString& why);
  bool pending() const { return pending_.has_value(); }

 signals:
  // The robot went to the end of `name` (moved), or its execution was called off (message: why).
  void finished(bool moved, const QString& name, const QString& message);

 private:
  void on_end_reached();

  struct Pending {
    QString name;
    Trajectory trajectory;
  };
  StudioDocument& document_;
  PlaybackController& playback_;
  MoveRobot move_robot_;
  std::optional<Pending> pending_;
};

}  // namespace kinetic::app
