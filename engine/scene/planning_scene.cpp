#include "engine/scene/planning_scene.hpp"

#include <algorithm>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

std::pair<std::string, std::string> key(const std::string& a, const std::string& b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

Error unknown(const std::string& what, const std::string& name) {
  return Error(ErrorCode::InvalidValue, "planning scene: no " + what + " named '" + name + "'");
}

}  // namespace

void validate_pose(const Pose& pose, const std::string& what) {
  if (!pose.matrix().allFinite())
    throw Error(ErrorCode::InvalidValue, what + ": pose is not finite");
  const Eigen::Matrix3d r = pose.linear();
  if (!(r.transpose() * r).isIdentity(1e-6) || r.determinant() < 0.0)
    throw Error(ErrorCode::InvalidValue, what + ": pose rotation is not a proper rotation");
}

void PlanningScene::require_new_name(const std::string& name) const {
  if (name.empty()) throw Error(ErrorCode::InvalidValue, "planning scene: object name is empty");
  if (has_obstacle(name) || has_attached(name))
    throw Error(ErrorCode::InvalidValue, "planning scene: an object named '" + name + "' exists",
                "choose another name or remove the existing object first");
}

std::vector<Obstacle>::iterator PlanningScene::find_obstacle(const std::string& name) {
  return std::find_if(obstacles_.begin(), obstacles_.end(),
                      [&](const Obstacle& o) { return o.name == name; });
}

std::vector<AttachedObject>::iterator PlanningScene::find_attached(const std::string& name) {
  return std::find_if(attached_.begin(), attached_.end(),
                      [&](const AttachedObject& o) { return o.name == name; });
}

void PlanningScene::add_obstacle(const std::string& name, const Shape& shape, const Pose& pose) {
  require_new_name(name);
  shape.validate();
  validate_pose(pose, "obstacle '" + name + "'");
  obstacles_.push_back({name, shape, pose});
  obstacle_names_.insert(name);
  ++revision_;
}

void PlanningScene::move_obstacle(const std::string& name, const Pose& pose) {
  auto it = find_obstacle(name);
  if (it == obstacles_.end()) throw unknown("obstacle", name);
  validate_pose(pose, "obstacle '" + name + "'");
  it->pose = pose;
  ++revision_;
}

void PlanningScene::remove_obstacle(const std::string& name) {
  auto it = find_obstacle(name);
  if (it == obstacles_.end()) throw unknown("obstacle", name);
  obstacle_names_.erase(name);  // before the erase: `name` may be the erased obstacle's own
  obstacles_.erase(it);
  ++revision_;
}

bool PlanningScene::has_obstacle(const std::string& name) const {
  return obstacle_names_.count(name) > 0;
}

const Obstacle& PlanningScene::obstacle(const std::string& name) const {
  for (const auto& o : obstacles_)
    if (o.name == name) return o;
  throw unknown("obstacle", name);
}

void PlanningScene::attach_obstacle(const std::string& name, const std::string& link,
                                    const Pose& link_pose,
                                    const std::vector<std::string>& touch_links) {
  auto it = find_obstacle(name);
  if (it == obstacles_.end()) throw unknown("obstacle", name);
  validate_pose(link_pose, "attaching '" + name + "' to '" + link + "'");
  if (it->shape.type == Shape::Type::HalfSpace)
    throw Error(ErrorCode::InvalidValue,
                "planning scene: half-space '" + name + "' cannot be attached");
  AttachedObject object{name, link, it->shape, link_pose.inverse() * it->pose, touch_links};
  obstacle_names_.erase(name);
  attached_names_.insert(object.name);
  obstacles_.erase(it);
  attached_.push_back(std::move(object));
  ++revision_;
}

void PlanningScene::add_attached(const AttachedObject& object) {
  require_new_name(object.name);
  object.shape.validate();
  if (object.shape.type == Shape::Type::HalfSpace)
    throw Error(ErrorCode::InvalidValue,
                "planning scene: half-space '" + object.name + "' cannot be attached");
  if (object.link.empty())
    throw Error(ErrorCode::InvalidValue,
                "planning scene: attached object '" + object.name + "' names no link");
  validate_pose(object.pose, "attached object '" + object.name + "'");
  attached_.push_back(object);
  attached_names_.insert(object.name);
  ++revision_;
}

void PlanningScene::detach(const std::string& name, const Pose& link_pose) {
  auto it = find_attached(name);
  if (it == attached_.end()) throw unknown("attached object", name);
  validate_pose(link_pose, "detaching '" + name + "'");
  Obstacle obstacle{it->name, it->shape, link_pose * it->pose};
  attached_names_.erase(name);
  obstacle_names_.insert(obstacle.name);
  attached_.erase(it);
  obstacles_.push_back(std::move(obstacle));
  ++revision_;
}

bool PlanningScene::has_attached(const std::string& name) const {
  return attached_names_.count(name) > 0;
}

const AttachedObject& PlanningScene::attached(const std::string& name) const {
  for (const auto& o : attached_)
    if (o.name == name) return o;
  throw unknown("attached object", name);
}

void PlanningScene::allow(const std::string& a, const std::string& b) {
  overrides_[key(a, b)] = true;
  ++revision_;
}

void PlanningScene::disallow(const std::string& a, const std::string& b) {
  overrides_[key(a, b)] = false;
  ++revision_;
}

void PlanningScene::clear_override(const std::string& a, const std::string& b) {
  overrides_.erase(key(a, b));
  ++revision_;
}

std::optional<bool> PlanningScene::override_for(const std::string& a, const std::string& b) const {
  const auto it = overrides_.find(key(a, b));
  if (it == overrides_.end()) return std::nullopt;
  return it->second;
}

void PlanningScene::clear() {
  obstacles_.clear();
  attached_.clear();
  obstacle_names_.clear();
  attached_names_.clear();
  overrides_.clear();
  ++revision_;
}

}  // namespace kinetic
