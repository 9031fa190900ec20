#include "engine/collision/leaf_exact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/geometry/convex_distance.hpp"
#include "engine/geometry/primitive_distance.hpp"
#include "engine/geometry/relative_pose.hpp"

namespace kinetic {
namespace {

constexpr int kStackSize = 256;

inline bool within(double distance, double padding) {
  return padding > 0.0 ? distance < padding : distance <= 0.0;
}

// --- solid primitives against each other ------------------------------------------------------

// Lower bound on the gap between two posed primitives: a's bounding sphere against b itself.
double primitive_gap_bound(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Vector3 a_center_in_b = pb.inverse() * pa.translation();
  return solid_point_distance(b, a_center_in_b) - bounding_radius(a);
}

// --- mesh against mesh, in a's body frame ---------------------------------------------------

struct TreePair {
  const SphereTree& a;
  const SphereTree& b;
  RelativePose b_in_a;
};

// Calls visit(triangle of a, triangle of b mapped into a's frame) for every triangle pair of two
// leaves whose bounding spheres are within `reach()` (re-read after each visit: distance queries
// shrink it). Stops early when visit returns true.
template <class Reach, class Visit>
bool for_close_triangles(const TreePair& t, const SphereNode& na, const SphereNode& nb,
                         const Reach& reach, const Visit& visit) {
  const auto& ta = t.a.triangles();
  const auto& tb = t.b.triangles();
  const Vector3 nb_center = t.b_in_a(nb.center);
  for (int i = na.first_triangle; i < na.end_triangle; ++i) {
    const TreeTriangle& p = ta[i];
    if ((p.center - nb_center).norm() - p.radius - nb.radius >= reach()) continue;
    for (int j = nb.first_triangle; j < nb.end_triangle; ++j) {
      const TreeTriangle& q = tb[j];
      const Vector3 q_center = t.b_in_a(q.center);
      if ((p.center - q_center).norm() - p.radius - q.radius >= reach()) continue;
      // Tighter and still cheap: q's sphere against triangle p itself.
      if ((closest_point_on_triangle(q_center, p.a, p.b, p.c) - q_center).norm() - q.radius >=
          reach())
        continue;
      const Vector3 pa[3] = {p.a, p.b, p.c};
      const Vector3 qa[3] = {t.b_in_a(q.a), t.b_in_a(q.b), t.b_in_a(q.c)};
      if (visit(pa, qa)) return true;
    }
  }
  return false;
}

// Depth first over the node pairs whose sphere gap is below limit() (re-read at every pair:
// distance searches shrink it), the nearer child pair first. leaf(na, nb) handles a pair that is
// not split further and returns true to stop the walk.
template <class Limit, class Leaf>
bool walk_node_pairs(const TreePair& t, const Limit& limit, const Leaf& leaf) {
  const SphereNode* A = t.a.nodes().data();
  const SphereNode* B = t.b.nodes().data();
  const auto gap = [&](int ia, int ib) {
    return (A[ia].center - t.b_in_a(B[ib].center)).norm() - A[ia].radius - B[ib].radius;
  };
  std::array<std::pair<int, int>, kStackSize> stack;
  int top = 0;
  stack[top++] = {0, 0};
  while (top > 0) {
    const auto [ia, ib] = stack[--top];
    const SphereNode& na = A[ia];
    const SphereNode& nb = B[ib];
    if (gap(ia, ib) >= limit()) continue;
    if ((na.leaf() && nb.leaf()) || top + 2 > kStackSize) {
      if (leaf(na, nb)) return true;
      continue;
    }
    const bool split_a = nb.leaf() || (!na.leaf() && na.radius >= nb.radius);
    std::pair<int, int> first =
        split_a ? std::pair{na.first_child, ib} : std::pair{ia, nb.first_child};
    std::pair<int, int> second =
        split_a ? std::pair{na.first_child + 1, ib} : std::pair{ia, nb.first_child + 1};
    if (gap(second.first, second.second) < gap(first.first, first.second)) std::swap(first, second);
    stack[top++] = second;
    stack[top++] = first;
  }
  return false;
}

// A probe's attained distance from one triangle pair of two leaves: a's piece nearest to b's
// leaf centre, and b's piece nearest to that one (by centres: no square root). Measuring every
// pair of the leaves instead (before anything bounds them) cost as much as the exact search the
// probe is meant to speed up.
template <class Visit>
void probe_leaf_pair(const TreePair& t, const SphereNode& na, const SphereNode& nb,
                     const Visit& visit) {
  const auto& ta = t.a.triangles();
  const auto& tb = t.b.triangles();
  if (na.first_triangle >= na.end_triangle || nb.first_triangle >= nb.end_triangle) return;
  const auto nearest = [](const std::vector<TreeTriangle>& pieces, int first, int end,
                          const Vector3& to) {
    int pick = first;
    double pick_d2 = std::numeric_limits<double>::infinity();
    for (int i = first; i < end; ++i)
      if (const double d2 = (pieces[i].center - to).squaredNorm(); d2 < pick_d2) {
        pick_d2 = d2;
        pick = i;
      }
    return pick;
  };
  const TreeTriangle& p = ta[nearest(ta, na.first_triangle, na.end_triangle, t.b_in_a(nb.center))];
  const Vector3 p_in_b = t.b_in_a.rotation.transpose() * (p.center - t.b_in_a.translation);
  const TreeTriangle& q = tb[nearest(tb, nb.first_triangle, nb.end_triangle, p_in_b)];
  const Vector3 pa[3] = {p.a, p.b, p.c};
  const Vector3 qa[3] = {t.b_in_a(q.a), t.b_in_a(q.b), t.b_in_a(q.c)};
  visit(pa, qa);
}

bool mesh_mesh_collision(const SphereTree& ta, const Pose& pa, const SphereTree& tb, const Pose& pb,
                         double padding) {
  const TreePair t{ta, tb, RelativePose(pa, pb)};
  // Strictly farther than padding is free: test gaps against the next double above padding.
  const double reach = std::nextafter(padding, INFINITY);
  const auto limit = [&] { return reach; };
  const auto visit = [&](const Vector3(&p)[3], const Vector3(&q)[3]) {
    return within(triangle_triangle_distance(p, q).distance, padding);
  };
  return walk_node_pairs(t, limit, [&](const SphereNode& na, const SphereNode& nb) {
    return for_close_triangles(t, na, nb, limit, visit);
  });
}

// A separating direction for two meshes, from the closest pair found so far: for any unit n
// (pointing from b towards a), |x - y| >= n.x - n.y for x in a and y in b. At the closest pair
// of two convex pieces of surface every other piece pair lies beyond this slab, so a piece
// pair's bound from its vertices prunes the pairs facing each other across the gap, which
// sphere bounds cannot (a piece's sphere is as wide as the piece, the slab is as thin as the
// surface). Any direction gives a valid bound; a later, better pair only sharpens it.
struct MeshSlab {
  bool known = false;
  Vector3 normal_a = Vector3::Zero();  // in a's frame
  Vector3 normal_b = Vector3::Zero();  // the same direction in b's frame
  double shift = 0.0;                  // normal_a . (b's origin in a's frame)
  void set(const RelativePose& b_in_a, const Vector3& point_a, const Vector3& point_b,
           double distance) {
    if (!(distance > 0.0)) return;
    normal_a = (point_a - point_b) / distance;
    normal_b = b_in_a.rotation.transpose() * normal_a;
    shift = normal_a.dot(b_in_a.translation);
    known = true;
  }
  double low_a(const TreeTriangle& p) const {  // lowest projection of a piece of a
    return std::min({normal_a.dot(p.a), normal_a.dot(p.b), normal_a.dot(p.c)});
  }
  double high_b(const TreeTriangle& q) const {  // highest projection of a piece of b
    return std::max({normal_b.dot(q.a), normal_b.dot(q.b), normal_b.dot(q.c)}) + shift;
  }
};

// Every piece pair of two leaves that could hold a distance below best: slab bounds first (one
// subtraction per pair, projections computed once per leaf pair), then the spheres, then the
// sphere of b's piece against a's triangle, then the exact triangle distance.
void measure_leaf_pair(const TreePair& t, const SphereNode& na, const SphereNode& nb,
                       const Pose& pa, MeshSlab& slab, LeafDistance& best) {
  const auto& ta = t.a.triangles();
  const auto& tb = t.b.triangles();
  if (!slab.known) {
    // A direction first, from the leaves' nearest-looking piece pair, even when that pair is no
    // closer than the best so far: without one, a search that finds nothing below its cutoff
    // (a pair farther than another pair's distance) has only sphere bounds to prune with.
    probe_leaf_pair(t, na, nb, [&](const Vector3(&p)[3], const Vector3(&q)[3]) {
      const ConvexDistance d = triangle_triangle_distance(p, q);
      slab.set(t.b_in_a, d.point_a, d.point_b, d.distance);
      if (d.distance < best.pair.distance) {
        best.pair = {d.distance, pa * d.point_a, pa * d.point_b};
        best.found = true;
      }
    });
  }
  thread_local std::vector<double> low_a, high_b;
  const int count_a = na.end_triangle - na.first_triangle,
            count_b = nb.end_triangle - nb.first_triangle;
  const bool slab_known = slab.known;  // (projections under this leaf pair's direction)
  double highest_b = -std::numeric_limits<double>::infinity();
  if (slab_known) {
    low_a.resize(static_cast<std::size_t>(count_a));
    high_b.resize(static_cast<std::size_t>(count_b));
    double lowest_a = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_a; ++i)
      lowest_a = std::min(lowest_a, low_a[i] = slab.low_a(ta[na.first_triangle + i]));
    for (int j = 0; j < count_b; ++j)
      highest_b = std::max(highest_b, high_b[j] = slab.high_b(tb[nb.first_triangle + j]));
    if (lowest_a - highest_b >= best.pair.distance) return;
  }
  const Vector3 nb_center = t.b_in_a(nb.center);
  for (int i = 0; i < count_a; ++i) {
    const TreeTriangle& p = ta[na.first_triangle + i];
    if (slab_known && low_a[i] - highest_b >= best.pair.distance) continue;
    if ((p.center - nb_center).norm() - p.radius - nb.radius >= best.pair.distance) continue;
    for (int j = 0; j < count_b; ++j) {
      if (slab_known && low_a[i] - high_b[j] >= best.pair.distance) continue;
      const TreeTriangle& q = tb[nb.first_triangle + j];
      const Vector3 q_center = t.b_in_a(q.center);
      if ((p.center - q_center).norm() - p.radius - q.radius >= best.pair.distance) continue;
      if ((closest_point_on_triangle(q_center, p.a, p.b, p.c) - q_center).norm() - q.radius >=
          best.pair.distance)
        continue;
      const Vector3 pv[3] = {p.a, p.b, p.c};
      const Vector3 qv[3] = {t.b_in_a(q.a), t.b_in_a(q.b), t.b_in_a(q.c)};
      const ConvexDistance d = triangle_triangle_distance(pv, qv);
      if (d.distance < best.pair.distance) {
        best.pair = {d.distance, pa * d.point_a, pa * d.point_b};
        best.found = true;
        slab.set(t.b_in_a, d.point_a, d.point_b, d.distance);
      }
    }
  }
}

void mesh_mesh_distance(const SphereTree& ta, const Pose& pa, const SphereTree& tb, const Pose& pb,
                        bool first_leaf_only, LeafDistance& best) {
  const TreePair t{ta, tb, RelativePose(pa, pb)};
  const auto limit = [&] { return best.pair.distance; };
  MeshSlab slab;
  walk_node_pairs(t, limit, [&](const SphereNode& na, const SphereNode& nb) {
    if (first_leaf_only) {
      const auto visit = [&](const Vector3(&p)[3], const Vector3(&q)[3]) {
        const ConvexDistance d = triangle_triangle_distance(p, q);
        if (d.distance < best.pair.distance) {
          best.pair = {d.distance, pa * d.point_a, pa * d.point_b};
          best.found = true;
        }
      };
      probe_leaf_pair(t, na, nb, visit);
      return true;  // a probe stops after the first leaf pair
    }
    measure_leaf_pair(t, na, nb, pa, slab, best);
    return best.pair.distance <= 0.0;  // touching: nothing is closer
  });
}

// --- mesh against a primitive, in the primitive's frame --------------------------------------

struct TreeInPrimitive {
  const SphereTree& tree;
  const Shape& shape;
  RelativePose tree_in_shape;
  // Lower bound on the gap of a node's geometry: the cached separating plane (one dot product in
  // the tree's own frame) when it already decides, else the distance from the node's sphere to
  // the primitive.
  double node_gap(const SphereNode& n, double enough) const {
    if (has_plane) {
      const double beyond_plane = tree_normal.dot(n.center) + plane_shift - n.radius;
      if (beyond_plane >= enough) return beyond_plane;
    }
    return solid_point_distance(shape, tree_in_shape(n.center)) - n.radius;
  }
  // The same for one piece's bounding sphere.
  double triangle_gap(const TreeTriangle& t, double enough) const {
    if (has_plane) {
      const double beyond_plane = tree_normal.dot(t.center) + plane_shift - t.radius;
      if (beyond_plane >= enough) return beyond_plane;
    }
    return solid_point_distance(shape, tree_in_shape(t.center)) - t.radius;
  }
  // Exact distance of one piece, or only a lower bound >= stop_at_or_above when the last
  // separating plane found already keeps the piece that far away (neighbouring pieces usually
  // share it, so most pieces near a primitive need no GJK at all). Points in the primitive frame.
  ConvexDistance exact(const TreeTriangle& t, double stop_at_or_above, double stop_below) {
    if (has_plane) {
      ConvexDistance far;
      far.lower_bound =
          std::min({tree_normal.dot(t.a), tree_normal.dot(t.b), tree_normal.dot(t.c)}) +
          plane_shift;
      far.distance = std::numeric_limits<double>::infinity();
      if (far.lower_bound >= stop_at_or_above) return far;
    }
    const Vector3 a = tree_in_shape(t.a), b = tree_in_shape(t.b), c = tree_in_shape(t.c);
    const ConvexDistance d =
        triangle_primitive_distance(a, b, c, shape, stop_at_or_above, stop_below);
    if (d.distance > 0.0) {
      const Vector3 normal = (d.point_a - d.point_b) / d.distance;
      // The plane n.x = extent (primitive frame) in the tree's frame: n.(R p + t) - extent.
      tree_normal = tree_in_shape.rotation.transpose() * normal;
      plane_shift = normal.dot(tree_in_shape.translation) - support_extent(shape, normal);
      has_plane = true;
    }
    return d;
  }

