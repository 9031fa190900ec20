#include "app/document/robot_preparation.hpp"

#include <algorithm>
#include <exception>

#include "app/document/robot_files_text.hpp"
#include "app/document/robot_reference.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/rest_pose.hpp"

namespace kinetic::app {

std::vector<int> carried_variables(const RobotModel& robot, const RobotModel* current) {
  std::vector<int> old_variable(static_cast<size_t>(robot.dof()), -1);
  if (current)
    for (int v = 0; v < robot.dof(); ++v) {
      const int old = current->find_joint(robot.variable_joint(v).name);
      if (old >= 0 && current->joints()[old].is_active())
        old_variable[size_t(v)] = current->joints()[old].variable_index;
    }
  return old_variable;
}

bool keeps_all_joints(const RobotModel& robot, const RobotModel* current) {
  const std::vector<int> carried = carried_variables(robot, current);
  return current && std::none_of(carried.begin(), carried.end(), [](int v) { return v < 0; });
}

PreparedRobot prepare_robot(const RobotLoadRequest& request, const RobotModelPtr& current) {
  PreparedRobot prepared;
  prepared.request = request;
  const QString& reference = request.reference;
  LoadOptions options;
  for (const QString& path : request.package_paths)
    options.package_paths.push_back(path.toStdString());
  prepared.is_file = is_robot_file_reference(reference);
  RobotCompanions& found = prepared.found;
  if (prepared.is_file && (!request.srdf || !request.config))
    found = find_robot_companions(reference.toStdString());
  if (request.srdf) found.srdf = {};  // named: not searched for
  if (request.config) found.toml = {};
  if (prepared.is_file) {
    prepared.srdf_file = request.srdf ? *request.srdf : QString::fromStdString(found.srdf.path);
    prepared.config_file =
        request.config ? *request.config : QString::fromStdString(found.toml.path);
  }
  try {
    RobotModelPtr robot =
        prepared.is_file
            ? load_robot_file(reference.toStdString(), prepared.srdf_file.toStdString(),
                              prepared.config_file.toStdString(), options)
            : load_builtin_robot(reference.toStdString(), options);
    // The rest pose may need a collision check: only made when some joint is new.
    if (!keeps_all_joints(*robot, current.get())) prepared.rest = rest_pose(robot).q;
    prepared.robot = std::move(robot);
  } catch (const Error& error) {
    prepared.error = QString::fromStdString(error.what()) + found_files_note(found);
  } catch (const std::exception& error) {
    prepared.error =
        QStringLiteral("Could not load '%1': %2").arg(reference, QString::fromUtf8(error.what())) +
        found_files_note(found);
  }
  return prepared;
}

}  // namespace kinetic::app
