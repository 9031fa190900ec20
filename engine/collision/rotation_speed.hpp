#pragma once
// How fast a solid moves, as a set, when it turns about a line: a bound on the Hausdorff distance
// it covers per radian. Continuous checks use it as a pair's closing speed for one joint, so a
// part that turns about its own axis of symmetry (a joint housing about its joint) adds nothing.
#include "engine/collision/collision_body.hpp"
#include "engine/core/types.hpp"

namespace kinetic {

// The axis is the line through `origin` along the unit vector `direction`; `pose` places the shape
// in the same frame. Spheres: the distance of the centre from the line (a sphere turning about a
// line through its centre maps to itself). Cylinders: the distance of the centre from the line
// plus the tilt between the two axes times the cylinder's radius of reach (0 for a cylinder about
// its own axis), or the farthest point's distance if less. Boxes: the farthest corner's distance.
// Meshes: the farthest vertex's distance. Half-spaces: 0 about a line along their normal, else
// infinite.
double rotation_speed(const Shape& shape, const Pose& pose, const Vector3& origin,
                      const Vector3& direction);

// The largest over a body's parts (all of them when part < 0), with the body placed at `offset`
// in the frame of the axis.
double rotation_speed(const CollisionBody& body, int part, const Pose& offset,
                      const Vector3& origin, const Vector3& direction);

}  // namespace kinetic
