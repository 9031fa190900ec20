#pragma once
// A robot's load warnings said as one text (a message box, the status bar), with where package
// search paths are set when one of them is a package:// file that could not be found — the one
// kind of warning that setting mends.
#include <QString>

#include "engine/model/robot_model.hpp"

namespace kinetic::app {

QString robot_load_warnings_text(const RobotModel& robot);

}  // namespace kinetic::app
