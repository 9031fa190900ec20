#include "viewer/closed_shells.hpp"

#include <cstring>
#include <numeric>
#include <unordered_map>

namespace kinetic::viewer {

namespace {

struct PositionKey {
  uint32_t bits[3];
  friend bool operator==(const PositionKey&, const PositionKey&) = default;
};

struct PositionKeyHash {
  size_t operator()(const PositionKey& key) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t w : key.bits) h = (h ^ w) * 0x100000001b3ull + (h >> 29);
    return static_cast<size_t>(h);
  }
};

uint32_t find(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

uint32_t order_closed_shells_first(const std::vector<MeshVertex>& vertices,
                                   std::vector<uint32_t>& indices) {
  const size_t triangle_count = indices.size() / 3;
  if (triangle_count == 0) return 0;

  // One id per distinct position.
  std::unordered_map<PositionKey, uint32_t, PositionKeyHash> id_of;
  id_of.reserve(vertices.size());
  std::vector<uint32_t> position_id(vertices.size());
  for (size_t v = 0; v < vertices.size(); ++v) {
    PositionKey key{};
    for (int i = 0; i < 3; ++i) {
      const float p = vertices[v].position[i] + 0.0f;  // -0 -> +0
      std::memcpy(&key.bits[i], &p, sizeof p);
    }
    position_id[v] = id_of.emplace(key, static_cast<uint32_t>(id_of.size())).first->second;
  }

  // Directed edges by position, and shells (connected components) by shared positions.
  const auto corner = [&](size_t t, int k) {
    return position_id[indices[3 * t + static_cast<size_t>(k)]];
  };
  const auto edge_key = [](uint32_t a, uint32_t b) { return (uint64_t{a} << 32) | b; };
  // Zero-area triangles (two corners at one position, as at a sphere's poles) draw nothing and
  // bound nothing: they neither open nor close a shell.
  const auto degenerate = [&](size_t t) {
    return corner(t, 0) == corner(t, 1) || corner(t, 1) == corner(t, 2) ||
           corner(t, 0) == corner(t, 2);
  };
  std::unordered_map<uint64_t, uint32_t> edge_count;
  edge_count.reserve(indices.size());
  std::vector<uint32_t> parent(id_of.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (size_t t = 0; t < triangle_count; ++t)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = corner(t, k), b = corner(t, (k + 1) % 3);
      if (!degenerate(t)) ++edge_count[edge_key(a, b)];
      parent[find(parent, a)] = find(parent, b);
    }

  // A shell is closed when each of its edges is run once in each direction; outward when the
  // volume it encloses (divergence theorem over its counter-clockwise triangles) is positive.
  std::vector<bool> open(parent.size(), false);
  std::vector<double> volume(parent.size(), 0.0);
  const auto count = [&](uint32_t a, uint32_t b) {
    const auto it = edge_count.find(edge_key(a, b));
    return it == edge_count.end() ? 0u : it->second;
  };
  for (size_t t = 0; t < triangle_count; ++t) {
    if (degenerate(t)) continue;
    const uint32_t shell = find(parent, corner(t, 0));
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = corner(t, k), b = corner(t, (k + 1) % 3);
      if (count(a, b) != 1 || count(b, a) != 1) open[shell] = true;
    }
    const auto p = [&](int k) {
      const float* q = vertices[indices[3 * t + static_cast<size_t>(k)]].position;
      return Eigen::Vector3d(q[0], q[1], q[2]);
    };
    volume[shell] += p(0).dot(p(1).cross(p(2)));
  }

  std::vector<uint32_t> closed, rest;
  closed.reserve(indices.size());
  for (size_t t = 0; t < triangle_count; ++t) {
    const uint32_t shell = find(parent, corner(t, 0));
    auto& out = !open[shell] && volume[shell] > 0 ? closed : rest;
    out.insert(out.end(), indices.begin() + static_cast<std::ptrdiff_t>(3 * t),
               indices.begin() + static_cast<std::ptrdiff_t>(3 * t + 3));
  }
  const auto closed_count = static_cast<uint32_t>(closed.size());
  closed.insert(closed.end(), rest.begin(), rest.end());
  indices = std::move(closed);
  return closed_count;
}

}  // namespace kinetic::viewer
