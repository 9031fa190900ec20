#include "app/app_icon.hpp"

#include <QString>

// Q_INIT_RESOURCE must be used outside a namespace. kinetic_app is a static library: without it
// the linker would drop the compiled resources, which nothing references by name.
static void init_studio_resources() {
  Q_INIT_RESOURCE(kinetic_studio);
}

namespace kinetic::app {

QList<int> studio_icon_sizes() {
  return {16, 32, 48, 64, 128, 256};
}

QIcon studio_icon() {
  [[maybe_unused]] static const bool registered = (init_studio_resources(), true);
  QIcon icon;
  for (const int size : studio_icon_sizes())
    icon.addFile(QStringLiteral(":/icons/kinetic-studio-%1.png").arg(size), QSize(size, size));
  return icon;
}

}  // namespace kinetic::app
