#include "engine/geometry/inner_spheres.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numbers>
#include <unordered_map>

#include "engine/geometry/convex_distance.hpp"

namespace kinetic {
namespace {

// Candidate centres per mesh at most times its triangles: the distance search's budget.
constexpr double kCandidateWork = 1.0e6;
// Grid cells along the mesh's longest side at most.
constexpr int kMaxCellsAlong = 16;
// Spheres smaller than this part of the largest add little and cost a test each.
constexpr double kSmallestUseful = 0.2;

// Vertex indices with the ones at the same position joined (Assimp joins most, not all).
std::vector<int> joined_indices(const std::vector<Vector3>& vertices) {
  std::map<std::array<double, 3>, int> first;
  std::vector<int> out(vertices.size());
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const Vector3& p = vertices[v];
    out[v] = first.emplace(std::array<double, 3>{p.x(), p.y(), p.z()}, static_cast<int>(v))
                 .first->second;
  }
  return out;
}

// Generalised winding number of the surface about p: 1 (or -1, the other orientation) inside a
// closed surface, 0 outside, whole numbers up to rounding away from the surface.
double winding_number(const std::vector<Vector3>& vertices,
                      const std::vector<std::array<int, 3>>& triangles, const Vector3& p) {
  double total = 0.0;
  for (const auto& t : triangles) {
    const Vector3 a = vertices[static_cast<std::size_t>(t[0])] - p;
    const Vector3 b = vertices[static_cast<std::size_t>(t[1])] - p;
    const Vector3 c = vertices[static_cast<std::size_t>(t[2])] - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    // Van Oosterom and Strackee's solid angle of a triangle.
    total += 2.0 * std::atan2(a.dot(b.cross(c)),
                              la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la);
  }
  return total / (4.0 * std::numbers::pi);
}

double distance_to_surface(const std::vector<Vector3>& vertices,
                           const std::vector<std::array<int, 3>>& triangles, const Vector3& p) {
  double nearest = std::numeric_limits<double>::infinity();
  for (const auto& t : triangles) {
    const Vector3& a = vertices[static_cast<std::size_t>(t[0])];
    const Vector3& b = vertices[static_cast<std::size_t>(t[1])];
    const Vector3& c = vertices[static_cast<std::size_t>(t[2])];
    nearest = std::min(nearest, (closest_point_on_triangle(p, a, b, c) - p).squaredNorm());
  }
  return std::sqrt(nearest);
}

// Where the ray from (-inf, y, z) along +x crosses the triangles, sorted.
std::vector<double> crossings_along_x(const std::vector<Vector3>& vertices,
                                      const std::vector<std::array<int, 3>>& triangles, double y,
                                      double z) {
  std::vector<double> out;
  for (const auto& t : triangles) {
    const Vector3& a = vertices[static_cast<std::size_t>(t[0])];
    const Vector3& b = vertices[static_cast<std::size_t>(t[1])];
    const Vector3& c = vertices[static_cast<std::size_t>(t[2])];
    // (y, z) inside the triangle's shadow on the y-z plane, by its three edge functions.
    const auto edge = [&](const Vector3& p, const Vector3& q) {
      return (q.y() - p.y()) * (z - p.z()) - (q.z() - p.z()) * (y - p.y());
    };
    const double ea = edge(b, c), eb = edge(c, a), ec = edge(a, b);
    const bool inside = (ea > 0 && eb > 0 && ec > 0) || (ea < 0 && eb < 0 && ec < 0);
    if (!inside) continue;
    const double sum = ea + eb + ec;
    out.push_back((ea * a.x() + eb * b.x() + ec * c.x()) / sum);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool mesh_is_closed(const std::vector<Vector3>& vertices,
                    const std::vector<std::array<int, 3>>& triangles) {
  const std::vector<int> id = joined_indices(vertices);
  std::unordered_map<std::uint64_t, int> directed;
  const auto key = [](int from, int to) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
           static_cast<std::uint32_t>(to);
  };
  for (const auto& t : triangles)
    for (int e = 0; e < 3; ++e) {
      const int from = id[static_cast<std::size_t>(t[e])];
      const int to = id[static_cast<std::size_t>(t[(e + 1) % 3])];
      if (from == to || ++directed[key(from, to)] > 1) return false;
    }
  for (const auto& [edge, uses] : directed)
    if (!directed.contains(key(static_cast<int>(edge & 0xffffffffu), static_cast<int>(edge >> 32))))
      return false;
  return !triangles.empty();
}

bool mesh_is_one_piece(const std::vector<Vector3>& vertices,
                       const std::vector<std::array<int, 3>>& triangles) {
  if (triangles.empty()) return false;
  const std::vector<int> id = joined_indices(vertices);
  std::vector<int> parent(vertices.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  const auto root = [&parent](int v) {
    while (parent[static_cast<std::size_t>(v)] != v)
      v = parent[static_cast<std::size_t>(v)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    return v;
  };
  for (const auto& t : triangles)
    for (int e = 1; e < 3; ++e)
      parent[static_cast<std::size_t>(root(id[static_cast<std::size_t>(t[e])]))] =
          root(id[static_cast<std::size_t>(t[0])]);
  const int first = root(id[static_cast<std::size_t>(triangles.front()[0])]);
  return std::all_of(triangles.begin(), triangles.end(), [&](const std::array<int, 3>& t) {
    return root(id[static_cast<std::size_t>(t[0])]) == first;
  });
}

std::vector<InnerSphere> inner_spheres(const std::vector<Vector3>& vertices,
                                       const std::vector<std::array<int, 3>>& triangles,
                                       std::size_t count) {
  if (count == 0 || triangles.size() > kMaxInnerSphereTriangles ||
      !mesh_is_closed(vertices, triangles))
    return {};
  Vector3 low = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 high = -low;
  for (const auto& t : triangles)
    for (const int v : t) {
      low = low.cwiseMin(vertices[static_cast<std::size_t>(v)]);
      high = high.cwiseMax(vertices[static_cast<std::size_t>(v)]);
    }
  const Vector3 size = high - low;
  if (!(size.minCoeff() > 0.0)) return {};
  // Cubic cells, as many as the budget allows. The grid is offset by irrational fractions of a
  // cell so that no ray passes exactly through a vertex or along an edge of a designed part.
  int along = kMaxCellsAlong;
  std::array<int, 3> cells{};
  double cell = 0.0;
  for (;; --along) {
    cell = size.maxCoeff() / along;
    for (int a = 0; a < 3; ++a)
      cells[static_cast<std::size_t>(a)] = std::max(1, int(size[a] / cell));
    const double points = double(cells[0]) * cells[1] * cells[2];
    if (points * static_cast<double>(triangles.size()) <= kCandidateWork || along <= 2) break;
  }
  const Vector3 offset(0.5 + 0.0137 * std::numbers::sqrt2, 0.5 + 0.0113 * std::numbers::sqrt3,
                       0.5 + 0.0127 * std::numbers::pi / 3);
  struct Candidate {
    Vector3 center;
    double depth;
  };
  std::vector<Candidate> candidates;
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j) {
      const double y = low.y() + (j + offset.y()) * size.y() / cells[1];
      const double z = low.z() + (k + offset.z()) * size.z() / cells[2];
      const std::vector<double> crossings = crossings_along_x(vertices, triangles, y, z);
      for (int i = 0; i < cells[0]; ++i) {
        const double x = low.x() + (i + offset.x()) * size.x() / cells[0];
        const auto before = std::lower_bound(crossings.begin(), crossings.end(), x);
        if ((before - crossings.begin()) % 2 == 0) continue;  // outside by the ray's parity
        const Vector3 p(x, y, z);
        candidates.push_back({p, distance_to_surface(vertices, triangles, p)});
      }
    }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.depth > b.depth; });
  std::vector<InnerSphere> chosen;
  for (const Candidate& c : candidates) {
    if (chosen.size() == count) break;
    if (!chosen.empty() && c.depth < kSmallestUseful * chosen.front().radius) break;
    const bool covered = std::any_of(chosen.begin(), chosen.end(), [&](const InnerSphere& s) {
      return (s.center - c.center).norm() < s.radius;
    });
    if (covered) continue;
    // The ray's parity is confirmed by the winding number: a whole number other than 0.
    const double winding = winding_number(vertices, triangles, c.center);
    if (!(std::abs(winding - std::round(winding)) < 0.1 && std::round(winding) != 0.0)) continue;
    chosen.push_back({c.center, c.depth * (1.0 - 1e-9) - 1e-9});
  }
  return chosen;
}

}  // namespace kinetic
