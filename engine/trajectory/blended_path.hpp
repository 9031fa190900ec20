#pragma once
// A waypoint path made differentiable (Kunz & Stilman 2012, the path behind MoveIt's TOTG):
// straight joint-space segments joined by circular arcs tangent to both neighbours, each arc
// staying within max_deviation of its waypoint and using at most half of each neighbouring
// segment. Parameterised by arc length s, so |q'(s)| = 1 and q''(s) is zero on lines and points to
// the arc centre with length 1/r on arcs.
#include <vector>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

class BlendedPath {
 public:
  struct Piece {
    bool arc = false;
    double start = 0.0;   // s at the start of the piece
    double length = 0.0;  // arc length
    // Line: q = origin + direction * (s - start). Arc: q = centre + radius (x cos θ + y sin θ),
    // θ = (s - start) / radius ∈ [0, angle].
    JointVector origin, direction;
    JointVector centre, x, y;
    double radius = 0.0, angle = 0.0;
  };

  // waypoints: at least two, no two consecutive ones equal, no turn of (nearly) 180° (split the
  // path there: it has to stop). max_deviation > 0. Throws Error(InvalidValue) otherwise.
  BlendedPath(const JointPath& waypoints, double max_deviation);

  double length() const { return length_; }
  const std::vector<Piece>& pieces() const { return pieces_; }
  // s of each waypoint's closest approach (the middle of its blend).
  const std::vector<double>& waypoint_positions() const { return waypoint_s_; }

  // q(s), q'(s), q''(s) within one piece (local = s - piece.start); any output may be null.
  static void evaluate(const Piece& piece, double local, JointVector* q, JointVector* dq,
                       JointVector* ddq);
  // The same at a path position (the piece holding s; at a boundary the later one).
  void evaluate(double s, JointVector* q, JointVector* dq, JointVector* ddq) const;

  // Largest turn angle (radians) the path accepts at a waypoint without stopping there.
  static constexpr double kMaxTurnAngle = 3.14159265358979323846 - 1e-3;

 private:
  std::vector<Piece> pieces_;
  std::vector<double> waypoint_s_;
  double length_ = 0.0;
};

}  // namespace kinetic
