#include "engine/geometry/convex_distance.hpp"

#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>

#include "engine/core/error.hpp"
#include "engine/geometry/relative_pose.hpp"

namespace kinetic {
namespace {

// Barycentric weights of the point of triangle (a, b, c) closest to p, by Voronoi regions.
Eigen::Vector3d triangle_weights(const Vector3& p, const Vector3& a, const Vector3& b,
                                 const Vector3& c) {
  const Vector3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return {1, 0, 0};
  const Vector3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const Vector3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double sum = va + vb + vc;
  if (!(sum > 0.0)) {  // degenerate (collinear) triangle: the nearest of its corners
    const double da = ap.squaredNorm(), db = bp.squaredNorm(), dc = cp.squaredNorm();
    if (da <= db && da <= dc) return {1, 0, 0};
    return db <= dc ? Eigen::Vector3d(0, 1, 0) : Eigen::Vector3d(0, 0, 1);
  }
  const double v = vb / sum, w = vc / sum;
  return {1 - v - w, v, w};
}

// GJK on the Minkowski difference A - B. Each simplex vertex keeps the support points of A and B
// that made it, so the closest points come out as the same convex combination.
struct SimplexVertex {
  Vector3 w, a, b;  // w = a - b
};

class Gjk {
 public:
  template <class SupportA, class SupportB>
  ConvexDistance run(const SupportA& support_a, const SupportB& support_b, const Vector3& guess,
                     double stop_at_or_above, double stop_below,
                     double loose_beyond = std::numeric_limits<double>::infinity()) {
    const Vector3 start = guess.squaredNorm() > 0.0 ? guess : Vector3(Vector3::UnitX());
    add(support_a(-start), support_b(start));  // the guess points from B towards A
    weights_[0] = 1.0;
    Vector3 v = simplex_[0].w;
    double vv = v.squaredNorm();
    constexpr int kMaxIterations = 128;
    constexpr double kRelative = 1e-10;  // stop when the gap estimate moves less than this
    constexpr double kTouching = 1e-24;  // |v|^2 below this: the sets touch
    double lower = 0.0;                  // every point of A - B lies beyond the plane v.x = v.w
    for (int iteration = 0; iteration < kMaxIterations && vv > kTouching; ++iteration) {
      const Vector3 a = support_a(-v), b = support_b(v);
      const Vector3 w = a - b;
      lower = std::max(lower, v.dot(w) / std::sqrt(vv));
      if (lower >= stop_at_or_above) break;  // far enough: the caller needs no more
      if (lower >= loose_beyond && lower * lower >= kLooseRatio * kLooseRatio * vv) break;
      if (vv - v.dot(w) <= kRelative * vv) break;  // no support point gets meaningfully closer
      bool repeated = false;
      for (int i = 0; i < count_; ++i) repeated |= (simplex_[i].w - w).squaredNorm() <= kTouching;
      if (repeated) break;
      add(a, b);
      if (!reduce(v)) return intersecting();
      const double next = v.squaredNorm();
      if (next >= vv) break;  // rounding: no more progress possible
      vv = next;
      if (vv < stop_below * stop_below) break;  // close enough: the caller needs no more
    }
    if (vv <= kTouching) return intersecting();
    ConvexDistance out;
    for (int i = 0; i < count_; ++i) {
      out.point_a += weights_[i] * simplex_[i].a;
      out.point_b += weights_[i] * simplex_[i].b;
    }
    out.distance = std::sqrt(vv);
    out.lower_bound = std::min(lower, out.distance);
    return out;
  }

 private:
  void add(const Vector3& a, const Vector3& b) {
    weights_[count_] = 0.0;
    simplex_[count_++] = {a - b, a, b};
  }

  ConvexDistance intersecting() const {
    ConvexDistance out;
    for (int i = 0; i < count_; ++i) out.point_a += weights_[i] * simplex_[i].a;
    out.point_b = out.point_a;
    return out;
  }

  // Keeps the smallest sub-simplex holding the point closest to the origin; v becomes that
  // point. Returns false when the origin is inside the tetrahedron (the sets intersect).
  bool reduce(Vector3& v) {
    switch (count_) {
      case 2: {
        const Vector3 d = simplex_[1].w - simplex_[0].w;
        const double dd = d.squaredNorm();
        const double t = dd > 0.0 ? std::clamp(-simplex_[0].w.dot(d) / dd, 0.0, 1.0) : 0.0;
        if (t <= 0.0)
          keep({0});
        else if (t >= 1.0)
          keep({1});
        else
          set_weights({1 - t, t});
        break;
      }
      case 3:
        reduce_triangle(0, 1, 2);
        break;
      case 4:
        if (!reduce_tetrahedron()) return false;
        break;
      default:
        weights_[0] = 1.0;
        break;
    }
    v.setZero();
    for (int i = 0; i < count_; ++i) v += weights_[i] * simplex_[i].w;
    return true;
  }

