#include "engine/trajectory/time_optimal.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"
#include "engine/trajectory/blended_path.hpp"
#include "engine/trajectory/sample_builder.hpp"

namespace kinetic {
namespace {

// One step of the phase-plane grid: a whole line, or a short piece of a blend.
struct Stage {
  const BlendedPath::Piece* piece = nullptr;
  bool arc = false;
  double local0 = 0.0, ds = 0.0;              // start within the piece, length
  double velocity_bound = kInf;               // x ≤ this at both ends
  double x_cap = kInf;                        // rows that bound x alone
  double line_acceleration = 0.0;             // lines: |s̈| ≤ this
  std::size_t rows_begin = 0, row_count = 0;  // blends: bounds on u, see SolverWorkspace
  std::size_t node = 0;  // blends: grid node at the start (the end is node + 1)
};

// A blend step's rows are stored padded to a multiple of kRowBlock with copies of its last row
// (which change no bound and no first index of one), so the scans run over whole SIMD pairs.
constexpr std::size_t kRowBlock = 4;
std::size_t padded(std::size_t rows) {
  return (rows + kRowBlock - 1) / kRowBlock * kRowBlock;
}

// Working memory of one Solver, kept per thread between calls: re-timing runs often, and a fresh
// megabyte of grid every call would be paid again in page faults. Buffers only grow.
struct SolverWorkspace {
  std::vector<Stage> stages;
  // One joint's acceleration at one end of a blend step, as bounds on u: -w + m x ≤ u ≤ w + m x.
  // Structure of arrays, so the scans read two rows per instruction.
  std::vector<double> row_w, row_m;
  std::vector<double> node_q, node_dq, node_ddq;  // n values per blend grid node
  std::vector<double> beta;                       // backward pass: largest x at each node
  std::vector<double> lower, upper;               // one step's row bounds at one x
  std::vector<double> limit, velocity_squared;    // per joint
};

template <class T>
void grow(std::vector<T>& values, std::size_t size) {
  if (values.size() < size) values.resize(size);
}

// Bounds on u at x of `count` rows (a multiple of kRowBlock), into lower[] and upper[], and the
// tightest of each: max lower, min upper.
void row_bounds(const double* w, const double* m, std::size_t count, double x, double* lower,
                double* upper, double* max_lower, double* min_upper) {
#if defined(__SSE2__)
  const __m128d vx = _mm_set1_pd(x);
  __m128d lo0 = _mm_set1_pd(-kInf), lo1 = lo0, hi0 = _mm_set1_pd(kInf), hi1 = hi0;
  for (std::size_t i = 0; i < count; i += 4) {
    const __m128d p0 = _mm_mul_pd(_mm_loadu_pd(m + i), vx), w0 = _mm_loadu_pd(w + i);
    const __m128d p1 = _mm_mul_pd(_mm_loadu_pd(m + i + 2), vx), w1 = _mm_loadu_pd(w + i + 2);
    const __m128d l0 = _mm_sub_pd(p0, w0), l1 = _mm_sub_pd(p1, w1);
    const __m128d h0 = _mm_add_pd(p0, w0), h1 = _mm_add_pd(p1, w1);
    _mm_storeu_pd(lower + i, l0);
    _mm_storeu_pd(lower + i + 2, l1);
    _mm_storeu_pd(upper + i, h0);
    _mm_storeu_pd(upper + i + 2, h1);
    lo0 = _mm_max_pd(lo0, l0);
    lo1 = _mm_max_pd(lo1, l1);
    hi0 = _mm_min_pd(hi0, h0);
    hi1 = _mm_min_pd(hi1, h1);
  }
  lo0 = _mm_max_pd(lo0, lo1);
  hi0 = _mm_min_pd(hi0, hi1);
  *max_lower = std::max(_mm_cvtsd_f64(lo0), _mm_cvtsd_f64(_mm_unpackhi_pd(lo0, lo0)));
  *min_upper = std::min(_mm_cvtsd_f64(hi0), _mm_cvtsd_f64(_mm_unpackhi_pd(hi0, hi0)));
#else
  double l = -kInf, h = kInf;
  for (std::size_t i = 0; i < count; ++i) {
    const double p = m[i] * x;
    lower[i] = p - w[i];
    upper[i] = p + w[i];
    l = std::max(l, lower[i]);
    h = std::min(h, upper[i]);
  }
  *max_lower = l;
  *min_upper = h;
#endif
}

// min over `count` rows (a multiple of kRowBlock) of their upper bound on u at x.
double min_upper_bound(const double* w, const double* m, std::size_t count, double x) {
#if defined(__SSE2__)
  const __m128d vx = _mm_set1_pd(x);
  __m128d hi0 = _mm_set1_pd(kInf), hi1 = hi0;
  for (std::size_t i = 0; i < count; i += 4) {
    hi0 = _mm_min_pd(hi0, _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(m + i), vx), _mm_loadu_pd(w + i)));
    hi1 = _mm_min_pd(hi1,
                     _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(m + i + 2), vx), _mm_loadu_pd(w + i + 2)));
  }
  hi0 = _mm_min_pd(hi0, hi1);
  return std::min(_mm_cvtsd_f64(hi0), _mm_cvtsd_f64(_mm_unpackhi_pd(hi0, hi0)));
