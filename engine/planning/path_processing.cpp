#include "engine/planning/path_processing.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kinetic {

double path_length(const JointPath& path) {
  double length = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) length += (path[i] - path[i - 1]).norm();
  return length;
}

void remove_redundant_waypoints(PlanningSpace& space, JointPath& path) {
  if (path.size() < 3) return;
  // From each kept waypoint, the farthest one it sees: tried from the far end, since an edge
  // that is blocked usually fails within its first few states, while a free one costs all of its
  // states (walking outwards checked every free edge on the way).
  JointPath out{path.front()};
  std::size_t anchor = 0;
  while (anchor + 1 < path.size()) {
    std::size_t next = path.size() - 1;
    while (next > anchor + 1 && !space.motion_valid(path[anchor], path[next])) --next;
    out.push_back(path[next]);
    anchor = next;
  }
  path = std::move(out);
}

namespace {
// Point at arc length s along the path, and the index of the segment it lies on.
JointVector point_at(const JointPath& path, const std::vector<double>& cumulative, double s,
                     std::size_t& segment) {
  segment = std::upper_bound(cumulative.begin(), cumulative.end(), s) - cumulative.begin();
  segment = std::clamp<std::size_t>(segment, 1, path.size() - 1);
  const double length = cumulative[segment] - cumulative[segment - 1];
  const double t = length > 0 ? (s - cumulative[segment - 1]) / length : 0.0;
  return path[segment - 1] + (path[segment] - path[segment - 1]) * t;
}

// A valid shortcut costs a full edge check and adds up to two waypoints (more segments for
// smoothing and the gates). Slivers saving less than this fraction of the path's length took
// two thirds of shortcutting's time; skipping them left paths 0.6-1.9% longer (boxes20 scenes).
constexpr double kMinShortcutGain = 0.002;
// A free edge costs a check in proportion to its length, and most of shortcutting's time went to
// edges that saved little for their length: a shortcut must also save this fraction of its own
// length. Among 20 boxes plans took 25% less time (Panda 0.347 -> 0.258 ms median), paths 1% longer
// on average and no longer in median; 0.1 cut 2% more time for paths 2% longer.
constexpr double kMinShortcutGainPerLength = 0.05;
// Corners gentler than this are left as they are: time-optimal parameterization passes them at
// full speed (a blend within 0.05 rad of such a corner has a radius of several radians), so
// cutting them only adds waypoints, edge checks here and segments for the output gates.
constexpr double kMinCornerAngle = 0.25;  // rad, between the incoming and outgoing directions

double turning_angle(const JointVector& before, const JointVector& corner,
                     const JointVector& after) {
  const JointVector in = corner - before, out = after - corner;
  const double norms = in.norm() * out.norm();
  if (norms <= 0.0) return 0.0;
  return std::acos(std::clamp(in.dot(out) / norms, -1.0, 1.0));
}
}  // namespace

void shortcut_path(PlanningSpace& space, JointPath& path, int passes, std::mt19937_64& rng,
                   SearchClock& clock) {
  std::vector<double> cumulative;
  // Once this many attempts in a row changed nothing the path is (nearly) locally shortest and
  // further attempts are mostly wasted edge checks (OMPL's shortcutPath stops the same way).
  const int give_up_after = std::max(16, passes / 4);
  int unchanged = 0;
  for (int pass = 0; pass < passes && path.size() >= 3 && unchanged < give_up_after;
       ++pass, ++unchanged) {
    clock.poll("shortcutting", pass, static_cast<int>(path.size()));
    cumulative.assign(1, 0.0);
    for (std::size_t i = 1; i < path.size(); ++i)
      cumulative.push_back(cumulative.back() + (path[i] - path[i - 1]).norm());
    const double total = cumulative.back();
    if (total <= 0.0) return;
    std::uniform_real_distribution<double> along(0.0, total);
    double a = along(rng), b = along(rng);
    if (a > b) std::swap(a, b);
    std::size_t seg_a = 0, seg_b = 0;
    // Snap points close to a waypoint onto it, so shortcuts between waypoints happen too.
    JointVector qa = point_at(path, cumulative, a, seg_a);
    JointVector qb = point_at(path, cumulative, b, seg_b);
    if (seg_a == seg_b) continue;  // same segment: already straight
    if ((qa - path[seg_a - 1]).norm() < 1e-3 * total) qa = path[seg_a - 1];
    if ((qb - path[seg_b]).norm() < 1e-3 * total) qb = path[seg_b];
    const double before = b - a, after = (qb - qa).norm();
    const double gain = before - after;
    if (gain < kMinShortcutGain * total || gain < kMinShortcutGainPerLength * after) continue;
    // The edge first: three tries in four fail in its interior, and then the two end states
    // (points of edges already checked, nearly always valid) would be checked for nothing.
    // A point snapped onto a waypoint is a state of the path: valid already.
    const bool a_known = qa == path[seg_a - 1], b_known = qb == path[seg_b];
    if (!space.motion_valid(qa, qb) || (!a_known && !space.valid(qa)) ||
        (!b_known && !space.valid(qb)))
      continue;
    JointPath next(path.begin(), path.begin() + static_cast<long>(seg_a));
    if (qa != next.back()) next.push_back(qa);
    if (qb != path[seg_b]) next.push_back(qb);
    next.insert(next.end(), path.begin() + static_cast<long>(seg_b), path.end());
    path = std::move(next);
    unchanged = -1;  // the loop's increment makes it 0
  }
}

void smooth_path(PlanningSpace& space, JointPath& path, int rounds, SearchClock& clock) {
  for (int round = 0; round < rounds && path.size() >= 3; ++round) {
    clock.poll("smoothing", round, static_cast<int>(path.size()));
    JointPath next{path.front()};
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      const JointVector& corner = path[i];
      if (turning_angle(path[i - 1], corner, path[i + 1]) < kMinCornerAngle) {
        next.push_back(corner);
        continue;
      }
      // Cut points on the two edges at a corner: 3/4 of the way in, 1/4 of the way out
      // (half of Chaikin's 1/4 when the edge is shared with another cut). Only the edge across
      // the corner is new: the pieces from the last kept point to `in` and from `out` on lie
      // on edges of the path, checked already (as shortcutting keeps the pieces it cuts edges to).
      const JointVector in = corner + (path[i - 1] - corner) * 0.25;
      const JointVector out = corner + (path[i + 1] - corner) * 0.25;
      if (space.segment_valid(in, out)) {
        next.push_back(in);
        next.push_back(out);
      } else {
        next.push_back(corner);
      }
    }
    next.push_back(path.back());
    path = std::move(next);
  }
}

}  // namespace kinetic
