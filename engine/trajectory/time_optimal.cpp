#include "engine/trajectory/time_optimal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/core/error.hpp"
#include "engine/trajectory/blended_path.hpp"
#include "engine/trajectory/sample_builder.hpp"

namespace kinetic {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One step of the phase-plane grid: a whole line, or a short piece of a blend.
struct Stage {
  const BlendedPath::Piece* piece = nullptr;
  double local0 = 0.0, ds = 0.0;  // start within the piece, length
  double velocity_bound = kInf;   // x ≤ this at both ends
  double x_cap = kInf;            // rows that bound x alone
  double line_acceleration = 0.0; // lines: |s̈| ≤ this
  std::size_t rows_begin = 0, row_count = 0;  // blends: bounds on u, see below
  std::size_t node = 0;           // blends: grid node at the start (the end is node + 1)
};

// One joint's acceleration row at one end of a blend step, as bounds on u:
// -w + m x ≤ u ≤ w + m x.
struct Row {
  double w, m;
};

// Working memory of one Solver, kept per thread between calls: re-timing runs often, and a fresh
// megabyte of grid every call would be paid again in page faults.
struct SolverWorkspace {
  std::vector<Stage> stages;
  std::vector<Row> rows;
  std::vector<double> node_q, node_dq, node_ddq;  // structure of arrays: n values per node
  std::vector<double> beta, x, u;
};

class Solver {
 public:
  Solver(const BlendedPath& path, const TrajectoryLimits& limits, const TimeOptimalOptions& options,
         SolverWorkspace& workspace)
      : v_(limits.scaled_velocity()),
        a_(limits.scaled_acceleration()),
        n_(v_.size()),
        stages_(workspace.stages),
        rows_(workspace.rows),
        node_q_(workspace.node_q),
        node_dq_(workspace.node_dq),
        node_ddq_(workspace.node_ddq),
        beta_(workspace.beta),
        x_(workspace.x),
        u_(workspace.u) {
    for (auto* values : {&node_q_, &node_dq_, &node_ddq_, &beta_, &x_, &u_}) values->clear();
    stages_.clear();
    rows_.clear();
    const double a_norm = a_.norm();
    std::size_t arc_stages = 0, arcs = 0;
    for (const auto& piece : path.pieces())
      if (piece.arc) arc_stages += arc_steps(piece, options), ++arcs;
    stages_.reserve(path.pieces().size() + arc_stages);
    rows_.reserve(arc_stages * 2 * static_cast<std::size_t>(n_));
    // q, q', q'' at every blend grid node, computed once and shared by the stages on both sides.
    const auto node_values = (arc_stages + arcs) * static_cast<std::size_t>(n_);
    node_q_.reserve(node_values);
    node_dq_.reserve(node_values);
    node_ddq_.reserve(node_values);
    for (const auto& piece : path.pieces()) {
      if (!piece.arc) {
        Stage stage;
        stage.piece = &piece;
        stage.ds = piece.length;
        stage.line_acceleration = kInf;
        for (Eigen::Index j = 0; j < n_; ++j) {
          const double d = std::abs(piece.direction[j]);
          if (d == 0.0) continue;
          stage.velocity_bound = std::min(stage.velocity_bound, v_[j] * v_[j] / (d * d));
          stage.line_acceleration = std::min(stage.line_acceleration, a_[j] / d);
        }
        stages_.push_back(stage);
        continue;
      }
      // An even number of steps puts a grid node at the middle (the waypoint's closest approach).
      const auto steps = static_cast<long>(arc_steps(piece, options));
      const double dtheta = piece.angle / static_cast<double>(steps);
      const double bulge = dtheta * dtheta / 8.0;  // bounds how far a sinusoid leaves its chord
      const std::size_t first_node = node_count();
      for (long k = 0; k <= steps; ++k) add_arc_node(piece, piece.radius * dtheta * static_cast<double>(k));
      for (long k = 0; k < steps; ++k)
        add_arc_stage(piece, dtheta, k, first_node + static_cast<std::size_t>(k), bulge, a_norm);
    }
  }

