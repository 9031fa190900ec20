#pragma once
// Internal helper of the time parameterizations: appends samples in time order and writes an
// acceleration step as two samples at the same time (see trajectory.hpp), dropping the second
// one when nothing changes. Takes Eigen expressions, so a value is only materialised (one
// allocation per vector) when it becomes part of a sample.
#include <utility>
#include <vector>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic::detail {

class SampleBuilder {
 public:
  static constexpr double kSameInstant = 1e-9;  // s

  explicit SampleBuilder(std::size_t expected = 0) { samples_.reserve(expected); }

  // q, qd, qdd: JointVectors (moved in when given as rvalues) or Eigen expressions; none may
  // refer to a sample already pushed.
  template <class Q, class V, class A>
  void push(double t, Q&& q, V&& qd, A&& qdd) {
    if (!samples_.empty()) {
      TrajectorySample& last = samples_.back();
      // Instants closer than a nanosecond are one instant: a sliver of an interval would make the
      // interpolating quintic (and its jerk) numerically meaningless.
      if (t <= last.t + kSameInstant) {
        t = last.t;  // same instant: keep a single time stamp
        const double scale = 1.0 + last.acceleration.cwiseAbs().maxCoeff();
        if ((qdd - last.acceleration).cwiseAbs().maxCoeff() <= 1e-12 * scale) return;
        if (samples_.size() >= 2 && samples_[samples_.size() - 2].t == t) {
          last.acceleration = std::forward<A>(qdd);  // already a step here: the newest value is the one after it
          return;
        }
        TrajectorySample step{t, last.position, last.velocity, JointVector(std::forward<A>(qdd))};
        samples_.push_back(std::move(step));
        return;
      }
    }
    samples_.push_back({t, JointVector(std::forward<Q>(q)), JointVector(std::forward<V>(qd)),
                        JointVector(std::forward<A>(qdd))});
  }
  double last_time() const { return samples_.empty() ? 0.0 : samples_.back().t; }
  std::vector<TrajectorySample> take() { return std::move(samples_); }

 private:
  std::vector<TrajectorySample> samples_;
};

}  // namespace kinetic::detail