  bool has_plane = false;
  // A separating plane, unit normal from the primitive towards the mesh, in the tree's frame:
  // tree_normal.p + plane_shift is how far beyond the primitive's reach a tree point lies.
  Vector3 tree_normal = Vector3::Zero();
  double plane_shift = 0.0;
};

bool mesh_primitive_collision(const SphereTree& tree, const Pose& pose, const FclPart& part,
                              const Pose& part_pose, double padding) {
  TreeInPrimitive t{tree, part.shape, RelativePose(part_pose, pose)};
  const double reach = std::nextafter(padding, INFINITY);
  const SphereNode* nodes = tree.nodes().data();
  const auto& triangles = tree.triangles();
  // Nodes are tested when pushed and the nearer child is explored first: the first exact pieces
  // are then the closest ones, and the separating plane they leave keeps most of the remaining
  // nodes away with one dot product each (a lower bound from an older plane stays valid).
  if (t.node_gap(nodes[0], reach) >= reach) return false;
  std::array<int, kStackSize> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const SphereNode& n = nodes[stack[--top]];
    if (n.leaf() || top + 2 > kStackSize) {
      for (int i = n.first_triangle; i < n.end_triangle; ++i)
        if (t.triangle_gap(triangles[i], reach) < reach &&
            within(t.exact(triangles[i], reach, padding).lower_bound, padding))
          return true;
      continue;
    }
    int near = n.first_child, far = n.first_child + 1;
    double near_gap = t.node_gap(nodes[near], reach), far_gap = t.node_gap(nodes[far], reach);
    if (far_gap < near_gap) {
      std::swap(near, far);
      std::swap(near_gap, far_gap);
    }
    if (far_gap < reach) stack[top++] = far;
    if (near_gap < reach) stack[top++] = near;
  }
  return false;
}

