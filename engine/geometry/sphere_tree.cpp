#include "engine/geometry/sphere_tree.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

// Elements one shape may be cut into. The cover stays conservative with larger elements (leaf
// spheres cover whatever they hold, and "colliding" is proven with points of the geometry, not the
// spheres), only coarser: so a shape that would need more (a 20 m floor slab in leaf-sized cells,
// 3e7 of them, ran out of memory; a mesh drawn in millimetres and read as metres took minutes)
// gets larger elements instead. Robot links stay far below it.
constexpr double kMaxElementsPerShape = 100000.0;
constexpr int kMaxSplitElements = 400000;  // hard cap where the estimate below misjudges slivers

// A piece of geometry covered by the convex hull of its points inflated by `inflate`, with
// `witnesses`: points that belong to the geometry.
struct Elements {
  std::vector<Vector3> points, witnesses;
  std::vector<int> point_begin{0}, witness_begin{0};
  std::vector<double> inflate;
  std::vector<Vector3> centroid;
  bool all_triangles = true;  // every element is a (piece of a) mesh triangle

  void add(const std::vector<Vector3>& pts, double inflation, const std::vector<Vector3>& wit) {
    Vector3 sum = Vector3::Zero();
    for (const auto& p : pts) {
      points.push_back(p);
      sum += p;
    }
    for (const auto& w : wit) witnesses.push_back(w);
    point_begin.push_back(static_cast<int>(points.size()));
    witness_begin.push_back(static_cast<int>(witnesses.size()));
    inflate.push_back(inflation);
    centroid.push_back(sum / static_cast<double>(pts.size()));
  }
  int size() const { return static_cast<int>(inflate.size()); }
};

void add_triangle(Elements& out, const Vector3& a, const Vector3& b, const Vector3& c,
                  double max_edge, int depth) {
  const double ab = (b - a).squaredNorm(), bc = (c - b).squaredNorm(), ca = (a - c).squaredNorm();
  const double longest = std::max({ab, bc, ca});
  // Split the longest edge until the triangle is small enough to sit in one leaf. A degenerate
  // triangle (two corners at one point) keeps an edge as long as its own in one half at every
  // split: capped by the shape's element budget, past which pieces stay as they are (their leaves
  // are larger, the cover still whole). 1,000 such slivers ran out of memory.
  if (longest > max_edge * max_edge && depth < 24 && out.size() < kMaxSplitElements) {
    if (longest == ab) {
      const Vector3 m = 0.5 * (a + b);
      add_triangle(out, a, m, c, max_edge, depth + 1);
      add_triangle(out, m, b, c, max_edge, depth + 1);
    } else if (longest == bc) {
      const Vector3 m = 0.5 * (b + c);
      add_triangle(out, a, b, m, max_edge, depth + 1);
      add_triangle(out, a, m, c, max_edge, depth + 1);
    } else {
      const Vector3 m = 0.5 * (c + a);
      add_triangle(out, a, b, m, max_edge, depth + 1);
      add_triangle(out, m, b, c, max_edge, depth + 1);
    }
    return;
  }
  out.add({a, b, c}, 0.0, {a, b, c});
}

// The longest edge mesh triangles are cut down to: `leaf`, or longer where the pieces would exceed
// kMaxElementsPerShape (estimated: a triangle cut to edges of e leaves pieces of about e^2 / 8).
double mesh_piece_edge(const CollisionMesh& mesh, double leaf) {
  double area = 0.0;
  for (const auto& t : mesh.triangles)
    area += 0.5 * (mesh.vertices[t[1]] - mesh.vertices[t[0]])
                      .cross(mesh.vertices[t[2]] - mesh.vertices[t[0]])
                      .norm();
  const double pieces = static_cast<double>(mesh.triangles.size()) + 8.0 * area / (leaf * leaf);
  if (pieces <= kMaxElementsPerShape) return leaf;
  return leaf * std::sqrt(pieces / kMaxElementsPerShape);
}

void add_solid(Elements& out, const std::vector<Vector3>& pts, double inflation,
               const std::vector<Vector3>& witnesses) {
  out.all_triangles = false;
  out.add(pts, inflation, witnesses);
}

