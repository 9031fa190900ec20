#pragma once
// What the Trajectories panel lets a user set for re-timing, as one value: what a session saves
// and restores so that reopening a piece of work re-times the way it did (parameterization,
// velocity / acceleration scaling, whether Re-time replaces the trajectory or adds a copy).
#include <QString>

namespace kinetic::panels {

struct RetimeSettings {
  // "time_optimal" | "trapezoidal" | "scurve" | "cubic_spline"
  QString timing = QStringLiteral("time_optimal");
  double velocity_scaling = 1.0;      // (0, 1]
  double acceleration_scaling = 1.0;  // (0, 1]
  bool replace_selected = false;      // false: the re-timed motion is added as a copy
};

}  // namespace kinetic::panels