// Orders points by nearness to a primitive without a square root: the squared distance to its
// core (the box itself, the cylinder's axis segment, the sphere's centre). Only for picking.
double core_rank(const Shape& shape, const Vector3& p) {
  switch (shape.type) {
    case Shape::Type::Box:
      return (p - p.cwiseMax(-0.5 * shape.box_size).cwiseMin(0.5 * shape.box_size)).squaredNorm();
    case Shape::Type::Cylinder: {
      const double axial = std::max(std::abs(p.z()) - 0.5 * shape.length, 0.0);
      return p.x() * p.x() + p.y() * p.y() + axial * axial;
    }
    default:
      return p.squaredNorm();
  }
}

void mesh_primitive_distance(const SphereTree& tree, const Pose& pose, const FclPart& part,
                             const Pose& part_pose, bool tree_is_a, bool first_leaf_only,
                             LeafDistance& best) {
  TreeInPrimitive t{tree, part.shape, RelativePose(part_pose, pose)};
  const SphereNode* nodes = tree.nodes().data();
  const auto& triangles = tree.triangles();
  // Nodes are measured once, when pushed (their gap stays a valid lower bound as the best
  // distance shrinks), the nearer child explored first.
  struct Entry {
    int node;
    double gap;
  };
  std::array<Entry, kStackSize> stack;
  int top = 0;
  stack[top++] = {0, t.node_gap(nodes[0], best.pair.distance)};
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.gap >= best.pair.distance) continue;
    const SphereNode& n = nodes[e.node];
    if (first_leaf_only && n.leaf()) {
      // A probe measures one piece: the one whose centre is nearest the primitive's core.
      int pick = -1;
      double pick_rank = std::numeric_limits<double>::infinity();
      for (int i = n.first_triangle; i < n.end_triangle; ++i)
        if (const double rank = core_rank(t.shape, t.tree_in_shape(triangles[i].center));
            rank < pick_rank) {
          pick_rank = rank;
          pick = i;
        }
      if (pick < 0) return;
      const ConvexDistance d = t.exact(triangles[pick], best.pair.distance, 0.0);
      if (d.lower_bound < best.pair.distance && d.distance < best.pair.distance) {
        const Vector3 on_mesh = part_pose * d.point_a, on_shape = part_pose * d.point_b;
        best.pair = {d.distance, tree_is_a ? on_mesh : on_shape, tree_is_a ? on_shape : on_mesh};
        best.found = true;
      }
      return;
    }
    if (n.leaf() || top + 2 > kStackSize) {
      for (int i = n.first_triangle; i < n.end_triangle; ++i) {
        if (t.triangle_gap(triangles[i], best.pair.distance) >= best.pair.distance) continue;
        const ConvexDistance d = t.exact(triangles[i], best.pair.distance, 0.0);
        if (d.lower_bound >= best.pair.distance || d.distance >= best.pair.distance) continue;
        const Vector3 on_mesh = part_pose * d.point_a, on_shape = part_pose * d.point_b;
        best.pair = {d.distance, tree_is_a ? on_mesh : on_shape, tree_is_a ? on_shape : on_mesh};
        best.found = true;
        if (d.distance <= 0.0) return;  // touching: nothing is closer
      }
      if (first_leaf_only) return;
      continue;
    }
    Entry near{n.first_child, t.node_gap(nodes[n.first_child], best.pair.distance)};
    Entry far{n.first_child + 1, t.node_gap(nodes[n.first_child + 1], best.pair.distance)};
    if (far.gap < near.gap) std::swap(near, far);
    if (far.gap < best.pair.distance) stack[top++] = far;
    if (near.gap < best.pair.distance) stack[top++] = near;
  }
}

