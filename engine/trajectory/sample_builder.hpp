#pragma once
// Internal helper of the time parameterizations: appends samples in time order straight into a
// trajectory's contiguous storage and writes an acceleration step as two samples at the same time
// (see trajectory.hpp), dropping the second one when nothing changes. Takes Eigen expressions,
// evaluated in place: no allocation per sample.
#include <utility>
#include <vector>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic::detail {

class SampleBuilder {
 public:
  static constexpr double kSameInstant = 1e-9;  // s

  // dof: values per vector; expected: samples to reserve room for.
  SampleBuilder(Eigen::Index dof, std::size_t expected) : n_(dof) {
    times_.reserve(expected);
    values_.reserve(expected * 3 * static_cast<std::size_t>(dof));
  }

  // q, qd, qdd: JointVectors or Eigen expressions of dof values; none may refer to this builder's
  // storage.
  template <class Q, class V, class A>
  void push(double t, const Q& q, const V& qd, const A& qdd) {
    if (!times_.empty()) {
      // Instants closer than a nanosecond are one instant: a sliver of an interval would make the
      // interpolating quintic (and its jerk) numerically meaningless.
      if (t <= times_.back() + kSameInstant) {
        t = times_.back();  // same instant: keep a single time stamp
        const auto last_acceleration = field(times_.size() - 1, 2);
        const double scale = 1.0 + last_acceleration.cwiseAbs().maxCoeff();
        if ((qdd - last_acceleration).cwiseAbs().maxCoeff() <= 1e-12 * scale) return;
        if (times_.size() >= 2 && times_[times_.size() - 2] == t) {
          field(times_.size() - 1, 2) = qdd;  // already a step here: the newest value is the one after it
          return;
        }
        // The step: a copy of the last position and velocity with the new acceleration.
        const std::size_t last = times_.size() - 1;
        append(t);
        field(last + 1, 0) = field(last, 0);
        field(last + 1, 1) = field(last, 1);
        field(last + 1, 2) = qdd;
        return;
      }
    }
    append(t);
    const std::size_t i = times_.size() - 1;
    field(i, 0) = q;
    field(i, 1) = qd;
    field(i, 2) = qdd;
  }
  double last_time() const { return times_.empty() ? 0.0 : times_.back(); }
  Trajectory take(std::string robot, std::vector<std::string> joint_names, std::vector<PositionUnit> units,
                  std::vector<double> waypoint_times) {
    return Trajectory::from_storage(std::move(robot), std::move(joint_names), std::move(units),
                                    std::move(times_), std::move(values_), std::move(waypoint_times));
  }

 private:
  void append(double t) {
    times_.push_back(t);
    values_.resize(values_.size() + 3 * static_cast<std::size_t>(n_));
  }
  // Field f (0: q, 1: q̇, 2: q̈) of sample i.
  Eigen::Map<JointVector> field(std::size_t i, int f) {
    return Eigen::Map<JointVector>(values_.data() + (3 * i + static_cast<std::size_t>(f)) * static_cast<std::size_t>(n_), n_);
  }

  Eigen::Index n_;
  std::vector<double> times_;
  std::vector<double> values_;
};

}  // namespace kinetic::detail
