#pragma once
// Contacts that are part of a pick and place: what the object rests on (or would collide with) at a
// pose, and allowing those pairs for a while, then putting back what the request's scene said.
#include <string>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::task_detail {

// The object touches another obstacle within this distance (m), and collides with it when they
// overlap deeper than this.
inline constexpr double kContactTolerance = 0.001;

// The obstacles of `scene` (other than `object`) within kContactTolerance of `shape` at `pose`.
std::vector<std::string> obstacles_touching(const PlanningScene& scene, const std::string& object,
                                            const Shape& shape, const Pose& pose);

struct Overlap {
  std::string obstacle;
  double depth = 0.0;  // m
};
// The obstacles of `scene` (other than `object`) that `shape` at `pose` overlaps by more than
// kContactTolerance.
std::vector<Overlap> obstacles_overlapping(const PlanningScene& scene, const std::string& object,
                                           const Shape& shape, const Pose& pose);

// The robot's links (other than `link`) whose collision geometry reaches `link`'s origin at q
// (within kContactTolerance): on a bare flange (the UR5e's tool0) the wrist link's housing ends in
// the flange face, so an object held against the flange touches it too. Uses (and leaves) a probe
// scene in the checker.
std::vector<std::string> links_at_origin_of(CollisionChecker& checker, const RobotModel& model,
                                            const JointVector& q, const std::string& link);

// Allows `object` with each of `others` in `scene`.
void allow_with(PlanningScene& scene, const std::string& object, const std::vector<std::string>& others);
// Gives each pair (object, other) back the override `original` has for it (or none).
void restore_with(PlanningScene& scene, const std::string& object, const std::vector<std::string>& others,
                  const PlanningScene& original);

}  // namespace kinetic::task_detail