// A mesh body and a body of solid primitives, whichever order they came in.
struct MixedPair {
  bool mesh_is_a;
  const CollisionBody& mesh;
  const Pose& mesh_pose;
  const CollisionBody& solids;
  const Pose& solids_pose;
  MixedPair(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b, const Pose& pose_b)
      : mesh_is_a(a.tree.has_triangles()),
        mesh(mesh_is_a ? a : b),
        mesh_pose(mesh_is_a ? pose_a : pose_b),
        solids(mesh_is_a ? b : a),
        solids_pose(mesh_is_a ? pose_b : pose_a) {}
};

}  // namespace

bool leaf_exact_supported(const CollisionBody& a, const CollisionBody& b) {
  return (a.simple_primitives || a.tree.has_triangles()) &&
         (b.simple_primitives || b.tree.has_triangles());
}

namespace {
// The gap between two primitive parts' bounding spheres, from their centres alone: a part pair
// that ends here needs neither of its whole poses (two 4x4 products). -inf where a part has no
// bounding sphere (a half-space).
bool bounded(const Shape& shape) {
  return shape.type == Shape::Type::Box || shape.type == Shape::Type::Cylinder ||
         shape.type == Shape::Type::Sphere;
}
double bounding_spheres_gap(const FclPart& pa, const Pose& pose_a, const FclPart& pb,
                            const Pose& pose_b) {
  if (!bounded(pa.shape) || !bounded(pb.shape)) return -std::numeric_limits<double>::infinity();
  return (pose_a * pa.pose.translation() - pose_b * pb.pose.translation()).norm() - pa.radius -
         pb.radius;
}
}  // namespace