  void solve() {
    const std::size_t n = stages_.size();
    beta_.assign(n + 1, 0.0);
    for (std::size_t k = n; k-- > 0;) beta_[k] = backward(stages_[k], beta_[k + 1]);
    x_.assign(n + 1, 0.0);
    u_.assign(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      const Stage& st = stages_[k];
      const double bound = std::min(beta_[k + 1], st.velocity_bound);
      if (st.piece->arc) {
        double h = kInf;
        for (std::size_t i = 0; i < st.row_count; ++i) {
          const Row& r = rows_[st.rows_begin + i];
          h = std::min(h, r.w + r.m * x_[k]);
        }
        u_[k] = std::min(h, (bound - x_[k]) / (2.0 * st.ds));
        x_[k + 1] = std::max(0.0, x_[k] + 2.0 * st.ds * u_[k]);
      } else {
        x_[k + 1] = std::min(bound, x_[k] + 2.0 * st.ds * st.line_acceleration);
      }
    }
  }

  // Appends the samples of the solved motion, starting at time t0; fills node times.
  double emit(detail::SampleBuilder& out, double t0, std::vector<double>* node_times) const {
    double t = t0;
    node_times->reserve(stages_.size() + 1);
    node_times->assign(1, t);
    for (std::size_t k = 0; k < stages_.size(); ++k) {
      const Stage& st = stages_[k];
      if (st.piece->arc) {
        const double sd0 = std::sqrt(x_[k]), sd1 = std::sqrt(x_[k + 1]);
        if (sd0 + sd1 <= 0.0)
          throw Error(ErrorCode::Unreachable, "time-optimal parameterization stalled on a blend",
                      "use a larger max_deviation or smaller arc_angle_step");
        const auto q0 = node(node_q_, st.node), dq0 = node(node_dq_, st.node), ddq0 = node(node_ddq_, st.node);
        out.push(t, q0, dq0 * sd0, ddq0 * x_[k] + dq0 * u_[k]);
        t += 2.0 * st.ds / (sd0 + sd1);
        const auto q1 = node(node_q_, st.node + 1), dq1 = node(node_dq_, st.node + 1),
                   ddq1 = node(node_ddq_, st.node + 1);
        out.push(t, q1, dq1 * sd1, ddq1 * x_[k + 1] + dq1 * u_[k]);
      } else {
        t = emit_line(out, st, x_[k], x_[k + 1], t);
      }
      node_times->push_back(t);
    }
    return t;
  }

  const std::vector<Stage>& stages() const { return stages_; }
  // Samples emit() appends at most: two per blend step (its end and the step of q̈ there), six
  // per line (three phases).
  std::size_t sample_bound() const {
    std::size_t bound = 2;
    for (const Stage& st : stages_) bound += st.piece->arc ? 2 : 6;
    return bound;
  }

  static std::size_t arc_steps(const BlendedPath::Piece& piece, const TimeOptimalOptions& options) {
    return 2 * static_cast<std::size_t>(std::max(1.0, std::ceil(piece.angle / (2.0 * options.arc_angle_step))));
  }

 private:
  std::size_t node_count() const { return node_q_.size() / static_cast<std::size_t>(n_); }
  Eigen::Map<const JointVector> node(const std::vector<double>& values, std::size_t index) const {
    return Eigen::Map<const JointVector>(values.data() + index * static_cast<std::size_t>(n_), n_);
  }

  // BlendedPath::evaluate on an arc, written straight into the node buffers (same arithmetic).
  // A plain loop over raw arrays, so the compiler can vectorise it (the divisions dominate).
  void add_arc_node(const BlendedPath::Piece& p, double local) {
    const double theta = local / p.radius, c = std::cos(theta), s = std::sin(theta);
    const auto n = static_cast<std::size_t>(n_), at = node_q_.size();
    node_q_.resize(at + n);
    node_dq_.resize(at + n);
    node_ddq_.resize(at + n);
    double* q = node_q_.data() + at;
    double* dq = node_dq_.data() + at;
    double* ddq = node_ddq_.data() + at;
    const double* x = p.x.data();
    const double* y = p.y.data();
    const double* centre = p.centre.data();
    const double r = p.radius;
    for (std::size_t j = 0; j < n; ++j) {
      const double xc_ys = x[j] * c + y[j] * s;
      q[j] = centre[j] + r * xc_ys;
      dq[j] = y[j] * c - x[j] * s;
      ddq[j] = -xc_ys / r;
    }
  }

