#pragma once
// What the collision queries are asked with and what they answer: the checker's build options,
// the options of one check, contacts and distances. Plain values shared by the collision world,
// its queries and the CollisionChecker facade.
#include <string>

#include "engine/core/types.hpp"
#include "engine/geometry/sphere_tree.hpp"

namespace kinetic {

struct CollisionCheckerOptions {
  SphereResolution resolution = SphereResolution::Default;
  // Sphere pairs proving two bodies within padding + refinement_margin report a collision without
  // FCL; false positives are therefore within this distance. 0 = exact answers only.
  double refinement_margin = 0.005;
};

struct CheckOptions {
  double padding = 0.0;  // m, added around every robot body on top of the robot's own padding
  bool self = true;
  bool scene = true;
  // false: `padding` keeps the robot clear of the scene only; links among themselves keep just
  // the robot's own padding (a planning margin is clearance from obstacles).
  bool pad_self = true;
  // true: a robot body whose sphere cover comes within the padding of an obstacle counts as in
  // collision, without the exact tiers. Stricter than the exact check (a cover holds its body and
  // sticks out of it by up to 3 cm: collision_body.cpp's kLinkCover), and much cheaper near
  // obstacles: the search tries it first (bidirectional_search.cpp). Bodies without a cover are
  // checked as always.
  bool covers_decide = false;
  // true (every query a user or a caller sees): no refinement margin. The sphere tier's
  // "collision" for a pair within padding + CollisionCheckerOptions::refinement_margin is decided
  // by the exact tiers instead: a grasp pose or a trajectory a few millimetres from an obstacle is
  // free, as the output gate finds it. false: such pairs may count as colliding without the exact
  // tiers, which only the planner's search asks for (planning_check_options), where a false
  // "blocked" costs a detour and the exact tier's time near obstacles would cost more. (Scene
  // pairs of bodies with convex hulls left open by the cheap tests skip the sphere tier even so:
  // their hulls' GJK decides them sooner; state_check.cpp's exact_scene_pair.)
  bool exact = true;
};

struct Contact {
  std::string body_a, body_b;
  double depth = 0.0;  // penetration depth (m); within padding: padding - distance
};

struct DistanceResult {
  double distance = 0.0;  // geometric distance (no padding); <= 0 when intersecting
  std::string body_a, body_b;
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();  // world frame
  bool exact = true;   // false: sphere lower bound only (DistanceOptions::exact = false)
  bool found = false;  // false when there is no pair to measure
};

struct DistanceOptions {
  bool self = true;
  bool scene = true;
  bool exact = true;
};

}  // namespace kinetic
