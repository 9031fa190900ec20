#pragma once
// Whether the goal's IK skips solutions in collision (the Goal panel's Collision-aware IK),
// remembered across runs with the other app settings (QSettings "goal/collision_aware_ik"). On
// until the user turns it off, as RViz's planning panel checks IK goals for collisions: a goal
// ghost inside an obstacle would only fail later, at plan time.
namespace kinetic::app {

inline constexpr bool kCollisionAwareIkByDefault = true;

// The choice the last run left, else kCollisionAwareIkByDefault.
bool saved_collision_aware_ik();
// Saved at once, so a crash keeps it too.
void save_collision_aware_ik(bool on);

}  // namespace kinetic::app