bool leaf_exact_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                          const Pose& pose_b, double padding) {
  if (a.tree.has_triangles() && b.tree.has_triangles())
    return mesh_mesh_collision(a.tree, pose_a, b.tree, pose_b, padding);
  if (!a.tree.has_triangles() && !b.tree.has_triangles()) {
    const double reach = std::nextafter(padding, INFINITY);
    for (const auto& pa : a.parts)
      for (const auto& pb : b.parts) {
        if (bounding_spheres_gap(pa, pose_a, pb, pose_b) >= reach) continue;
        const Pose wa = pose_a * pa.pose, wb = pose_b * pb.pose;
        if (primitive_gap_bound(pa.shape, wa, pb.shape, wb) >= reach) continue;
        if (within(primitive_distance(pa.shape, wa, pb.shape, wb, reach, padding).lower_bound,
                   padding))
          return true;
      }
    return false;
  }
  const MixedPair m(a, pose_a, b, pose_b);
  for (const auto& part : m.solids.parts)
    if (mesh_primitive_collision(m.mesh.tree, m.mesh_pose, part, m.solids_pose * part.pose,
                                 padding))
      return true;
  return false;
}

bool solid_parts_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                           const Pose& pose_b, double base_padding,
                           const std::vector<SolidPartPair>& pairs, const double* extra) {
  constexpr double kConstantSlack = 1e-9;  // m: GJK's answer at another pose may differ by rounding
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const SolidPartPair& pair = pairs[i];
    const double padding = extra ? base_padding + extra[i] : base_padding;
    if (pair.constant_distance > padding + kConstantSlack) continue;
    const FclPart& pa = a.parts[static_cast<std::size_t>(pair.a)];
    const FclPart& pb = b.parts[static_cast<std::size_t>(pair.b)];
    // The parts' bounding spheres first: their whole poses are needed only when those are near.
    if ((pose_a * pa.pose.translation() - pose_b * pb.pose.translation()).norm() - pair.radii >
        padding)
      continue;
    const Pose wa = pose_a * pa.pose, wb = pose_b * pb.pose;
    if (primitive_gap_bound(pa.shape, wa, pb.shape, wb) > padding) continue;
    if (within(primitive_distance(pa.shape, wa, pb.shape, wb, std::nextafter(padding, INFINITY),
                                  padding)
                   .lower_bound,
               padding))
      return true;
  }
  return false;
}