  void reduce_triangle(int i, int j, int k) {
    const Eigen::Vector3d l =
        triangle_weights(Vector3::Zero(), simplex_[i].w, simplex_[j].w, simplex_[k].w);
    const std::array<SimplexVertex, 3> corners{simplex_[i], simplex_[j], simplex_[k]};
    count_ = 0;
    for (int c = 0; c < 3; ++c)
      if (l[c] > 0.0) {
        weights_[count_] = l[c];
        simplex_[count_++] = corners[c];
      }
  }

  bool reduce_tetrahedron() {
    static constexpr int kFaces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    // A flat tetrahedron (curved supports give nearly repeated points) proves nothing about the
    // origin being inside: then every face is a candidate.
    const Vector3& p0 = simplex_[0].w;
    const Vector3 e1 = simplex_[1].w - p0, e2 = simplex_[2].w - p0, e3 = simplex_[3].w - p0;
    const double scale = std::max({e1.squaredNorm(), e2.squaredNorm(), e3.squaredNorm()});
    const double volume = std::abs(e1.dot(e2.cross(e3)));
    const bool flat = volume <= 1e-9 * scale * std::sqrt(scale);
    double best = std::numeric_limits<double>::infinity();
    int best_face = -1;
    for (int f = 0; f < 4; ++f) {
      const Vector3& a = simplex_[kFaces[f][0]].w;
      const Vector3& b = simplex_[kFaces[f][1]].w;
      const Vector3& c = simplex_[kFaces[f][2]].w;
      const Vector3& d = simplex_[kFaces[f][3]].w;
      const Vector3 n = (b - a).cross(c - a);
      // The origin is beyond this face when it and the opposite corner lie on different sides
      // (a flat tetrahedron counts every face as a candidate).
      if (!flat && (-a).dot(n) * (d - a).dot(n) > 0.0) continue;
      const Eigen::Vector3d l = triangle_weights(Vector3::Zero(), a, b, c);
      const double distance = (l[0] * a + l[1] * b + l[2] * c).squaredNorm();
      if (distance < best) {
        best = distance;
        best_face = f;
      }
    }
    if (best_face < 0) return false;  // inside all four faces
    const int f = best_face;
    const SimplexVertex a = simplex_[kFaces[f][0]], b = simplex_[kFaces[f][1]],
                        c = simplex_[kFaces[f][2]];
    simplex_[0] = a;
    simplex_[1] = b;
    simplex_[2] = c;
    count_ = 3;
    reduce_triangle(0, 1, 2);
    return true;
  }

  void keep(std::initializer_list<int> indices) {
    std::array<SimplexVertex, 4> kept;
    int n = 0;
    for (const int i : indices) kept[n++] = simplex_[i];
    for (int i = 0; i < n; ++i) {
      simplex_[i] = kept[i];
      weights_[i] = 1.0 / n;
    }
    count_ = n;
  }
  void set_weights(std::initializer_list<double> weights) {
    int i = 0;
    for (const double w : weights) weights_[i++] = w;
  }

