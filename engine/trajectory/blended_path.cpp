#include "engine/trajectory/blended_path.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/error.hpp"

namespace kinetic {

namespace {
// Angle between two unit vectors, accurate near 0 (acos of a dot product cannot resolve less than
// ~2e-8 rad: collinear waypoints read as a turn whose blend arc, bisector taken from rounding
// noise, stalled time-optimal parameterization).
double angle_between(const JointVector& a, const JointVector& b) {
  return 2.0 * std::atan2((a - b).norm(), (a + b).norm());
}
// Turns smaller than this go straight through, unblended: the joint velocity steps by at most
// this fraction of its speed there, far below what any controller or validation resolves.
constexpr double kStraightAngle = 1e-7;
}  // namespace

BlendedPath::BlendedPath(const JointPath& w, double max_deviation) {
  if (w.size() < 2)
    throw Error(ErrorCode::InvalidValue, "a blended path needs at least two waypoints");
  if (!(max_deviation > 0.0) || !std::isfinite(max_deviation))
    throw Error(ErrorCode::InvalidValue, "blend deviation must be positive and finite");
  // Each waypoint's blend: distance from the waypoint to where the arc meets each neighbour.
  const std::size_t m = w.size();
  std::vector<double> blend_distance(m, 0.0);
  for (std::size_t i = 1; i + 1 < m; ++i) {
    const double len_in = (w[i] - w[i - 1]).norm(), len_out = (w[i + 1] - w[i]).norm();
    if (len_in == 0.0 || len_out == 0.0)
      throw Error(ErrorCode::InvalidValue,
                  "waypoints " + std::to_string(i) + " and a neighbour coincide");
    const double angle = angle_between((w[i] - w[i - 1]) / len_in, (w[i + 1] - w[i]) / len_out);
    if (angle > kMaxTurnAngle)
      throw Error(ErrorCode::InvalidValue, "the path reverses at waypoint " + std::to_string(i),
                  "split the path there");
    if (angle < kStraightAngle) continue;  // straight through: no blend needed
    const double half = 0.5 * angle;
    blend_distance[i] = std::min(
        {0.5 * len_in, 0.5 * len_out, max_deviation * std::sin(half) / (1.0 - std::cos(half))});
  }
  double s = 0.0;
  JointVector from = w[0];
  // Working vectors reused across waypoints (re-timing runs often: no allocation per waypoint
  // beyond the pieces' own vectors).
  JointVector direction, line_end, next, bisector;
  pieces_.reserve(2 * m);
  waypoint_s_.reserve(m);
  waypoint_s_.push_back(0.0);
  for (std::size_t i = 1; i < m; ++i) {
    direction = w[i] - w[i - 1];
    direction.normalize();
    line_end = w[i] - direction * blend_distance[i];
    const double line_length = (line_end - from).norm();
    if (line_length > 0.0) {
      Piece& line = pieces_.emplace_back();
      line.start = s;
      line.length = line_length;
      line.origin = from;
      line.direction = direction;
      s += line_length;
    }
    if (blend_distance[i] == 0.0) {
      waypoint_s_.push_back(s);
      from = w[i];
      continue;
    }
    next = w[i + 1] - w[i];
    next.normalize();
    const double angle = angle_between(direction, next);
    Piece& arc = pieces_.emplace_back();
    arc.arc = true;
    arc.start = s;
    arc.angle = angle;
    arc.radius = blend_distance[i] / std::tan(0.5 * angle);
    arc.length = arc.radius * angle;
    bisector = next - direction;
    bisector.normalize();
    arc.centre = w[i] + bisector * (arc.radius / std::cos(0.5 * angle));
    arc.x = line_end - arc.centre;
    arc.x.normalize();
    arc.y = direction;
    waypoint_s_.push_back(s + 0.5 * arc.length);
    s += arc.length;
    from = w[i] + next * blend_distance[i];
  }
  length_ = s;
}

void BlendedPath::evaluate(const Piece& p, double local, JointVector* q, JointVector* dq,
                           JointVector* ddq) {
  if (!p.arc) {
    if (q) *q = p.origin + p.direction * local;
    if (dq) *dq = p.direction;
    if (ddq) *ddq = JointVector::Zero(p.direction.size());
    return;
  }
  const double theta = local / p.radius, c = std::cos(theta), s = std::sin(theta);
  if (q) *q = p.centre + p.radius * (p.x * c + p.y * s);
  if (dq) *dq = p.y * c - p.x * s;
  if (ddq) *ddq = -(p.x * c + p.y * s) / p.radius;
}

void BlendedPath::evaluate(double s, JointVector* q, JointVector* dq, JointVector* ddq) const {
  s = std::clamp(s, 0.0, length_);
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), s,
                             [](double value, const Piece& p) { return value < p.start; });
  const Piece& piece = it == pieces_.begin() ? pieces_.front() : *(it - 1);
  evaluate(piece, std::min(s - piece.start, piece.length), q, dq, ddq);
}

}  // namespace kinetic
