#include "app/robot_reference.hpp"

#include <QDir>
#include <QFileInfo>

#include "engine/model/robot_loader.hpp"

namespace kinetic::app {

bool is_robot_file_reference(const QString& reference, const QString& folder) {
  if (reference.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive) ||
      reference.endsWith(QStringLiteral(".xacro"), Qt::CaseInsensitive) || reference.contains(QLatin1Char('/')))
    return true;
  if (is_builtin_robot_name(reference.toStdString())) return false;
  return QFileInfo(folder.isEmpty() ? reference : QDir(folder).filePath(reference)).isFile();
}

}  // namespace kinetic::app
