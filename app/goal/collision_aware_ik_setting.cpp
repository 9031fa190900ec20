#include "app/goal/collision_aware_ik_setting.hpp"

#include <QSettings>
#include <QString>

namespace kinetic::app {

namespace {
QString settings_key() {
  return QStringLiteral("goal/collision_aware_ik");
}
}  // namespace

bool saved_collision_aware_ik() {
  return QSettings().value(settings_key(), kCollisionAwareIkByDefault).toBool();
}

void save_collision_aware_ik(bool on) {
  QSettings().setValue(settings_key(), on);
}

}  // namespace kinetic::app
