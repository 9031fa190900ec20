#include "app/robot/robot_load_warnings.hpp"

#include <QCoreApplication>
#include <QStringList>

namespace kinetic::app {

QString robot_load_warnings_text(const RobotModel& robot) {
  QStringList lines;
  for (const std::string& warning : robot.load_warnings()) lines << QString::fromStdString(warning);
  for (const std::string& file : robot.unresolved_files())
    if (file.rfind("package://", 0) == 0) {
      lines << QCoreApplication::translate(
          "RobotLoadWarnings", "Package search paths are set in Settings → Package search paths…");
      break;
    }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace kinetic::app
