#pragma once
// Moving a TCP goal by an offset, as RoboDK's "move TCP by" and MoveIt's relative goals do: a
// translation and a roll / pitch / yaw turn, in the tool's own axes (10 cm along tool Z: an
// approach) or in the base link's axes (10 cm up), the turn about the TCP either way.
#include "engine/core/types.hpp"

namespace kinetic::panels {

enum class OffsetAxes { Tool, Base };

// `pose`: the goal in the base link; `translation` in m, `rpy` in rad (extrinsic x, y, z as URDF
// writes rpy), both along / about `axes`.
Pose offset_pose(const Pose& pose, const Vector3& translation, const Vector3& rpy, OffsetAxes axes);

}  // namespace kinetic::panels
