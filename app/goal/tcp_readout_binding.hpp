#pragma once
// Keeps the Goal panel's current TCP line (panels::TcpReadout) on the robot: the TCP of the
// document's joints — of the playback ghost's while a trajectory plays — as the goal controller
// sees it (its planning group's chain, in that group's base link: the goal's frame), updated on
// every joint, playback, robot and group change; when there is no chain, the line says why.
#include <QObject>
#include <QString>

namespace kinetic::panels {
class TcpReadout;
}

namespace kinetic::app {

class GoalController;
class StudioDocument;

class TcpReadoutBinding : public QObject {
  Q_OBJECT
 public:
  TcpReadoutBinding(panels::TcpReadout& readout, StudioDocument& document,
                    const GoalController& goal, QObject* parent = nullptr);

 private:
  void on_robot_changed();
  void refresh();

  panels::TcpReadout& readout_;
  StudioDocument& document_;
  const GoalController& goal_;
  QString no_chain_, no_chain_hint_;  // why the robot's first group has no chain ("" if it has)
};

}  // namespace kinetic::app
