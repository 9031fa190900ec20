#pragma once
// Contacts that are part of a pick and place: what the object rests on (or would collide with) at a
// pose, and allowing those pairs for a while, then putting back what the request's scene said.
#include <memory>
#include <string>
#include <vector>

#include "engine/collision/collision_body.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::task_detail {

// The object touches another obstacle within this distance (m), and collides with it when they
// overlap deeper than this.
inline constexpr double kContactTolerance = 0.001;

struct Overlap {
  std::string obstacle;
  double depth = 0.0;  // m
};

// The obstacles of a scene as collision bodies, taken from a checker that has the scene (building a
// body, its sphere tree, costs far more than a distance query) and kept while the checker's scene
// changes: a task asks about the same obstacles at every place rotation.
class ObstacleBodies {
 public:
  ObstacleBodies(const CollisionChecker& checker, const PlanningScene& scene);
  // The obstacles (other than `object`, one of them) within kContactTolerance of `object` at
  // `pose`.
  std::vector<std::string> touching(const std::string& object, const Pose& pose) const;
  // The obstacles (other than `object`) that `object` at `pose` overlaps by more than
  // kContactTolerance.
  std::vector<Overlap> overlapping(const std::string& object, const Pose& pose) const;

 private:
  struct Entry {
    std::string name;
    Pose pose;
    std::shared_ptr<const CollisionBody> body;
  };
  const Entry& entry(const std::string& name) const;
  std::vector<Entry> obstacles_;
};

// The robot's links (other than `link`) whose collision geometry reaches `link`'s origin at q
// (within kContactTolerance): on a bare flange (the UR5e's tool0) the wrist link's housing ends in
// the flange face, so an object held against the flange touches it too. The probe runs on a copy of
// the checker (its geometry shared), whose scene is left as it was.
std::vector<std::string> links_at_origin_of(const CollisionChecker& checker,
                                            const RobotModel& model, const JointVector& q,
                                            const std::string& link);

// Allows `object` with each of `others` in `scene`.
void allow_with(PlanningScene& scene, const std::string& object,
                const std::vector<std::string>& others);
// Gives each pair (object, other) back the override `original` has for it (or none).
void restore_with(PlanningScene& scene, const std::string& object,
                  const std::vector<std::string>& others, const PlanningScene& original);

}  // namespace kinetic::task_detail
