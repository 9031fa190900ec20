#include "app/document/robot_reference.hpp"

#include <QDir>
#include <QFileInfo>

#include "engine/model/robot_loader.hpp"

namespace kinetic::app {

bool is_robot_file_reference(const QString& reference, const QString& folder) {
  if (reference.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive) ||
      reference.endsWith(QStringLiteral(".xacro"), Qt::CaseInsensitive) ||
      reference.contains(QLatin1Char('/')))
    return true;
  if (is_builtin_robot_name(reference.toStdString())) return false;
  return QFileInfo(folder.isEmpty() ? reference : QDir(folder).filePath(reference)).isFile();
}

bool same_robot_reference(const QString& a, const QString& b) {
  if (a.isEmpty() || b.isEmpty()) return false;
  const bool file = is_robot_file_reference(a);
  if (file != is_robot_file_reference(b)) return false;
  if (!file) return a.compare(b, Qt::CaseInsensitive) == 0;
  const QFileInfo first(a), second(b);
  if (first.exists() && second.exists())
    return first.canonicalFilePath() == second.canonicalFilePath();
  return QDir::cleanPath(first.absoluteFilePath()) == QDir::cleanPath(second.absoluteFilePath());
}

}  // namespace kinetic::app
