// The cover is built top-down: all triangles of the body under one sphere, split at the median of
// their centroids along the widest axis while the sphere sticks out of the body's convex hull by
// more than the tolerance. A sphere is the bounding box's centre with the farthest vertex as
// radius: it holds its triangles whole (a ball holds a triangle when it holds its corners).
#include "engine/geometry/sphere_cover.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "engine/geometry/collision_mesh.hpp"

namespace kinetic {
namespace {

using Triangle = std::array<Vector3, 3>;

// Longer triangles are cut in four (at their edges' midpoints) so that clusters can be slices
// thinner than a long triangle. A large body (an industrial arm's 1.5 m link) is cut less finely,
// to about kPiecesBudget pieces: cut to 3 cm it made 200,000 and took most of a second to cover,
// where a large link's spheres are large anyway. Beyond kMaxTriangles the cover is not worth its
// build time.
constexpr double kLongestEdge = 0.03;  // m
constexpr double kPiecesBudget = 40000;
constexpr std::size_t kMaxTriangles = 200000;
constexpr int kCylinderSides = 16;
constexpr int kDirections = 96;

void add_box(const Vector3& size, const Pose& pose, std::vector<Triangle>& out) {
  const Vector3 h = size / 2.0;
  std::array<Vector3, 8> c;
  for (int i = 0; i < 8; ++i)
    c[static_cast<std::size_t>(i)] =
        pose *
        Vector3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  // Two triangles per face (the cover only needs the corners: any split of a face will do).
  constexpr int faces[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4},
                               {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    out.push_back({c[f[0]], c[f[1]], c[f[2]]});
    out.push_back({c[f[0]], c[f[2]], c[f[3]]});
  }
}

// A prism whose sides touch the cylinder: it holds the cylinder.
void add_cylinder(double radius, double length, const Pose& pose, std::vector<Triangle>& out) {
  const double r = radius / std::cos(std::numbers::pi / kCylinderSides);
  const double z = length / 2.0;
  const auto rim = [&](int i, double height) {
    const double a = 2.0 * std::numbers::pi * i / kCylinderSides;
    return pose * Vector3(r * std::cos(a), r * std::sin(a), height);
  };
  const Vector3 top = pose * Vector3(0, 0, z), bottom = pose * Vector3(0, 0, -z);
  for (int i = 0; i < kCylinderSides; ++i) {
    out.push_back({rim(i, -z), rim(i + 1, -z), rim(i + 1, z)});
    out.push_back({rim(i, -z), rim(i + 1, z), rim(i, z)});
    out.push_back({top, rim(i, z), rim(i + 1, z)});
    out.push_back({bottom, rim(i, -z), rim(i + 1, -z)});
  }
}

double longest_edge(const Triangle& t) {
  return std::max({(t[0] - t[1]).norm(), (t[1] - t[2]).norm(), (t[2] - t[0]).norm()});
}

// The shortest edge length, from kLongestEdge up, that cutting every triangle to keeps within
// kPiecesBudget pieces (each halving of a triangle's longest edge makes four of it).
double cut_length(const std::vector<Triangle>& triangles) {
  std::vector<double> longest;
  longest.reserve(triangles.size());
  for (const Triangle& t : triangles) longest.push_back(longest_edge(t));
  for (double edge = kLongestEdge;; edge *= 1.25) {
    double pieces = 0.0;
    for (double length : longest) {
      double piece = 1.0;
      for (double l = length; l > edge && piece < kPiecesBudget; l /= 2.0) piece *= 4.0;
      pieces += piece;
    }
    if (pieces <= kPiecesBudget || edge > 100.0) return edge;
  }
}

void subdivide(std::vector<Triangle>& triangles) {
  const double edge = cut_length(triangles);
  for (std::size_t i = 0; i < triangles.size() && triangles.size() < kMaxTriangles; ++i) {
    for (;;) {
      const Triangle t = triangles[i];
      if (!(longest_edge(t) > edge) || triangles.size() + 3 > kMaxTriangles) break;
      const Vector3 ab = (t[0] + t[1]) / 2.0, bc = (t[1] + t[2]) / 2.0, ca = (t[2] + t[0]) / 2.0;
      triangles[i] = {ab, bc, ca};
      triangles.push_back({t[0], ab, ca});
      triangles.push_back({ab, t[1], bc});
      triangles.push_back({ca, bc, t[2]});
    }
  }
}

// Unit directions spread over the sphere (a Fibonacci lattice).
std::vector<Vector3> directions() {
  std::vector<Vector3> out;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < kDirections; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / kDirections;
    const double r = std::sqrt(1.0 - z * z);
    out.emplace_back(r * std::cos(golden * i), r * std::sin(golden * i), z);
  }
  return out;
}

class CoverBuilder {
 public:
  // `extremes` are points whose hull is the geometry's (a mesh's hull vertices will do): the
  // geometry's extent along each direction is theirs.
  CoverBuilder(std::vector<Triangle> triangles, const std::vector<Vector3>& extremes,
               const SphereCoverOptions& options)
      : triangles_(std::move(triangles)), options_(options), directions_(directions()) {
    support_.assign(directions_.size(), -std::numeric_limits<double>::infinity());
    for (const Vector3& v : extremes)
      for (std::size_t d = 0; d < directions_.size(); ++d)
        support_[d] = std::max(support_[d], directions_[d].dot(v));
    order_.resize(triangles_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    centroids_.reserve(triangles_.size());
    for (const Triangle& t : triangles_) centroids_.push_back((t[0] + t[1] + t[2]) / 3.0);
  }

  SphereCover build() {
    if (!triangles_.empty()) split(0, order_.size(), ball(0, order_.size()));
    if (cover_.size() > options_.max_spheres) return {};
    return std::move(cover_);
  }

 private:
  struct Ball {
    Vector3 center;
    double radius;
    double sticks_out;  // beyond the body's hull, along the sampled directions
  };

  // How far the ball (center, radius) reaches beyond the body's hull along the sampled directions.
  double sticks_out(const Vector3& center, double radius) const {
    double out = 0.0;
    for (std::size_t d = 0; d < directions_.size(); ++d)
      out = std::max(out, directions_[d].dot(center) + radius - support_[d]);
    return out;
  }

  // The ball of triangles order_[begin, end): centred in their bounding box, or deeper inside the
  // body where that sticks out less. A patch of one side of the body (its triangles' normals
  // agree) held from its own plane sticks out by its radius; held from a centre moved inwards,
  // by much less (a 3 cm patch from 5 cm deep: 0.8 cm).
  Ball ball(std::size_t begin, std::size_t end) {
    Vector3 low = Vector3::Constant(std::numeric_limits<double>::infinity()), high = -low;
    Vector3 normal = Vector3::Zero();  // area-weighted, outwards for a mesh wound as usual
    for (std::size_t i = begin; i < end; ++i) {
      const Triangle& t = triangles_[order_[i]];
      for (const Vector3& v : t) {
        low = low.cwiseMin(v);
        high = high.cwiseMax(v);
      }
      normal += (t[1] - t[0]).cross(t[2] - t[0]);
    }
    const Vector3 box_center = (low + high) / 2.0;
    const bool has_normal = normal.norm() > 1e-12;
    const Vector3 inwards = has_normal ? Vector3(-normal.normalized()) : Vector3::Zero();
    // Every centre tried lies on the line box_center + s * inwards, where a vertex v is at
    // |v - c - s u|^2 = |v - c|^2 - 2 s u.(v - c) + s^2: one pass keeps each vertex's two terms
    // and each candidate centre is then a tight scan of them.
    squared_.clear();
    along_.clear();
    double farthest = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      for (const Vector3& v : triangles_[order_[i]]) {
        const Vector3 offset = v - box_center;
        squared_.push_back(offset.squaredNorm());
        along_.push_back(inwards.dot(offset));
        farthest = std::max(farthest, squared_.back());
      }
    double radius = std::sqrt(farthest);
    Ball best{box_center, radius, sticks_out(box_center, radius)};
    if (!has_normal) return best;
    for (const double depth : {0.25, 0.5, 1.0, 1.5, 2.0, 3.0}) {
      const double s = depth * best.radius;
      double worst = 0.0;
      for (std::size_t k = 0; k < squared_.size(); ++k)
        worst = std::max(worst, squared_[k] - 2.0 * s * along_[k]);
      // Rounding in the expanded form can shave ~1e-16 of s off: a nanometre back.
      radius = std::sqrt(std::max(0.0, worst + s * s)) + 1e-9;
      const Vector3 center = box_center + inwards * s;
      const double out = sticks_out(center, radius);
      if (out < best.sticks_out) best = {center, radius, out};
    }
    return best;
  }

  // Orders [begin, end) by the triangles' centroids along `axis` and splits at the median.
  std::size_t partition(std::size_t begin, std::size_t end, int axis) {
    const std::size_t middle = begin + (end - begin) / 2;
    const auto key = [&](std::size_t i) { return centroids_[i][axis]; };
    std::nth_element(order_.begin() + static_cast<std::ptrdiff_t>(begin),
                     order_.begin() + static_cast<std::ptrdiff_t>(middle),
                     order_.begin() + static_cast<std::ptrdiff_t>(end),
                     [&](std::size_t a, std::size_t b) {
                       // Ties broken by index: the halves are the same sets whatever the order
                       // was before, so a half's ball computed earlier stays its ball.
                       const double ka = key(a), kb = key(b);
                       return ka < kb || (ka == kb && a < b);
                     });
    return middle;
  }

  // `whole` is ball(begin, end), computed by the caller when it chose the split.
  void split(std::size_t begin, std::size_t end, const Ball& whole) {
    if (cover_.size() > options_.max_spheres) return;  // given up: stop early
    if (whole.sticks_out <= options_.tolerance || whole.radius <= options_.min_radius ||
        end - begin == 1) {
      accept(whole);
      return;
    }
    // The axis whose split leaves the halves sticking out least: a tube is cut into shorter
    // slices, each held by a sphere on its axis; cutting it lengthwise would put each half's
    // sphere on the wall, sticking out by half the tube's radius.
    int best_axis = 0;
    double best = std::numeric_limits<double>::infinity();
    Ball best_low{}, best_high{};
    for (int axis = 0; axis < 3; ++axis) {
      const std::size_t middle = partition(begin, end, axis);
      const Ball low = ball(begin, middle), high = ball(middle, end);
      const double worse = std::max(low.sticks_out, high.sticks_out);
      if (worse < best) {
        best = worse;
        best_axis = axis;
        best_low = low;
        best_high = high;
      }
    }
    const std::size_t middle = partition(begin, end, best_axis);
    split(begin, middle, best_low);
    split(middle, end, best_high);
  }

  void accept(const Ball& b) {
    cover_.centers.push_back(b.center);
    cover_.radii.push_back(b.radius);
  }

  std::vector<Triangle> triangles_;
  SphereCoverOptions options_;
  std::vector<Vector3> directions_;
  std::vector<double> support_;  // the geometry's extent along each direction
  std::vector<std::size_t> order_;
  std::vector<Vector3> centroids_;       // the triangles' (partition's keys)
  std::vector<double> squared_, along_;  // ball()'s scratch
  SphereCover cover_;
};

}  // namespace

SphereCover cover_with_spheres(const std::vector<PlacedShape>& shapes,
                               const SphereCoverOptions& options) {
  std::vector<Triangle> triangles;
  std::vector<Vector3> extremes;  // the hull of these is the geometry's hull
  SphereCover spheres;            // sphere primitives: themselves
  for (const PlacedShape& placed : shapes) {
    const Shape& shape = placed.shape;
    switch (shape.type) {
      case Shape::Type::HalfSpace:
        return {};
      case Shape::Type::Sphere:
        spheres.centers.push_back(placed.pose.translation());
        spheres.radii.push_back(shape.radius);
        break;
      case Shape::Type::Box:
      case Shape::Type::Cylinder: {
        const std::size_t first = triangles.size();
        if (shape.type == Shape::Type::Box)
          add_box(shape.box_size, placed.pose, triangles);
        else
          add_cylinder(shape.radius, shape.length, placed.pose, triangles);
        for (std::size_t i = first; i < triangles.size(); ++i)
          extremes.insert(extremes.end(), triangles[i].begin(), triangles[i].end());
        break;
      }
      case Shape::Type::Mesh:
        if (!placed.mesh || placed.mesh->triangles.size() > kMaxTriangles) return {};
        for (const Vector3& v : placed.mesh->hull.vertices.empty() ? placed.mesh->vertices
                                                                   : placed.mesh->hull.vertices)
          extremes.push_back(placed.pose * v);
        for (const auto& t : placed.mesh->triangles)
          triangles.push_back(
              {placed.pose * placed.mesh->vertices[static_cast<std::size_t>(t[0])],
               placed.pose * placed.mesh->vertices[static_cast<std::size_t>(t[1])],
               placed.pose * placed.mesh->vertices[static_cast<std::size_t>(t[2])]});
        break;
    }
  }
  const bool has_triangles = !triangles.empty();
  subdivide(triangles);
  SphereCover cover = CoverBuilder(std::move(triangles), extremes, options).build();
  if (has_triangles && cover.empty())
    return {};  // given up: a cover of the spheres alone would miss the rest
  cover.centers.insert(cover.centers.end(), spheres.centers.begin(), spheres.centers.end());
  cover.radii.insert(cover.radii.end(), spheres.radii.begin(), spheres.radii.end());
  if (cover.size() > options.max_spheres) return {};
  return cover;
}

}  // namespace kinetic
