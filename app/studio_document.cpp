#include "app/studio_document.hpp"

#include <QFileInfo>
#include <algorithm>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"

namespace kinetic::app {

StudioDocument::StudioDocument(QObject* parent) : QObject(parent) {}

QString StudioDocument::load_robot(const QString& reference, const QString& srdf,
                                   const QString& config, const QStringList& package_paths) {
  LoadOptions options;
  for (const QString& path : package_paths) options.package_paths.push_back(path.toStdString());
  try {
    const bool is_file = reference.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive) ||
                         QFileInfo(reference).isFile();
    RobotModelPtr robot =
        is_file ? load_robot_file(reference.toStdString(), srdf.toStdString(),
                                  config.toStdString(), options)
                : load_builtin_robot(reference.toStdString(), options);
    // Keep the joint values of joints that still exist (reload keeps the pose).
    JointVector q = robot->zero_configuration();
    if (robot_) {
      for (int v = 0; v < robot->dof(); ++v) {
        const int old = robot_->find_joint(robot->variable_joint(v).name);
        if (old >= 0 && robot_->joints()[old].is_active())
          q[v] = joints_[robot_->joints()[old].variable_index];
      }
      q = robot->clamp_to_limits(q);
    } else {
      const auto names = robot->named_pose_names();
      for (const char* preferred : {"home", "ready"}) {
        if (std::find(names.begin(), names.end(), preferred) != names.end()) {
          q = robot->named_pose(preferred);
          break;
        }
      }
    }
    robot_ = std::move(robot);
    joints_ = q;
    robot_reference_ = reference;
    emit robotChanged();
    emit jointsChanged();
    return {};
  } catch (const Error& error) {
    return QString::fromStdString(error.what());
  } catch (const std::exception& error) {
    return QStringLiteral("Could not load '%1': %2").arg(reference, QString::fromUtf8(error.what()));
  }
}

void StudioDocument::set_joints(const JointVector& q) {
  if (!robot_ || q.size() != robot_->dof()) return;
  joints_ = q;
  emit jointsChanged();
}

}  // namespace kinetic::app