  std::array<SimplexVertex, 4> simplex_;
  std::array<double, 4> weights_{};
  int count_ = 0;
};

}  // namespace

Vector3 closest_point_on_triangle(const Vector3& p, const Vector3& a, const Vector3& b,
                                  const Vector3& c) {
  const Eigen::Vector3d l = triangle_weights(p, a, b, c);
  return l[0] * a + l[1] * b + l[2] * c;
}

namespace {

// Support point of a box or cylinder centred at the origin; a sphere's core is its centre (the
// radius is added outside GJK, which converges slowly on curved surfaces).
Vector3 core_support(const Shape& shape, const Vector3& d) {
  switch (shape.type) {
    case Shape::Type::Box: {
      const Vector3 half = 0.5 * shape.box_size;
      return {d.x() >= 0 ? half.x() : -half.x(), d.y() >= 0 ? half.y() : -half.y(),
              d.z() >= 0 ? half.z() : -half.z()};
    }
    case Shape::Type::Cylinder: {
      const double radial = std::sqrt(d.x() * d.x() + d.y() * d.y());
      const double scale = radial > 1e-300 ? shape.radius / radial : 0.0;
      return {d.x() * scale, d.y() * scale, d.z() >= 0 ? 0.5 * shape.length : -0.5 * shape.length};
    }
    case Shape::Type::Sphere:
      return Vector3::Zero();
    case Shape::Type::Mesh:
    case Shape::Type::HalfSpace:
      break;
  }
  throw Error(ErrorCode::Unsupported, "convex distance: only boxes, cylinders and spheres");
}

double core_inflation(const Shape& shape) {
  return shape.type == Shape::Type::Sphere ? shape.radius : 0.0;
}

// Turns a distance between cores into one between the shapes inflated by ra and rb.
ConvexDistance inflate(ConvexDistance core, double ra, double rb) {
  if (ra == 0.0 && rb == 0.0) return core;
  const double reach = ra + rb;
  ConvexDistance out = core;
  out.distance = std::max(core.distance - reach, 0.0);
  out.lower_bound = std::max(core.lower_bound - reach, 0.0);
  if (core.distance > reach) {
    const Vector3 n = (core.point_b - core.point_a) / core.distance;
    out.point_a = core.point_a + ra * n;
    out.point_b = core.point_b - rb * n;
  } else if (core.distance > 0.0) {  // overlapping: a point inside both
    const Vector3 n = (core.point_b - core.point_a) / core.distance;
    out.point_a = out.point_b = core.point_a + (ra / reach) * core.distance * n;
  }
  return out;
}

}  // namespace

double support_extent(const Shape& primitive, const Vector3& n) {
  return n.dot(core_support(primitive, n)) + core_inflation(primitive);
}

ConvexDistance triangle_primitive_distance(const Vector3& a, const Vector3& b, const Vector3& c,
                                           const Shape& primitive, double stop_at_or_above,
                                           double stop_below) {
  const double r = core_inflation(primitive);
  if (primitive.type == Shape::Type::Sphere) {  // closed form: nearest point to the centre
    ConvexDistance core;
    core.point_a = closest_point_on_triangle(Vector3::Zero(), a, b, c);
    core.distance = core.lower_bound = core.point_a.norm();
    return inflate(core, 0.0, r);
  }
  const auto triangle = [&](const Vector3& d) {
    const double da = d.dot(a), db = d.dot(b), dc = d.dot(c);
    return da >= db ? (da >= dc ? a : c) : (db >= dc ? b : c);
  };
  if (primitive.type == Shape::Type::Cylinder) {
    // Against the axis segment first (a polytope: GJK ends in a few steps). When the nearest
    // axis point is inside the segment, the nearest cylinder point is on the side wall at the
    // same height, so the cylinder distance is exactly that distance minus the radius (and a
    // triangle within the radius there is inside the cylinder). Near the caps and rims GJK runs
    // on the cylinder itself.
    const double h = 0.5 * primitive.length, radius = primitive.radius;
    const auto axis = [&](const Vector3& d) { return Vector3(0.0, 0.0, d.z() >= 0 ? h : -h); };
    // The capsule around the axis holds the cylinder, so its lower bound is one for the cylinder
    // too; stopping early on "close" would not be (the capsule's end caps reach further).
    const ConvexDistance core =
        Gjk().run(triangle, axis, (a + b + c) / 3.0, stop_at_or_above + radius, 0.0);
    if (core.lower_bound - radius >= stop_at_or_above) return inflate(core, 0.0, radius);
    if (core.distance > 0.0 && std::abs(core.point_b.z()) < h * (1.0 - 1e-9))
      return inflate(core, 0.0, radius);
  }
  const auto shape = [&](const Vector3& d) { return core_support(primitive, d); };
  return Gjk().run(triangle, shape, (a + b + c) / 3.0, stop_at_or_above, stop_below);
}

ConvexDistance primitive_distance(const Shape& a, const Pose& pose_a, const Shape& b,
                                  const Pose& pose_b, double stop_at_or_above, double stop_below,
                                  double loose_beyond) {
  const RelativePose b_in_a(pose_a, pose_b);
  const double ra = core_inflation(a), rb = core_inflation(b);
  ConvexDistance core;
  if (a.type == Shape::Type::Sphere && b.type == Shape::Type::Sphere) {
    core.point_b = b_in_a.translation;
    core.distance = core.lower_bound = core.point_b.norm();
  } else {
    const auto support_a = [&](const Vector3& d) { return core_support(a, d); };
    const auto support_b = [&](const Vector3& d) {
      return Vector3(b_in_a.rotation * core_support(b, b_in_a.rotation.transpose() * d) +
                     b_in_a.translation);
    };
    core = Gjk().run(support_a, support_b, -b_in_a.translation, stop_at_or_above + ra + rb,
                     stop_below + ra + rb, loose_beyond + ra + rb);
  }
  ConvexDistance out = inflate(core, ra, rb);
  out.point_a = pose_a * out.point_a;
  out.point_b = pose_a * out.point_b;
  return out;
}

namespace {
// The point farthest along d (a linear scan: collision meshes have a few hundred vertices, and a
// scan needs no adjacency, which a mesh that is not convex would make wrong).
Vector3 point_support(const std::vector<Vector3>& points, const Vector3& d) {
  std::size_t best = 0;
  double best_dot = d.dot(points[0]);
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double s = d.dot(points[i]);
    if (s > best_dot) {
      best_dot = s;
      best = i;
    }
  }
  return points[best];
}

Vector3 set_support(const ConvexSet& set, const Vector3& d) {
  if (set.columns)
    return (*set.points)[set.start ? set.columns->support_index(d, *set.start)
                                   : set.columns->support_index(d)];
  return set.points ? point_support(*set.points, d) : core_support(*set.primitive, d);
}

double set_inflation(const ConvexSet& set) {
  return set.points ? 0.0 : core_inflation(*set.primitive);
}
}  // namespace

