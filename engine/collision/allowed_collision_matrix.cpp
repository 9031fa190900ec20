#include "engine/collision/allowed_collision_matrix.hpp"

#include <set>

#include "engine/core/error.hpp"

namespace kinetic {

AllowedCollisionMatrix::AllowedCollisionMatrix(std::vector<std::string> names) {
  names_.reserve(names.size());
  index_.reserve(names.size());
  for (auto& name : names)
    if (index_.emplace(name, static_cast<int>(names_.size())).second)
      names_.push_back(std::move(name));
}

int AllowedCollisionMatrix::find(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? -1 : it->second;
}

int AllowedCollisionMatrix::add_entry(const std::string& name) {
  if (const int existing = find(name); existing >= 0) return existing;
  const int index = static_cast<int>(names_.size());
  names_.push_back(name);
  index_[name] = index;
  return index;
}

bool AllowedCollisionMatrix::allowed(const std::string& a, const std::string& b) const {
  const int ia = find(a), ib = find(b);
  return ia >= 0 && ib >= 0 && allowed(ia, ib);
}

void AllowedCollisionMatrix::set_allowed(int a, int b, bool value) {
  if (value)
    allowed_.insert(key(a, b));
  else
    allowed_.erase(key(a, b));
}

void AllowedCollisionMatrix::set_allowed(const std::string& a, const std::string& b, bool value) {
  for (const auto* name : {&a, &b})
    if (find(*name) < 0)
      throw Error(ErrorCode::MissingLink,
                  "allowed collision matrix: no link or object named '" + *name + "'");
  set_allowed(find(a), find(b), value);
}

std::vector<std::pair<std::string, std::string>> AllowedCollisionMatrix::allowed_pairs() const {
  std::vector<std::uint64_t> keys;
  for (const std::uint64_t pair : allowed_)
    if ((pair >> 32) != (pair & 0xffffffffu)) keys.push_back(pair);
  std::sort(keys.begin(), keys.end());  // entry order: by the first, then the second
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(keys.size());
  for (const std::uint64_t pair : keys)
    out.emplace_back(names_[pair >> 32], names_[pair & 0xffffffffu]);
  return out;
}

std::vector<std::pair<int, int>> adjacent_link_pairs(const RobotModel& model) {
  const auto& links = model.links();
  const auto& joints = model.joints();
  auto has_geometry = [&](int link) { return !links[link].collisions.empty(); };
  std::set<std::pair<int, int>> pairs;
  auto add = [&](int a, int b) {
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  };
  for (const auto& link : links) {
    if (!has_geometry(link.index)) continue;
    // Walk up through links without geometry to the first body the link can touch; bodies welded
    // to it by fixed joints are adjacent too, and the walk continues past them.
    bool welded = true;
    for (int joint = link.parent_joint; joint >= 0;) {
      const int parent = joints[joint].parent_link;
      welded = welded && joints[joint].type == JointType::Fixed;
      if (has_geometry(parent)) {
        add(link.index, parent);
        if (!welded) break;
      }
      joint = links[parent].parent_joint;
    }
  }
  return {pairs.begin(), pairs.end()};
}

AllowedCollisionMatrix default_allowed_collisions(const RobotModel& model,
                                                  std::vector<std::string>* ignored) {
  std::vector<std::string> names;
  for (const auto& link : model.links()) names.push_back(link.name);
  AllowedCollisionMatrix acm(names);
  for (const auto& [a, b] : adjacent_link_pairs(model)) acm.set_allowed(a, b, true);
  auto allow_named = [&](const std::string& a, const std::string& b) {
    const int ia = acm.find(a), ib = acm.find(b);
    if (ia < 0 || ib < 0) {
      if (ignored) ignored->push_back(ia < 0 ? a : b);
      return;
    }
    acm.set_allowed(ia, ib, true);
  };
  for (const auto& pair : model.semantic().disabled_collisions) allow_named(pair.link1, pair.link2);
  for (const auto& [a, b] : model.config().collision.skip_pairs) allow_named(a, b);
  return acm;
}

}  // namespace kinetic