// Cells per axis of a primitive's bounding box (half extents `half`) cut into cells of at most
// `cell`.
Eigen::Vector3i cell_counts(const Vector3& half, double cell) {
  Eigen::Vector3i count;
  for (int i = 0; i < 3; ++i)
    count[i] = std::max(1, static_cast<int>(std::min(1e9, std::ceil(2.0 * half[i] / cell - 1e-9))));
  return count;
}

// Tiles the primitive's local bounding box with cells no larger than `cell` (larger where that
// would exceed kMaxElementsPerShape); keeps the cells that touch the solid. A cell is covered by
// the hull of its corners.
void add_primitive_cells(Elements& out, const Shape& shape, const Pose& pose, double cell) {
  Vector3 half;
  if (shape.type == Shape::Type::Box) {
    half = 0.5 * shape.box_size;
  } else {
    half = Vector3(shape.radius, shape.radius, 0.5 * shape.length);
  }
  Eigen::Vector3i count = cell_counts(half, cell);
  for (double cells = count.cast<double>().prod(); cells > kMaxElementsPerShape;
       cells = count.cast<double>().prod()) {
    cell *= std::max(1.01, std::cbrt(cells / kMaxElementsPerShape));
    count = cell_counts(half, cell);
  }
  const Vector3 step = (2.0 * half).cwiseQuotient(count.cast<double>());
  std::vector<Vector3> corners(8);
  for (int ix = 0; ix < count.x(); ++ix)
    for (int iy = 0; iy < count.y(); ++iy)
      for (int iz = 0; iz < count.z(); ++iz) {
        const Vector3 lo = -half + Vector3(ix * step.x(), iy * step.y(), iz * step.z());
        const Vector3 hi = lo + step;
        const Vector3 center = 0.5 * (lo + hi);
        Vector3 witness = center;
        if (shape.type == Shape::Type::Cylinder) {
          // Closest point of the rectangle [lo, hi] (xy) to the axis decides whether the cell
          // touches the disc.
          const Eigen::Vector2d nearest(std::clamp(0.0, lo.x(), hi.x()),
                                        std::clamp(0.0, lo.y(), hi.y()));
          if (nearest.norm() > shape.radius) continue;
          const Eigen::Vector2d radial = center.head<2>();
          if (radial.norm() > shape.radius) witness.head<2>() = radial.normalized() * shape.radius;
        }
        int k = 0;
        for (int cx = 0; cx < 2; ++cx)
          for (int cy = 0; cy < 2; ++cy)
            for (int cz = 0; cz < 2; ++cz)
              corners[k++] =
                  pose * Vector3(cx ? hi.x() : lo.x(), cy ? hi.y() : lo.y(), cz ? hi.z() : lo.z());
        add_solid(out, corners, 0.0, {pose * witness});
      }
}

class Builder {
 public:
  Builder(const Elements& elements, double leaf) : e_(elements), leaf_(leaf) {
    order_.resize(e_.size());
    for (int i = 0; i < e_.size(); ++i) order_[i] = i;
  }

  std::vector<SphereNode> build(int& depth) {
    nodes_.emplace_back();
    make(0, 0, e_.size(), 1, depth);
    return std::move(nodes_);
  }

  // Triangles in leaf order (a leaf's range in order_ is its range of triangles).
  std::vector<TreeTriangle> triangles() const {
    std::vector<TreeTriangle> out;
    out.reserve(order_.size());
    for (const int el : order_) {
      const Vector3* p = &e_.points[e_.point_begin[el]];
      TreeTriangle t{p[0], p[1], p[2], (p[0] + p[1] + p[2]) / 3.0, 0.0};
      for (int k = 0; k < 3; ++k) t.radius = std::max(t.radius, (p[k] - t.center).norm());
      t.radius = std::nextafter(t.radius * (1.0 + 1e-12), INFINITY);
      out.push_back(t);
    }
    return out;
  }

