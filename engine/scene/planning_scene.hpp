#pragma once
// PlanningScene: the world around the robot — named obstacles with poses, objects attached to
// robot links, and allowed pairs. Plain data with validation; the CollisionChecker reads it
// (CollisionChecker::set_scene) and the scene file stores it.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/geometry/shape.hpp"

namespace kinetic {

struct Obstacle {
  std::string name;
  Shape shape;
  Pose pose = Pose::Identity();  // world frame
};

struct AttachedObject {
  std::string name;
  std::string link;  // robot link it is fixed to
  Shape shape;
  Pose pose = Pose::Identity();          // in the link frame
  std::vector<std::string> touch_links;  // links allowed to touch it besides `link`
};

class PlanningScene {
 public:
  // Obstacles. Names are unique across obstacles and attached objects; violations, unknown names
  // and invalid shapes or poses throw Error(InvalidValue) naming the object.
  void add_obstacle(const std::string& name, const Shape& shape, const Pose& pose);
  void move_obstacle(const std::string& name, const Pose& pose);
  void remove_obstacle(const std::string& name);
  bool has_obstacle(const std::string& name) const;
  const Obstacle& obstacle(const std::string& name) const;
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }

  // Attaching: the object keeps its world pose at the moment of attaching (link_pose = the link's
  // current world pose), then moves with the link. Detaching leaves it as an obstacle where it is.
  void attach_obstacle(const std::string& name, const std::string& link, const Pose& link_pose,
                       const std::vector<std::string>& touch_links = {});
  void add_attached(const AttachedObject& object);
  void detach(const std::string& name, const Pose& link_pose);
  bool has_attached(const std::string& name) const;
  const AttachedObject& attached(const std::string& name) const;
  const std::vector<AttachedObject>& attached_objects() const { return attached_; }

  // Pair overrides on top of the robot's matrix: allow (never check) or disallow (always check,
  // even when the robot's matrix allows it). Names: links, obstacles or attached objects.
  void allow(const std::string& a, const std::string& b);
  void disallow(const std::string& a, const std::string& b);
  void clear_override(const std::string& a, const std::string& b);
  // true: allowed, false: forced check, nullopt: no override.
  std::optional<bool> override_for(const std::string& a, const std::string& b) const;
  const std::map<std::pair<std::string, std::string>, bool>& overrides() const {
    return overrides_;
  }

  void clear();
  bool empty() const { return obstacles_.empty() && attached_.empty() && overrides_.empty(); }
  // Increases on every change, so a checker can tell whether it is up to date.
  std::uint64_t revision() const { return revision_; }

 private:
  void require_new_name(const std::string& name) const;
  std::vector<Obstacle>::iterator find_obstacle(const std::string& name);
  std::vector<AttachedObject>::iterator find_attached(const std::string& name);

  std::vector<Obstacle> obstacles_;
  std::vector<AttachedObject> attached_;
  // The same names, for the uniqueness check of every add: a scan per add made loading a scene
  // of n objects take n^2 / 2 string comparisons (50,000 objects: minutes).
  std::unordered_set<std::string> obstacle_names_, attached_names_;
  std::map<std::pair<std::string, std::string>, bool> overrides_;  // key: (min, max) by name
  std::uint64_t revision_ = 0;
};

// Throws Error(InvalidValue) for a non-finite pose or a rotation that is not orthonormal.
void validate_pose(const Pose& pose, const std::string& what);

}  // namespace kinetic