#else
  double h = kInf;
  for (std::size_t i = 0; i < count; ++i) h = std::min(h, m[i] * x + w[i]);
  return h;
#endif
}

// The first index holding `value` (one of values[0..count), count a multiple of kRowBlock).
std::size_t first_index_of(const double* values, std::size_t count, double value) {
#if defined(__SSE2__)
  // The matching row varies unpredictably: a mask of all matches and its lowest bit, rather than
  // a (mispredicted) branch per row.
  const __m128d v = _mm_set1_pd(value);
  std::size_t i = 0;
  do {
    std::uint64_t matches = 0;
    const std::size_t end = std::min(count, i + 64);
    for (std::size_t k = i; k < end; k += 2)
      matches |=
          static_cast<std::uint64_t>(_mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(values + k), v)))
          << (k - i);
    if (matches != 0) return i + static_cast<std::size_t>(std::countr_zero(matches));
    i = end;
  } while (i < count);
  return count - 1;  // not reached: value is one of them
#else
  std::size_t i = 0;
  while (i + 1 < count && values[i] != value) ++i;
  return i;
#endif
}

class Solver {
 public:
  Solver(const BlendedPath& path, const TrajectoryLimits& limits, const TimeOptimalOptions& options,
         SolverWorkspace& workspace)
      : v_(limits.scaled_velocity()),
        a_(limits.scaled_acceleration()),
        n_(static_cast<std::size_t>(v_.size())),
        ws_(workspace) {
    ws_.stages.clear();
    const double a_norm = a_.norm();
    std::size_t arc_stages = 0, arcs = 0;
    for (const auto& piece : path.pieces())
      if (piece.arc) arc_stages += arc_steps(piece, options), ++arcs;
    ws_.stages.reserve(path.pieces().size() + arc_stages);
    const std::size_t row_block = padded(2 * n_);
    grow(ws_.row_w, arc_stages * row_block);
    grow(ws_.row_m, arc_stages * row_block);
    // q, q', q'' at every blend grid node, computed once and shared by the stages on both sides.
    for (auto* values : {&ws_.node_q, &ws_.node_dq, &ws_.node_ddq})
      grow(*values, (arc_stages + arcs) * n_);
    grow(ws_.lower, row_block);
    grow(ws_.upper, row_block);
    for (auto* values : {&ws_.limit, &ws_.velocity_squared}) grow(*values, n_);
    for (std::size_t j = 0; j < n_; ++j) {
      const double v = v_[static_cast<Eigen::Index>(j)];
      ws_.velocity_squared[j] = v * v;
    }
    for (const auto& piece : path.pieces()) {
      if (!piece.arc) {
        Stage stage;
        stage.piece = &piece;
        stage.ds = piece.length;
        stage.line_acceleration = kInf;
        for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(n_); ++j) {
          const double d = std::abs(piece.direction[j]);
          if (d == 0.0) continue;
          stage.velocity_bound = std::min(stage.velocity_bound, v_[j] * v_[j] / (d * d));
          stage.line_acceleration = std::min(stage.line_acceleration, a_[j] / d);
        }
        ws_.stages.push_back(stage);
        continue;
      }
      // An even number of steps puts a grid node at the middle (the waypoint's closest approach).
      const auto steps = static_cast<long>(arc_steps(piece, options));
      const double dtheta = piece.angle / static_cast<double>(steps);
      const double bulge = dtheta * dtheta / 8.0;  // bounds how far a sinusoid leaves its chord
      // |q̈_j| within a step: between the ends' values plus (a_j + 4|a|) bulge (see header).
      for (std::size_t j = 0; j < n_; ++j) {
        const double a = a_[static_cast<Eigen::Index>(j)];
        ws_.limit[j] = a - 1.01 * (a + 4.0 * a_norm) * bulge;
        if (!(ws_.limit[j] > 0.0))
          throw Error(ErrorCode::InvalidValue, "arc_angle_step is too coarse for these limits",
                      "use a smaller arc_angle_step");
      }
      const std::size_t first_node = node_count_;
      for (long k = 0; k <= steps; ++k)
        add_arc_node(piece, piece.radius * dtheta * static_cast<double>(k));
      for (long k = 0; k < steps; ++k)
        add_arc_stage(piece, dtheta, k, first_node + static_cast<std::size_t>(k), bulge);
    }
  }

  // Backward pass: the largest x at every node from which the end is still reachable at rest.
  void solve_backward() {
    const auto& stages = ws_.stages;
    const std::size_t count = stages.size();
    grow(ws_.beta, count + 1);
    ws_.beta[count] = 0.0;
    for (std::size_t k = count; k-- > 0;) ws_.beta[k] = backward(stages[k], ws_.beta[k + 1]);
  }

  // Forward pass (as hard as the limits and the backward bound allow), appending the samples of
  // the motion from time t0 as it goes; node_times receives the time at every grid node.
  double emit(detail::SampleBuilder& out, double t0, std::vector<double>& node_times) const {
    const auto& stages = ws_.stages;
    const double* beta = ws_.beta.data();
    const std::size_t n = n_;
    double t = t0, x = 0.0, sd = 0.0;  // sd = √x, carried from the step that ended there
    node_times.reserve(stages.size() + 1);
    node_times.assign(1, t);
    for (std::size_t k = 0; k < stages.size(); ++k) {
      const Stage& st = stages[k];
      const double bound = std::min(beta[k + 1], st.velocity_bound);
      if (!st.arc) {
        const double x1 = std::min(bound, x + 2.0 * st.ds * st.line_acceleration);
        t = emit_line(out, st, x, x1, t);
        x = x1;
        sd = std::sqrt(x);
        node_times.push_back(t);
        continue;
      }
      const double h = min_upper_bound(ws_.row_w.data() + st.rows_begin,
                                       ws_.row_m.data() + st.rows_begin, padded(st.row_count), x);
      const double u = std::min(h, (bound - x) / (2.0 * st.ds));
      const double x1 = std::max(0.0, x + 2.0 * st.ds * u);
      const double sd0 = sd, sd1 = std::sqrt(x1);
      if (sd0 + sd1 <= 0.0)
        throw Error(ErrorCode::Unreachable, "time-optimal parameterization stalled on a blend",
                    "use a larger max_deviation or smaller arc_angle_step");
      const double* q0 = ws_.node_q.data() + st.node * n;
      const double* dq0 = ws_.node_dq.data() + st.node * n;
      const double* ddq0 = ws_.node_ddq.data() + st.node * n;
      out.push_path_point(t, q0, dq0, ddq0, sd0, x, u);
      t += 2.0 * st.ds / (sd0 + sd1);
      out.push_path_point(t, q0 + n, dq0 + n, ddq0 + n, sd1, x1, u);
      x = x1;
      sd = sd1;
      node_times.push_back(t);
    }
    return t;
  }

  const std::vector<Stage>& stages() const { return ws_.stages; }
  // Samples emit() appends at most: two per blend step (its end and the step of q̈ there), six
  // per line (three phases).
  std::size_t sample_bound() const {
    std::size_t bound = 2;
    for (const Stage& st : ws_.stages) bound += st.arc ? 2 : 6;
    return bound;
  }

  static std::size_t arc_steps(const BlendedPath::Piece& piece, const TimeOptimalOptions& options) {
    return 2 * static_cast<std::size_t>(
                   std::max(1.0, std::ceil(piece.angle / (2.0 * options.arc_angle_step))));
  }

 private:
  // BlendedPath::evaluate on an arc, written straight into the node buffers (same arithmetic).
  void add_arc_node(const BlendedPath::Piece& p, double local) {
    const double theta = local / p.radius, c = std::cos(theta), s = std::sin(theta);
    const std::size_t n = n_, at = node_count_ * n;
    ++node_count_;
    double* q = ws_.node_q.data() + at;
    double* dq = ws_.node_dq.data() + at;
    double* ddq = ws_.node_ddq.data() + at;
    const double* x = p.x.data();
    const double* y = p.y.data();
    const double* centre = p.centre.data();
    const double r = p.radius;
    std::size_t j = 0;
#if defined(__SSE2__)
    // Two joints per division (the compiler keeps this loop scalar); the same IEEE results.
    const __m128d vc = _mm_set1_pd(c), vs = _mm_set1_pd(s), vr = _mm_set1_pd(r),
                  sign = _mm_set1_pd(-0.0);
    for (; j + 2 <= n; j += 2) {
      const __m128d vx = _mm_loadu_pd(x + j), vy = _mm_loadu_pd(y + j);
      const __m128d xc_ys = _mm_add_pd(_mm_mul_pd(vx, vc), _mm_mul_pd(vy, vs));
      _mm_storeu_pd(q + j, _mm_add_pd(_mm_loadu_pd(centre + j), _mm_mul_pd(vr, xc_ys)));
      _mm_storeu_pd(dq + j, _mm_sub_pd(_mm_mul_pd(vy, vc), _mm_mul_pd(vx, vs)));
      _mm_storeu_pd(ddq + j, _mm_div_pd(_mm_xor_pd(xc_ys, sign), vr));
    }
#endif
    for (; j < n; ++j) {
      const double xc_ys = x[j] * c + y[j] * s;
      q[j] = centre[j] + r * xc_ys;
      dq[j] = y[j] * c - x[j] * s;
      ddq[j] = -xc_ys / r;
    }
  }

  // min over joints of v_j² / speed_j², speed_j = max |q'_j| at the step's ends + bulge.
  double step_velocity_bound(const double* dq0, const double* dq1, double bulge) const {
    const double* v2 = ws_.velocity_squared.data();
    double bound = kInf;
    std::size_t j = 0;
#if defined(__SSE2__)
    // Two joints per division (the constructor is division-bound); the same IEEE results.
    const __m128d sign = _mm_set1_pd(-0.0), vbulge = _mm_set1_pd(bulge);
    __m128d best = _mm_set1_pd(kInf);
    for (; j + 2 <= n_; j += 2) {
      const __m128d speed = _mm_add_pd(_mm_max_pd(_mm_andnot_pd(sign, _mm_loadu_pd(dq0 + j)),
                                                  _mm_andnot_pd(sign, _mm_loadu_pd(dq1 + j))),
                                       vbulge);
      best = _mm_min_pd(best, _mm_div_pd(_mm_loadu_pd(v2 + j), _mm_mul_pd(speed, speed)));
    }
    bound = std::min(_mm_cvtsd_f64(best), _mm_cvtsd_f64(_mm_unpackhi_pd(best, best)));
#endif
    for (; j < n_; ++j) {
      const double speed = std::max(std::abs(dq0[j]), std::abs(dq1[j])) + bulge;
      bound = std::min(bound, v2[j] / (speed * speed));
    }
    return bound;
  }

  void add_arc_stage(const BlendedPath::Piece& piece, double dtheta, long k, std::size_t start_node,
                     double bulge) {
    Stage st;
    st.piece = &piece;
    st.arc = true;
    st.local0 = piece.radius * dtheta * static_cast<double>(k);
    st.ds = piece.radius * dtheta;
    st.node = start_node;
    st.rows_begin = row_end_;
    const std::size_t n = n_;
    const double* dq0 = ws_.node_dq.data() + start_node * n;
    const double* ddq0 = ws_.node_ddq.data() + start_node * n;
    const double* dq1 = dq0 + n;
    const double* ddq1 = ddq0 + n;
    st.velocity_bound = step_velocity_bound(dq0, dq1, bulge);
    double* w = ws_.row_w.data() + row_end_;
    double* m = ws_.row_m.data() + row_end_;
    std::size_t count = 0;
    const double two_ds = 2.0 * st.ds;
    for (std::size_t j = 0; j < n; ++j) {
      const double limit = ws_.limit[j];
      // Rows: q''_j x + q'_j u at the start, and at the end with x_end = x + 2 ds u.
      const double alphas[2] = {dq0[j], dq1[j] + two_ds * ddq1[j]};
      const double gammas[2] = {ddq0[j], ddq1[j]};
#if defined(__SSE2__)
      if (!(std::abs(alphas[0]) < 1e-12) && !(std::abs(alphas[1]) < 1e-12)) {
        // Both rows in two divisions; the same IEEE results as one at a time.
        const __m128d alpha = _mm_loadu_pd(alphas);
        _mm_storeu_pd(w + count,
                      _mm_div_pd(_mm_set1_pd(limit), _mm_andnot_pd(_mm_set1_pd(-0.0), alpha)));
        _mm_storeu_pd(m + count,
                      _mm_div_pd(_mm_xor_pd(_mm_loadu_pd(gammas), _mm_set1_pd(-0.0)), alpha));
        count += 2;
        continue;
      }
#endif
      for (int r = 0; r < 2; ++r) {
        const double alpha = alphas[r], gamma = gammas[r];
        if (std::abs(alpha) < 1e-12) {
          if (std::abs(gamma) > 0.0) st.x_cap = std::min(st.x_cap, limit / std::abs(gamma));
          continue;
        }
        w[count] = limit / std::abs(alpha);
        m[count] = -gamma / alpha;
        ++count;
      }
    }
    st.row_count = count;
    const std::size_t total = padded(count);
    for (std::size_t i = count; i < total; ++i) w[i] = w[count - 1], m[i] = m[count - 1];
    row_end_ += total;
    ws_.stages.push_back(st);
  }

  // Largest x at the start of the stage from which some admissible u ends at ≤ beta_next.
  double backward(const Stage& st, double beta_next) const {
    const double b = std::min(beta_next, st.velocity_bound);
    if (!st.arc) return std::min(st.velocity_bound, b + 2.0 * st.ds * st.line_acceleration);
    // The admissible x form an interval [0, x*]: L(x) = max of the lower bounds is convex, H(x)
    // the min of the upper ones concave, and x = 0 is admissible. Starting from an upper bound,
    // jump to where the active (violated) pair of lines says the boundary is; each jump stays
    // ≥ x* (a line bounds its max/min from the violated side) and the lines are finite, so this
    // ends at x* after a few jumps — instead of intersecting every pair.
    double x = std::min(st.velocity_bound, st.x_cap);
    const double* w = ws_.row_w.data() + st.rows_begin;
    const double* m = ws_.row_m.data() + st.rows_begin;
    const std::size_t count = padded(st.row_count);
    double* lower = ws_.lower.data();
    double* upper = ws_.upper.data();
    const double two_ds = 2.0 * st.ds;
    for (int jumps = 0; jumps < 64 && x > 0.0; ++jumps) {
      double l, h;
      row_bounds(w, m, count, x, lower, upper, &l, &h);
      const double tolerance = 1e-12 * (1.0 + std::abs(b) + std::abs(x));
      if (x + two_ds * l > b + tolerance) {
        const std::size_t lk = first_index_of(lower, count, l);
        const double c = 1.0 + two_ds * m[lk];  // > 0: the line decreases toward x = 0
        x = c > 0.0 ? std::min(x, (b + two_ds * w[lk]) / c) : 0.0;
      } else if (l > h + tolerance * (1.0 + std::abs(l))) {
        const std::size_t lk = first_index_of(lower, count, l),
                          uk = first_index_of(upper, count, h);
        const double d = m[lk] - m[uk];
        x = d > 0.0 ? std::min(x, (w[uk] + w[lk]) / d) : 0.0;
      } else {
        break;
      }
    }
    return std::max(0.0, x);
  }

  // A line: accelerate at the limit, cruise at the velocity bound, decelerate at the limit.
  double emit_line(detail::SampleBuilder& out, const Stage& st, double xa, double xb,
                   double t) const {
    const auto& p = *st.piece;
    const double acc = st.line_acceleration, vb = st.velocity_bound, len = st.ds;
    double s1, s2;
    const double meet = (xb - xa + 2.0 * acc * len) / (4.0 * acc);
    if (xa + 2.0 * acc * meet <= vb) {
      s1 = s2 = std::clamp(meet, 0.0, len);
    } else {
      s1 = std::clamp((vb - xa) / (2.0 * acc), 0.0, len);
      s2 = std::clamp(len - (vb - xb) / (2.0 * acc), s1, len);
    }
    const double sd_a = std::sqrt(xa), sd_b = std::sqrt(xb);
    const double sd1 = std::sqrt(std::max(0.0, std::min(vb, xa + 2.0 * acc * s1)));
    const double sd2 = std::sqrt(std::max(0.0, std::min(vb, xb + 2.0 * acc * (len - s2))));
    const auto push = [&](double time, double s, double sd, double sdd) {
      out.push(time, p.origin + p.direction * s, p.direction * sd, p.direction * sdd);
    };
    if (s1 > 0.0) {
      push(t, 0.0, sd_a, acc);
      t += std::max(0.0, sd1 - sd_a) / acc;
      push(t, s1, sd1, acc);
    }
    if (s2 > s1) {
      push(t, s1, sd1, 0.0);
      t += (s2 - s1) / sd1;
      push(t, s2, sd2, 0.0);
    }
    if (len > s2) {
      push(t, s2, sd2, -acc);
      t += std::max(0.0, sd2 - sd_b) / acc;
      push(t, len, sd_b, -acc);
    }
    return t;
  }

  JointVector v_, a_;
  std::size_t n_;
  SolverWorkspace& ws_;
  std::size_t node_count_ = 0;  // blend grid nodes written
  std::size_t row_end_ = 0;     // rows written (padded)
};

}  // namespace

