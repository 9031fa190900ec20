#include "engine/planning/sampling/dynamic_domain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kinetic {

namespace {
// VAMP's rate (its RRTCSettings' alpha): the domain changes by this share per step from the node.
constexpr double kChange = 1e-4;
constexpr double kUnbounded = std::numeric_limits<double>::infinity();
}  // namespace

DynamicDomain::DynamicDomain(double radius, double floor) : first_radius_(radius), floor_(floor) {}

double& DynamicDomain::entry(int tree, int node) {
  std::vector<double>& radii = radii_[tree == 0 ? 0 : 1];
  const auto index = static_cast<std::size_t>(node);
  if (radii.size() <= index) radii.resize(index + 1, kUnbounded);
  return radii[index];
}

double DynamicDomain::radius(int tree, int node) const {
  const std::vector<double>& radii = radii_[tree == 0 ? 0 : 1];
  const auto index = static_cast<std::size_t>(node);
  return node >= 0 && index < radii.size() ? radii[index] : kUnbounded;
}

bool DynamicDomain::admits(int tree, int node, double distance) const {
  return !(distance > radius(tree, node));
}

void DynamicDomain::added(int tree, int node, int parent) {
  entry(tree, node) = kUnbounded;
  if (parent < 0) return;
  double& grown_from = entry(tree, parent);
  if (std::isfinite(grown_from)) grown_from *= 1.0 + kChange;
}

void DynamicDomain::blocked(int tree, int node) {
  if (node < 0) return;
  double& radius = entry(tree, node);
  radius = std::isfinite(radius) ? std::max(radius * (1.0 - kChange), floor_) : first_radius_;
}

}  // namespace kinetic
