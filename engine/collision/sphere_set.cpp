#include "engine/collision/sphere_set.hpp"

#include <limits>

namespace kinetic {

void SphereSet::build(const std::vector<ObstacleTree::Entry>& entries) {
  const std::size_t padded = (entries.size() + 3) / 4 * 4;
  constexpr float kFar = std::numeric_limits<float>::infinity();
  x_.assign(padded, kFar);
  y_.assign(padded, kFar);
  z_.assign(padded, kFar);
  r_.assign(padded, 0.0f);
  ids_.assign(padded, -1);
  usable_ = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ObstacleTree::Entry& e = entries[i];
    usable_ &= e.center.cwiseAbs().maxCoeff() <= kMaxCoordinate && std::isfinite(e.radius);
    x_[i] = static_cast<float>(e.center.x());
    y_[i] = static_cast<float>(e.center.y());
    z_[i] = static_cast<float>(e.center.z());
    // Rounded up: the float sphere holds the double one.
    r_[i] = std::nextafter(static_cast<float>(e.radius * (1.0 + 1e-6)), kFar);
    ids_[i] = e.id;
  }
}

}  // namespace kinetic