  void add_arc_stage(const BlendedPath::Piece& piece, double dtheta, long k, std::size_t start_node,
                     double bulge, double a_norm) {
    Stage st;
    st.piece = &piece;
    st.local0 = piece.radius * dtheta * static_cast<double>(k);
    st.ds = piece.radius * dtheta;
    st.node = start_node;
    st.rows_begin = rows_.size();
    const double* dq0 = node_dq_.data() + start_node * static_cast<std::size_t>(n_);
    const double* ddq0 = node_ddq_.data() + start_node * static_cast<std::size_t>(n_);
    const double* dq1 = dq0 + n_;
    const double* ddq1 = ddq0 + n_;
    for (Eigen::Index j = 0; j < n_; ++j) {
      const double speed = std::max(std::abs(dq0[j]), std::abs(dq1[j])) + bulge;
      st.velocity_bound = std::min(st.velocity_bound, v_[j] * v_[j] / (speed * speed));
      // |q̈_j| within the step: between the ends' values plus (a_j + 4|a|) bulge (see header).
      const double limit = a_[j] - 1.01 * (a_[j] + 4.0 * a_norm) * bulge;
      if (!(limit > 0.0))
        throw Error(ErrorCode::InvalidValue, "arc_angle_step is too coarse for these limits",
                    "use a smaller arc_angle_step");
      // Rows: q''_j x + q'_j u at the start, and at the end with x_end = x + 2 ds u.
      const double alphas[2] = {dq0[j], dq1[j] + 2.0 * st.ds * ddq1[j]};
      const double gammas[2] = {ddq0[j], ddq1[j]};
      for (int r = 0; r < 2; ++r) {
        const double alpha = alphas[r], gamma = gammas[r];
        if (std::abs(alpha) < 1e-12) {
          if (std::abs(gamma) > 0.0) st.x_cap = std::min(st.x_cap, limit / std::abs(gamma));
          continue;
        }
        rows_.push_back(row(limit, alpha, gamma));
      }
    }
    st.row_count = rows_.size() - st.rows_begin;
    stages_.push_back(st);
  }

  // The row {limit / |alpha|, -gamma / alpha}: both divisions in one instruction where SSE2 is
  // there (the constructor is division-bound); the same IEEE results either way.
  static Row row(double limit, double alpha, double gamma) {
#if defined(__SSE2__)
    double out[2];
    _mm_storeu_pd(out, _mm_div_pd(_mm_set_pd(-gamma, limit), _mm_set_pd(alpha, std::abs(alpha))));
    return {out[0], out[1]};
#else
    return {limit / std::abs(alpha), -gamma / alpha};
#endif
  }

  // Largest x at the start of the stage from which some admissible u ends at ≤ beta_next.
  double backward(const Stage& st, double beta_next) const {
    const double b = std::min(beta_next, st.velocity_bound);
    if (!st.piece->arc) return std::min(st.velocity_bound, b + 2.0 * st.ds * st.line_acceleration);
    // The admissible x form an interval [0, x*]: L(x) = max of the lower bounds is convex, H(x)
    // the min of the upper ones concave, and x = 0 is admissible. Starting from an upper bound,
    // jump to where the active (violated) pair of lines says the boundary is; each jump stays
    // ≥ x* (a line bounds its max/min from the violated side) and the lines are finite, so this
    // ends at x* after a few jumps — instead of intersecting every pair.
    double x = std::min(st.velocity_bound, st.x_cap);
    const Row* rows = rows_.data() + st.rows_begin;
    const double two_ds = 2.0 * st.ds;
    for (int jumps = 0; jumps < 64 && x > 0.0; ++jumps) {
      std::size_t lk = 0, uk = 0;
      double l = -kInf, h = kInf;
      for (std::size_t i = 0; i < st.row_count; ++i) {
        if (const double value = -rows[i].w + rows[i].m * x; value > l) l = value, lk = i;
        if (const double value = rows[i].w + rows[i].m * x; value < h) h = value, uk = i;
      }
      const double tolerance = 1e-12 * (1.0 + std::abs(b) + std::abs(x));
      if (x + two_ds * l > b + tolerance) {
        const double c = 1.0 + two_ds * rows[lk].m;  // > 0: the line decreases toward x = 0
        x = c > 0.0 ? std::min(x, (b + two_ds * rows[lk].w) / c) : 0.0;
      } else if (l > h + tolerance * (1.0 + std::abs(l))) {
        const double d = rows[lk].m - rows[uk].m;
        x = d > 0.0 ? std::min(x, (rows[uk].w + rows[lk].w) / d) : 0.0;
      } else {
        break;
      }
    }
    return std::max(0.0, x);
  }

