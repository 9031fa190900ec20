#pragma once
// StudioDocument: the session a user works on — robot, current joint state (and, as the studio
// grows, scene, goals, trajectories). Panels edit it through the main window; views listen to
// its change signals.
#include <QObject>
#include <QString>
#include <QStringList>

#include "engine/model/robot_model.hpp"

namespace kinetic::app {

class StudioDocument : public QObject {
  Q_OBJECT
 public:
  explicit StudioDocument(QObject* parent = nullptr);

  RobotModelPtr robot() const { return robot_; }
  const JointVector& joints() const { return joints_; }
  // What the robot was loaded from, to reload it: a built-in name or a URDF path.
  const QString& robot_reference() const { return robot_reference_; }

  // Loads a built-in robot by name or a URDF file (with optional SRDF / kinetic.toml). On failure
  // the current robot stays and the error message is returned (empty on success).
  QString load_robot(const QString& reference, const QString& srdf = {}, const QString& config = {},
                     const QStringList& package_paths = {});
  void set_joints(const JointVector& q);

 signals:
  void robotChanged();
  void jointsChanged();

 private:
  RobotModelPtr robot_;
  JointVector joints_;
  QString robot_reference_;
};

}  // namespace kinetic::app