LeafDistance leaf_exact_distance(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                                 const Pose& pose_b, double cutoff, bool probe) {
  LeafDistance best;
  best.pair.distance = cutoff;
  if (a.tree.has_triangles() && b.tree.has_triangles()) {
    mesh_mesh_distance(a.tree, pose_a, b.tree, pose_b, probe, best);
    return best;
  }
  if (!a.tree.has_triangles() && !b.tree.has_triangles()) {
    for (const auto& pa : a.parts)
      for (const auto& pb : b.parts) {
        if (bounding_spheres_gap(pa, pose_a, pb, pose_b) >= best.pair.distance) continue;
        const Pose wa = pose_a * pa.pose, wb = pose_b * pb.pose;
        if (primitive_gap_bound(pa.shape, wa, pb.shape, wb) >= best.pair.distance) continue;
        const ConvexDistance d = primitive_distance(pa.shape, wa, pb.shape, wb, best.pair.distance);
        if (d.lower_bound < best.pair.distance && d.distance < best.pair.distance) {
          best.pair = {d.distance, d.point_a, d.point_b};
          best.found = true;
        }
      }
    return best;
  }
  const MixedPair m(a, pose_a, b, pose_b);
  for (const auto& part : m.solids.parts)
    mesh_primitive_distance(m.mesh.tree, m.mesh_pose, part, m.solids_pose * part.pose, m.mesh_is_a,
                            probe, best);
  return best;
}

}  // namespace kinetic