double convex_set_gap_along(const ConvexSet& a, const Pose& pose_a, const ConvexSet& b,
                            const Pose& pose_b, const Vector3& n) {
  const Vector3 na = pose_a.linear().transpose() * n, nb = pose_b.linear().transpose() * n;
  const double a_least =
      na.dot(set_support(a, -na)) + n.dot(pose_a.translation()) - set_inflation(a);
  const double b_most = nb.dot(set_support(b, nb)) + n.dot(pose_b.translation()) + set_inflation(b);
  return a_least - b_most;
}

ConvexDistance convex_set_distance(const ConvexSet& given_a, const Pose& pose_a,
                                   const ConvexSet& given_b, const Pose& pose_b,
                                   double stop_at_or_above, double stop_below, double loose_beyond,
                                   const Vector3* first_axis) {
  // Each support search starts where the last one for the same set ended: GJK's directions turn
  // little from one iteration to the next.
  std::uint32_t start_a = 0, start_b = 0;
  ConvexSet a = given_a, b = given_b;
  if (!a.start) a.start = &start_a;
  if (!b.start) b.start = &start_b;
  const RelativePose b_in_a(pose_a, pose_b);
  const double ra = set_inflation(a), rb = set_inflation(b);
  const auto support_a = [&](const Vector3& d) { return set_support(a, d); };
  const auto support_b = [&](const Vector3& d) {
    return Vector3(b_in_a.rotation * set_support(b, b_in_a.rotation.transpose() * d) +
                   b_in_a.translation);
  };
  const Vector3 guess = first_axis && first_axis->squaredNorm() > 0.0
                            ? Vector3(pose_a.linear().transpose() * *first_axis)
                            : Vector3(-b_in_a.translation);
  ConvexDistance out = inflate(Gjk().run(support_a, support_b, guess, stop_at_or_above + ra + rb,
                                         stop_below + ra + rb, loose_beyond + ra + rb),
                               ra, rb);
  out.point_a = pose_a * out.point_a;
  out.point_b = pose_a * out.point_b;
  return out;
}

namespace {
// Where segment (s0, s1) crosses triangle t (Moller-Trumbore), if it does.
std::optional<Vector3> segment_triangle_crossing(const Vector3& s0, const Vector3& s1,
                                                 const Vector3 (&t)[3]) {
  const Vector3 dir = s1 - s0, e1 = t[1] - t[0], e2 = t[2] - t[0];
  const Vector3 h = dir.cross(e2);
  const double det = e1.dot(h);
  if (std::abs(det) < 1e-18) return std::nullopt;  // parallel (coplanar contact: see below)
  const Vector3 s = s0 - t[0];
  const double u = s.dot(h) / det;
  if (u < 0.0 || u > 1.0) return std::nullopt;
  const Vector3 qv = s.cross(e1);
  const double v = dir.dot(qv) / det;
  if (v < 0.0 || u + v > 1.0) return std::nullopt;
  const double along = e2.dot(qv) / det;
  if (along < 0.0 || along > 1.0) return std::nullopt;
  return s0 + along * dir;
}
}  // namespace

ConvexDistance triangle_triangle_distance(const Vector3 (&p)[3], const Vector3 (&q)[3]) {
  ConvexDistance out;
  out.distance = fcl::detail::TriangleDistance<double>::triDistance(p, q, out.point_a, out.point_b);
  out.lower_bound = out.distance;
  if (out.distance <= 0.0) {
    // FCL's points for crossing triangles need not coincide: report a common point (two
    // crossing triangles have an edge of one through the other).
    for (int i = 0; i < 3; ++i) {
      std::optional<Vector3> hit = segment_triangle_crossing(p[i], p[(i + 1) % 3], q);
      if (!hit) hit = segment_triangle_crossing(q[i], q[(i + 1) % 3], p);
      if (hit) {
        out.point_a = out.point_b = *hit;
        return out;
      }
    }
    out.point_b = out.point_a;  // touching in a plane or at rounding level: FCL's point on p
  }
  return out;
}

}  // namespace kinetic
