#pragma once
// Loading a robot in two steps, so the slow one can run on a worker thread: prepare_robot reads
// the files (URDF, SRDF, kinetic.toml, the companions search) and builds the model and, when the
// robot brings new joints, its rest pose. It touches neither the document nor any Qt GUI object.
// StudioDocument::install_robot then installs the result on the GUI thread; load_robot is both in
// one call.
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/model/robot_companions.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic::app {

// What to load: a built-in name or a URDF path; srdf / config as StudioDocument::load_robot takes
// them (std::nullopt: the file find_robot_companions finds, "": none, a path: that file).
struct RobotLoadRequest {
  QString reference;
  std::optional<QString> srdf, config;
  QStringList package_paths;
};

struct PreparedRobot {
  RobotLoadRequest request;
  bool is_file = false;
  RobotCompanions found;            // what the search beside the URDF found (empty where named)
  QString srdf_file, config_file;   // the files loaded ("" for none, and for a built-in robot)
  RobotModelPtr robot;              // null when the load failed
  QString error;                    // why, as load_robot says it ("" on success)
  std::optional<JointVector> rest;  // the rest pose, made only when some joint is new to `current`
};

// `current`: the robot this load reloads (the one loaded now when the request names it, see
// same_robot_reference; null for another robot); its joints decide whether the rest pose is
// needed (a reload keeps the pose). Thread-safe; never throws.
PreparedRobot prepare_robot(const RobotLoadRequest& request, const RobotModelPtr& current);

// For each moving joint (variable) of `robot`, the variable index of the moving joint of the same
// name in `current`, or -1 where `current` has none (or is null).
std::vector<int> carried_variables(const RobotModel& robot, const RobotModel* current);

// True when every moving joint of `robot` is a moving joint of `current`: the pose carries over.
bool keeps_all_joints(const RobotModel& robot, const RobotModel* current);

}  // namespace kinetic::app
