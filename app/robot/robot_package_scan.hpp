#pragma once
// RobotPackageScan: finds the robot packages on the machine for the Robot library (engine
// find_robot_packages) off the GUI thread, as a workspace or /opt/ros can be large trees. The
// newest scan wins: one started while another runs replaces any waiting one.
#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

#include "app/workers/newest_wins_worker.hpp"
#include "engine/model/robot_packages.hpp"

namespace kinetic::app {

class RobotPackageScan : public QObject {
  Q_OBJECT
 public:
  explicit RobotPackageScan(QObject* parent = nullptr);
  ~RobotPackageScan() override;

  // Scans the user's package search paths, then installed_package_locations(); `done` runs on the
  // GUI thread with what was found (never for a scan a newer one replaced, nor once this is gone).
  using Done = std::function<void(const std::vector<RobotPackageEntry>&)>;
  void start(const QStringList& package_paths, Done done);

 private:
  NewestWinsWorker worker_;  // last: its thread stops before the rest goes
};

}  // namespace kinetic::app