std::vector<JointPath> split_at_reversals(const JointPath& path,
                                          std::vector<std::size_t>* first_index) {
  std::vector<JointPath> parts;
  if (first_index) first_index->clear();
  JointPath current{path.front()};
  std::size_t start = 0;
  JointVector in, out;
  for (std::size_t i = 1; i < path.size(); ++i) {
    current.push_back(path[i]);
    if (i + 1 == path.size()) break;
    in = path[i] - path[i - 1];
    out = path[i + 1] - path[i];
    const double c = in.dot(out) / (in.norm() * out.norm());
    if (std::acos(std::clamp(c, -1.0, 1.0)) > BlendedPath::kMaxTurnAngle) {
      parts.push_back(std::move(current));
      if (first_index) first_index->push_back(start);
      current = {path[i]};
      start = i;
    }
  }
  parts.push_back(std::move(current));
  if (first_index) first_index->push_back(start);
  return parts;
}

Trajectory time_optimal(const JointPath& input, const TrajectoryLimits& limits,
                        const TimeOptimalOptions& options) {
  check_path(input, limits);
  if (!(options.max_deviation > 0.0) || !std::isfinite(options.max_deviation) ||
      !(options.arc_angle_step > 0.0) || !(options.arc_angle_step <= 0.5))
    throw Error(
        ErrorCode::InvalidValue,
        "time-optimal options: max_deviation must be positive and arc_angle_step in (0, 0.5]");
  std::vector<std::size_t> kept_index;
  const JointPath path = remove_duplicate_waypoints(input, &kept_index);
  std::vector<double> kept_times;
  // Build and solve backward every part first, so the samples are allocated once.
  std::vector<std::size_t> offsets;
  const std::vector<JointPath> parts =
      path.size() == 1 ? std::vector<JointPath>{} : split_at_reversals(path, &offsets);
  std::vector<std::unique_ptr<BlendedPath>> blended_parts;
  std::vector<std::unique_ptr<Solver>> solvers;
  thread_local std::vector<std::unique_ptr<SolverWorkspace>> workspaces;
  while (workspaces.size() < parts.size())
    workspaces.push_back(std::make_unique<SolverWorkspace>());
  std::size_t sample_bound = 1;
  for (const JointPath& part : parts) {
    blended_parts.push_back(std::make_unique<BlendedPath>(part, options.max_deviation));
    solvers.push_back(std::make_unique<Solver>(*blended_parts.back(), limits, options,
                                               *workspaces[solvers.size()]));
    solvers.back()->solve_backward();
    sample_bound += solvers.back()->sample_bound();
  }
  detail::SampleBuilder builder(limits.dof(), sample_bound);
  if (path.size() == 1) {
    const JointVector zero = JointVector::Zero(limits.dof());
    builder.push(0.0, path[0], zero, zero);
    kept_times.push_back(0.0);
  } else {
    double t = 0.0;
    std::vector<double> node_times, node_s;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const BlendedPath& blended = *blended_parts[p];
      const Solver& solver = *solvers[p];
      t = solver.emit(builder, t, node_times);
      // Node s values, to find each waypoint's time.
      node_s.reserve(solver.stages().size() + 1);
      node_s.assign(1, 0.0);
      for (const auto& st : solver.stages()) node_s.push_back(st.piece->start + st.local0 + st.ds);
      const auto& ws = blended.waypoint_positions();
      for (std::size_t w = kept_times.empty() ? 0 : 1; w < ws.size(); ++w) {
        const auto it =
            std::lower_bound(node_s.begin(), node_s.end(), ws[w] - 1e-9 * (1.0 + ws[w]));
        kept_times.push_back(node_times[std::min<std::size_t>(
            static_cast<std::size_t>(it - node_s.begin()), node_times.size() - 1)]);
      }
    }
  }
  std::vector<double> waypoint_times;
  waypoint_times.reserve(kept_index.size());
  for (std::size_t k : kept_index) waypoint_times.push_back(kept_times[k]);
  return builder.take(limits.robot, limits.joint_names, limits.units, std::move(waypoint_times));
}

}  // namespace kinetic