  // A line: accelerate at the limit, cruise at the velocity bound, decelerate at the limit.
  double emit_line(detail::SampleBuilder& out, const Stage& st, double xa, double xb, double t) const {
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
  Eigen::Index n_;
  // In the workspace (see SolverWorkspace).
  std::vector<Stage>& stages_;
  std::vector<Row>& rows_;
  std::vector<double>& node_q_;
  std::vector<double>& node_dq_;
  std::vector<double>& node_ddq_;
  std::vector<double>& beta_;
  std::vector<double>& x_;
  std::vector<double>& u_;
};

}  // namespace

std::vector<JointPath> split_at_reversals(const JointPath& path, std::vector<std::size_t>* first_index) {
  std::vector<JointPath> parts;
  if (first_index) first_index->clear();
  JointPath current{path.front()};
  std::size_t start = 0;
  for (std::size_t i = 1; i < path.size(); ++i) {
    current.push_back(path[i]);
    if (i + 1 == path.size()) break;
    const JointVector in = path[i] - path[i - 1], out = path[i + 1] - path[i];
    const double c = in.dot(out) / (in.norm() * out.norm());
    if (std::acos(std::clamp(c, -1.0, 1.0)) > BlendedPath::kMaxTurnAngle) {
      parts.push_back(current);
      if (first_index) first_index->push_back(start);
      current = {path[i]};
      start = i;
    }
  }
  parts.push_back(current);
  if (first_index) first_index->push_back(start);
  return parts;
}

Trajectory time_optimal(const JointPath& input, const TrajectoryLimits& limits,
                        const TimeOptimalOptions& options) {
  check_path(input, limits);
  if (!(options.max_deviation > 0.0) || !std::isfinite(options.max_deviation) ||
      !(options.arc_angle_step > 0.0) || !(options.arc_angle_step <= 0.5))
    throw Error(ErrorCode::InvalidValue,
                "time-optimal options: max_deviation must be positive and arc_angle_step in (0, 0.5]");
  std::vector<std::size_t> kept_index;
  const JointPath path = remove_duplicate_waypoints(input, &kept_index);
  std::vector<double> kept_times;
  // Solve every part first, so the samples are allocated once.
  std::vector<std::size_t> offsets;
  const std::vector<JointPath> parts =
      path.size() == 1 ? std::vector<JointPath>{} : split_at_reversals(path, &offsets);
  std::vector<std::unique_ptr<BlendedPath>> blended_parts;
  std::vector<std::unique_ptr<Solver>> solvers;
  thread_local std::vector<std::unique_ptr<SolverWorkspace>> workspaces;
  while (workspaces.size() < parts.size()) workspaces.push_back(std::make_unique<SolverWorkspace>());
  std::size_t sample_bound = 1;
  for (const JointPath& part : parts) {
    blended_parts.push_back(std::make_unique<BlendedPath>(part, options.max_deviation));
    solvers.push_back(std::make_unique<Solver>(*blended_parts.back(), limits, options,
                                               *workspaces[solvers.size()]));
    solvers.back()->solve();
    sample_bound += solvers.back()->sample_bound();
  }
  detail::SampleBuilder builder(limits.dof(), sample_bound);
  if (path.size() == 1) {
    const JointVector zero = JointVector::Zero(limits.dof());
    builder.push(0.0, path[0], zero, zero);
    kept_times.push_back(0.0);
  } else {
    double t = 0.0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const BlendedPath& blended = *blended_parts[p];
      const Solver& solver = *solvers[p];
      std::vector<double> node_times;
      const double t0 = t;
      t = solver.emit(builder, t0, &node_times);
      // Node s values, to find each waypoint's time.
      std::vector<double> node_s{0.0};
      for (const auto& st : solver.stages()) node_s.push_back(st.piece->start + st.local0 + st.ds);
      const auto& ws = blended.waypoint_positions();
      for (std::size_t w = kept_times.empty() ? 0 : 1; w < ws.size(); ++w) {
        const auto it = std::lower_bound(node_s.begin(), node_s.end(), ws[w] - 1e-9 * (1.0 + ws[w]));
        kept_times.push_back(node_times[std::min<std::size_t>(static_cast<std::size_t>(it - node_s.begin()), node_times.size() - 1)]);
      }
    }
  }
  std::vector<double> waypoint_times;
  for (std::size_t k : kept_index) waypoint_times.push_back(kept_times[k]);
  return builder.take(limits.robot, limits.joint_names, limits.units, std::move(waypoint_times));
}

}  // namespace kinetic