 private:
  void make(int node, int begin, int end, int level, int& depth) {
    depth = std::max(depth, level);
    Eigen::AlignedBox3d box, centroids;
    for (int i = begin; i < end; ++i) {
      const int el = order_[i];
      for (int p = e_.point_begin[el]; p < e_.point_begin[el + 1]; ++p) {
        box.extend(e_.points[p] - Vector3::Constant(e_.inflate[el]));
        box.extend(e_.points[p] + Vector3::Constant(e_.inflate[el]));
      }
      centroids.extend(e_.centroid[el]);
    }
    SphereNode sphere;
    sphere.center = box.center();
    sphere.anchor = std::numeric_limits<double>::infinity();
    for (int i = begin; i < end; ++i) {
      const int el = order_[i];
      for (int p = e_.point_begin[el]; p < e_.point_begin[el + 1]; ++p)
        sphere.radius =
            std::max(sphere.radius, (e_.points[p] - sphere.center).norm() + e_.inflate[el]);
      for (int w = e_.witness_begin[el]; w < e_.witness_begin[el + 1]; ++w)
        sphere.anchor = std::min(sphere.anchor, (e_.witnesses[w] - sphere.center).norm());
    }
    // Rounding must never make a sphere smaller than its geometry.
    sphere.radius = std::nextafter(sphere.radius * (1.0 + 1e-12), INFINITY);
    sphere.first_triangle = begin;
    sphere.end_triangle = end;
    nodes_[node] = sphere;
    if (end - begin <= 1 || sphere.radius <= leaf_) return;

    int axis = 0;
    centroids.sizes().maxCoeff(&axis);
    const int mid = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                     [&](int a, int b) { return e_.centroid[a][axis] < e_.centroid[b][axis]; });
    const int first = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    nodes_.emplace_back();
    nodes_[node].first_child = first;
    make(first, begin, mid, level + 1, depth);
    make(first + 1, mid, end, level + 1, depth);
  }

  const Elements& e_;
  double leaf_;
  std::vector<int> order_;
  std::vector<SphereNode> nodes_;
};

}  // namespace

double leaf_radius(SphereResolution resolution) {
  switch (resolution) {
    case SphereResolution::Coarse:
      return 0.06;
    case SphereResolution::Default:
      return 0.03;
    case SphereResolution::Fine:
      return 0.015;
  }
  return 0.03;
}

const char* to_string(SphereResolution resolution) {
  switch (resolution) {
    case SphereResolution::Coarse:
      return "coarse";
    case SphereResolution::Default:
      return "default";
    case SphereResolution::Fine:
      return "fine";
  }
  return "default";
}

SphereTree SphereTree::build(const std::vector<PlacedShape>& shapes, SphereResolution resolution) {
  const double leaf = leaf_radius(resolution);
  Elements elements;
  for (const auto& placed : shapes) {
    const Shape& shape = placed.shape;
    switch (shape.type) {
      case Shape::Type::Sphere:
        add_solid(elements, {placed.pose.translation()}, shape.radius, {placed.pose.translation()});
        break;
      case Shape::Type::Box:
      case Shape::Type::Cylinder:
        // Cells about as large as a leaf sphere's diameter keep the cover within a leaf radius.
        add_primitive_cells(elements, shape, placed.pose, leaf);
        break;
      case Shape::Type::Mesh: {
        if (!placed.mesh)
          throw Error(ErrorCode::MissingMesh, "sphere model: mesh not loaded: " + shape.mesh_path);
        const auto& v = placed.mesh->vertices;
        const double edge = mesh_piece_edge(*placed.mesh, leaf);
        for (const auto& t : placed.mesh->triangles)
          add_triangle(elements, placed.pose * v[t[0]], placed.pose * v[t[1]],
                       placed.pose * v[t[2]], edge, 0);
        break;
      }
      case Shape::Type::HalfSpace:
        throw Error(ErrorCode::Unsupported, "sphere model: a half-space has no finite cover");
    }
  }
  SphereTree tree;
  if (elements.size() == 0) return tree;
  Builder builder(elements, leaf);
  tree.nodes_ = builder.build(tree.depth_);
  if (elements.all_triangles) tree.triangles_ = builder.triangles();
  return tree;
}

std::vector<Sphere> SphereTree::leaves() const {
  std::vector<Sphere> out;
  for (const auto& node : nodes_)
    if (node.leaf()) out.push_back({node.center, node.radius});
  return out;
}

}  // namespace kinetic
