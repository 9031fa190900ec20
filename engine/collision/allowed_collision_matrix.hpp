#pragma once
// AllowedCollisionMatrix: which pairs of named bodies are never checked. Symmetric; entries are
// robot links first, then whatever the checker appends (attached objects, obstacles). Kept as the
// set of allowed pairs, so its size follows what is allowed, not the square of the entries (an
// n x n matrix took 1.7 GB for a scene of 40,000 obstacles).
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/model/robot_model.hpp"

namespace kinetic {

class AllowedCollisionMatrix {
 public:
  AllowedCollisionMatrix() = default;
  explicit AllowedCollisionMatrix(std::vector<std::string> names);

  int size() const { return static_cast<int>(names_.size()); }
  const std::vector<std::string>& names() const { return names_; }
  int find(const std::string& name) const;  // -1 when absent
  int add_entry(const std::string& name);   // returns the (new or existing) index

  bool allowed(int a, int b) const { return allowed_.count(key(a, b)) != 0; }
  bool allowed(const std::string& a, const std::string& b) const;
  void set_allowed(int a, int b, bool allowed);
  // Throws Error(MissingLink) naming the unknown entry.
  void set_allowed(const std::string& a, const std::string& b, bool allowed);

  // Allowed pairs by name, each once (first < second in entry order).
  std::vector<std::pair<std::string, std::string>> allowed_pairs() const;

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, int> index_;
  static std::uint64_t key(int a, int b) {
    const auto [low, high] = std::minmax(a, b);
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(low)) << 32) |
           static_cast<std::uint32_t>(high);
  }
  std::unordered_set<std::uint64_t> allowed_;  // key(a, b) of every allowed pair
};

// Pairs of links with collision geometry that touch through the kinematic tree: parent and child
// (skipping links without geometry in between), and links welded together by fixed joints.
std::vector<std::pair<int, int>> adjacent_link_pairs(const RobotModel& model);

// The robot's own matrix: adjacent pairs, the SRDF's disable_collisions and kinetic.toml's
// [collision] skip_pairs. Pairs naming links the model lacks are ignored (the SRDF may describe
// a larger robot); their names are appended to `ignored` when given.
AllowedCollisionMatrix default_allowed_collisions(const RobotModel& model,
                                                  std::vector<std::string>* ignored = nullptr);

}  // namespace kinetic
