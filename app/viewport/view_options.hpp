#pragma once
// What the 3D view shows and how it projects, toggled from the View menu and its keys. The
// toggles that describe how the user likes to look at a robot are remembered across runs
// (QSettings "view/…"); the help and statistics overlays start hidden every time.
#include <QString>

namespace kinetic::app {

enum class ViewOption {
  Grid,
  Axes,
  Trail,
  CollisionSpheres,
  CollisionGeometry,
  Wireframe,
  Help,
  Stats,
  LocalFrame,
  LinkFrames,
  Orthographic,
};
inline constexpr int kViewOptionCount = static_cast<int>(ViewOption::Orthographic) + 1;

// The state the last run left, or `fallback` when none was saved or the option is not remembered.
bool saved_view_option(ViewOption option, bool fallback);
// Saves a remembered option at once (so a crash keeps it too); the others are ignored.
void save_view_option(ViewOption option, bool on);

}  // namespace kinetic::app
