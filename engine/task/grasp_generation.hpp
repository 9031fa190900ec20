#pragma once
// Grasp generation: candidate TCP poses that hold an object of primitive shape (box, cylinder,
// sphere) with a parallel-jaw gripper or a suction cup, best first.
//
// Gripper convention (MoveIt's and the Franka hand's): the TCP's +Z points out of the gripper
// towards the object (the approach direction), and a parallel gripper's fingers close along the
// TCP's Y axis. At the grasp the TCP sits between the fingertips.
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/geometry/shape.hpp"

namespace kinetic {

struct GripperSpec {
  enum class Kind { Parallel, Suction };
  Kind kind = Kind::Parallel;
  double max_opening = 0.08;   // m: widest span the fingers can close on (Parallel)
  double min_opening = 0.0;    // m: narrowest span they can still hold
  double finger_depth = 0.03;  // m: how far past the object's surface the TCP goes (Parallel)
  int yaw_steps = 8;           // rotations about the approach axis tried where the shape allows
  // Throws Error(InvalidValue) naming the field for a value that makes no sense.
  void validate() const;
};

struct Grasp {
  Pose object_to_tcp = Pose::Identity();  // TCP pose in the object's frame at the grasp
  double width = 0.0;                     // m: finger opening at the grasp (0 for suction)
  double score = 0.0;                     // higher is better; used for the order
  std::string description;                // in words: "from above, across y"
  // Approach direction (unit, object frame): the TCP's +Z at the grasp.
  Vector3 approach() const { return object_to_tcp.linear().col(2); }
};

// Candidates for `object` (its shape, its world pose), best first: grasps approaching from
// above (against world Z) score highest, then from the side; from below last. Parallel: only
// spans within [min_opening, max_opening]. Throws Error(Unsupported) for meshes and half-spaces
// (no grasp generation for them) and Error(InvalidValue) when no span of the object fits the
// gripper (saying the object's smallest span and the gripper's opening).
std::vector<Grasp> generate_grasps(const Shape& object, const Pose& object_pose,
                                   const GripperSpec& gripper);

}  // namespace kinetic
