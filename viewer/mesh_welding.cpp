#include "viewer/mesh_welding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace kinetic::viewer {

namespace {

// Exact position bits (with -0 folded into +0) and the colour: corners merge only when both match.
struct CornerKey {
  uint32_t words[4];
  friend bool operator==(const CornerKey&, const CornerKey&) = default;
};

struct CornerKeyHash {
  size_t operator()(const CornerKey& key) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t w : key.words) h = (h ^ w) * 0x100000001b3ull + (h >> 29);
    return static_cast<size_t>(h);
  }
};

CornerKey key_of(const MeshVertex& v) {
  CornerKey key{};
  for (int i = 0; i < 3; ++i) {
    const float p = v.position[i] + 0.0f;  // -0 -> +0
    std::memcpy(&key.words[i], &p, sizeof p);
  }
  std::memcpy(&key.words[3], v.color, sizeof v.color);
  return key;
}

Vec3 position(const MeshVertex& v) {
  return {v.position[0], v.position[1], v.position[2]};
}

struct Cluster {
  Vec3 seed;        // the first corner's normal: later corners join when within the crease angle
  uint32_t vertex;  // output vertex
};

}  // namespace

MeshData weld_triangle_soup(const std::vector<MeshVertex>& corners, float crease_angle_degrees) {
  const float crease_cos = std::cos(crease_angle_degrees * 3.14159265f / 180.0f);
  const size_t triangle_count = corners.size() / 3;

  // Per corner: unit normal (the file's, else the face's) and weight (the triangle's angle there).
  std::vector<Vec3> normals(corners.size());
  std::vector<float> weights(corners.size(), 0.0f);
  std::vector<bool> keep(triangle_count, false);
  for (size_t t = 0; t < triangle_count; ++t) {
    const Vec3 p[3] = {position(corners[3 * t]), position(corners[3 * t + 1]),
                       position(corners[3 * t + 2])};
    if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2]) continue;  // zero area: draws nothing
    keep[t] = true;
    const Vec3 face = (p[1] - p[0]).cross(p[2] - p[0]);
    const Vec3 face_unit = face.norm() > 0 ? Vec3(face.normalized()) : Vec3(0, 0, 1);
    for (int k = 0; k < 3; ++k) {
      const MeshVertex& v = corners[3 * t + k];
      const Vec3 n(v.normal[0], v.normal[1], v.normal[2]);
      normals[3 * t + k] = n.squaredNorm() > 1e-12f ? Vec3(n.normalized()) : face_unit;
      const Vec3 a = (p[(k + 1) % 3] - p[k]).normalized(), b = (p[(k + 2) % 3] - p[k]).normalized();
      weights[3 * t + k] = std::acos(std::clamp(a.dot(b), -1.0f, 1.0f));
    }
  }

  // Group the kept corners by position and colour, groups numbered in order of first appearance.
  std::unordered_map<CornerKey, uint32_t, CornerKeyHash> group_of_key;
  group_of_key.reserve(corners.size() / 2);
  std::vector<uint32_t> group(corners.size(), 0);
  std::vector<uint32_t> group_size;
  for (size_t t = 0; t < triangle_count; ++t) {
    if (!keep[t]) continue;
    for (size_t c = 3 * t; c < 3 * t + 3; ++c) {
      const auto [it, added] =
          group_of_key.emplace(key_of(corners[c]), static_cast<uint32_t>(group_size.size()));
      if (added) group_size.push_back(0);
      group[c] = it->second;
      ++group_size[it->second];
    }
  }
  // Corners listed group by group (counting sort), in corner order within a group.
  std::vector<uint32_t> group_start(group_size.size() + 1, 0);
  for (size_t g = 0; g < group_size.size(); ++g)
    group_start[g + 1] = group_start[g] + group_size[g];
  std::vector<uint32_t> members(group_start.back());
  std::vector<uint32_t> fill(group_start.begin(), group_start.end() - 1);
  for (size_t t = 0; t < triangle_count; ++t)
    if (keep[t])
      for (size_t c = 3 * t; c < 3 * t + 3; ++c)
        members[fill[group[c]]++] = static_cast<uint32_t>(c);

  // Within a group, corners join the first cluster whose seed normal is within the crease angle.
  MeshData out;
  out.vertices.reserve(group_size.size() * 5 / 4);
  std::vector<uint32_t> corner_vertex(corners.size(), 0);
  std::vector<Cluster> clusters;
  std::vector<Vec3> sums;  // per output vertex: angle-weighted sum of its corners' normals
  for (size_t g = 0; g < group_size.size(); ++g) {
    clusters.clear();
    for (uint32_t m = group_start[g]; m < group_start[g + 1]; ++m) {
      const uint32_t c = members[m];
      const Vec3& n = normals[c];
      auto it = std::find_if(clusters.begin(), clusters.end(),
                             [&](const Cluster& k) { return k.seed.dot(n) >= crease_cos; });
      if (it == clusters.end()) {
        clusters.push_back({n, static_cast<uint32_t>(out.vertices.size())});
        out.vertices.push_back(corners[c]);
        sums.push_back(Vec3::Zero());
        it = clusters.end() - 1;
      }
      sums[it->vertex] += n * weights[c];
      corner_vertex[c] = it->vertex;
    }
    for (const Cluster& k : clusters) {
      const Vec3& sum = sums[k.vertex];
      const Vec3 n = sum.squaredNorm() > 1e-20f ? Vec3(sum.normalized()) : k.seed;
      MeshVertex& v = out.vertices[k.vertex];
      v.normal[0] = n.x(), v.normal[1] = n.y(), v.normal[2] = n.z();
    }
  }

  out.indices.reserve(corners.size());
  for (size_t t = 0; t < triangle_count; ++t)
    if (keep[t])
      out.indices.insert(out.indices.end(), {corner_vertex[3 * t], corner_vertex[3 * t + 1],
                                             corner_vertex[3 * t + 2]});
  return out;
}

}  // namespace kinetic::viewer
