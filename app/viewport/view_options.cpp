#include "app/viewport/view_options.hpp"

#include <QSettings>

namespace kinetic::app {

namespace {

// Empty for the overlays: a help box left open should not greet the next start.
QString settings_key(ViewOption option) {
  switch (option) {
    case ViewOption::Grid:
      return QStringLiteral("view/grid");
    case ViewOption::Axes:
      return QStringLiteral("view/axes");
    case ViewOption::Trail:
      return QStringLiteral("view/trail");
    case ViewOption::CollisionSpheres:
      return QStringLiteral("view/collision_spheres");
    case ViewOption::CollisionGeometry:
      return QStringLiteral("view/collision_geometry");
    case ViewOption::Wireframe:
      return QStringLiteral("view/wireframe");
    case ViewOption::LocalFrame:
      return QStringLiteral("view/local_frame");
    case ViewOption::LinkFrames:
      return QStringLiteral("view/link_frames");
    case ViewOption::Orthographic:
      return QStringLiteral("view/orthographic");
    case ViewOption::Help:
    case ViewOption::Stats:
      return {};
  }
  return {};
}

}  // namespace

bool saved_view_option(ViewOption option, bool fallback) {
  const QString key = settings_key(option);
  return key.isEmpty() ? fallback : QSettings().value(key, fallback).toBool();
}

void save_view_option(ViewOption option, bool on) {
  const QString key = settings_key(option);
  if (!key.isEmpty()) QSettings().setValue(key, on);
}

}  // namespace kinetic::app
