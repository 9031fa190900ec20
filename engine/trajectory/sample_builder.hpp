#pragma once
// Internal helper of the time parameterizations: appends samples in time order straight into a
// trajectory's contiguous storage and writes an acceleration step as two samples at the same time
// (see trajectory.hpp), dropping the second one when nothing changes. Takes Eigen expressions,
// evaluated in place, or raw arrays (the time-optimal hot loop): no allocation per sample. Checks
// every value for finiteness as it writes it, so the Trajectory need not scan its buffer again.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/trajectory/trajectory.hpp"

namespace kinetic::detail {

class SampleBuilder {
 public:
  static constexpr double kSameInstant = 1e-9;  // s

  // dof: values per vector; expected: samples to make room for (more still fit, at a copy).
  SampleBuilder(Eigen::Index dof, std::size_t expected)
      : n_(static_cast<std::size_t>(dof)), scratch_(n_) {
    times_.reserve(expected);
    values_.reserve(expected * 3 * n_);
  }

  // q, qd, qdd: JointVectors or Eigen expressions of dof values; none may refer to this builder's
  // storage.
  template <class Q, class V, class A>
  void push(double t, const Q& q, const V& qd, const A& qdd) {
    if (count_ > 0 && t <= times_[count_ - 1] + kSameInstant) {
      // Instants closer than a nanosecond are one instant: a sliver of an interval would make the
      // interpolating quintic (and its jerk) numerically meaningless.
      t = times_[count_ - 1];  // same instant: keep a single time stamp
      const auto last_acceleration = field(count_ - 1, 2);
      const double scale = 1.0 + last_acceleration.cwiseAbs().maxCoeff();
      if ((qdd - last_acceleration).cwiseAbs().maxCoeff() <= 1e-12 * scale) return;
      if (count_ >= 2 && times_[count_ - 2] == t) {
        field(count_ - 1, 2) = qdd;  // already a step here: the newest value is the one after it
        note(values(count_ - 1) + 2 * n_, n_);
        return;
      }
      // The step: a copy of the last position and velocity with the new acceleration.
      const std::size_t last = count_ - 1;
      append(t);
      field(last + 1, 0) = field(last, 0);
      field(last + 1, 1) = field(last, 1);
      field(last + 1, 2) = qdd;
      note(values(last + 1) + 2 * n_, n_);
      return;
    }
    append(t);
    const std::size_t i = count_ - 1;
    field(i, 0) = q;
    field(i, 1) = qd;
    field(i, 2) = qdd;
    note(values(i), 3 * n_);
  }

  // The same rule for a point of a path q(s) passed at ṡ = sd (x = ṡ², given as well since
  // sd² need not round to it) and s̈ = u: q̇ = q' ṡ, q̈ = q'' ṡ² + q' s̈, from raw arrays of dof
  // values (the time-optimal hot loop: evaluated once, straight into the storage).
  void push_path_point(double t, const double* q, const double* dq, const double* ddq, double sd,
                       double x, double u) {
    const std::size_t n = n_;
    double* acceleration = scratch_.data();
    std::size_t j = 0;
#if defined(__SSE2__)
    const __m128d vx = _mm_set1_pd(x), vu = _mm_set1_pd(u);
    for (; j + 2 <= n; j += 2)
      _mm_storeu_pd(acceleration + j, _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(ddq + j), vx),
                                                 _mm_mul_pd(_mm_loadu_pd(dq + j), vu)));
#endif
    for (; j < n; ++j) acceleration[j] = ddq[j] * x + dq[j] * u;
    if (count_ > 0 && t <= times_[count_ - 1] + kSameInstant) {
      t = times_[count_ - 1];
      double* last_acceleration = values(count_ - 1) + 2 * n;
      if (!steps(last_acceleration, acceleration, n)) return;
      if (count_ >= 2 && times_[count_ - 2] == t) {
        non_finite_ |= scaled_copy(acceleration, 1.0, last_acceleration, n);
        return;
      }
      append(t);
      double* step = values(count_ - 1);
      scaled_copy(step - 3 * n, 1.0, step, 2 * n);
      non_finite_ |= scaled_copy(acceleration, 1.0, step + 2 * n, n);
      return;
    }
    append(t);
    double* sample = values(count_ - 1);
    non_finite_ |= scaled_copy(q, 1.0, sample, n) | scaled_copy(dq, sd, sample + n, n) |
                   scaled_copy(acceleration, 1.0, sample + 2 * n, n);
  }

  double last_time() const {
    return count_ == 0 ? 0.0 : times_[count_ - 1];
  }
  Trajectory take(std::string robot, std::vector<std::string> joint_names,
                  std::vector<PositionUnit> units, std::vector<double> waypoint_times) {
    times_.resize(count_);
    values_.resize(count_ * 3 * n_);
    count_ = 0;
    // Every value was checked as it was written (in cache): Trajectory's own pass over the whole
    // buffer only when one is not finite, to name it.
    if (non_finite_ != 0)
      return Trajectory::from_storage(std::move(robot), std::move(joint_names), std::move(units),
                                      std::move(times_), std::move(values_),
                                      std::move(waypoint_times));
    return Trajectory::from_finite_storage(std::move(robot), std::move(joint_names),
                                           std::move(units), std::move(times_), std::move(values_),
                                           std::move(waypoint_times));
  }

 private:
  // Storage grows a block of samples at a time: one call per block rather than per sample, and
  // the zeroing resize() does stays in the cache the samples are then written from.
  void append(double t) {
    if (count_ == times_.size()) {
      constexpr std::size_t kBlock = 64;
      times_.resize(count_ + kBlock);
      values_.resize(times_.size() * 3 * n_);
    }
    times_[count_++] = t;
  }
  double* values(std::size_t i) {
    return values_.data() + 3 * i * n_;
  }
  // Records whether any of `count` values just written is infinite or NaN.
  void note(const double* v, std::size_t count) {
    std::size_t i = 0;
#if defined(__SSE2__)
    __m128d any = _mm_setzero_pd();  // see scaled_copy()
    for (; i + 2 <= count; i += 2) {
      const __m128d value = _mm_loadu_pd(v + i);
      any = _mm_or_pd(any, _mm_sub_pd(value, value));
    }
    non_finite_ |= static_cast<std::uint64_t>(_mm_movemask_pd(_mm_cmpunord_pd(any, any)));
#endif
    for (; i < count; ++i) non_finite_ |= std::isfinite(v[i]) ? 0U : 1U;
  }
  // dst = src * scale, two at a time (same-sized loads and stores, so reading back a sample just
  // written forwards from the store buffer); returns non-zero when a value written is not finite.
  static std::uint64_t scaled_copy(const double* src, double scale, double* dst,
                                   std::size_t count) {
    std::size_t i = 0;
    std::uint64_t non_finite = 0;
#if defined(__SSE2__)
    // x - x is +0 (no bit set) exactly when x is finite, NaN otherwise; NaNs survive or-ing.
    const __m128d factor = _mm_set1_pd(scale);
    __m128d any = _mm_setzero_pd();
    for (; i + 2 <= count; i += 2) {
      const __m128d value = _mm_mul_pd(_mm_loadu_pd(src + i), factor);
      _mm_storeu_pd(dst + i, value);
      any = _mm_or_pd(any, _mm_sub_pd(value, value));
    }
    non_finite = static_cast<std::uint64_t>(_mm_movemask_pd(_mm_cmpunord_pd(any, any)));
#endif
    for (; i < count; ++i) {
      dst[i] = src[i] * scale;
      non_finite |= std::isfinite(dst[i]) ? 0U : 1U;
    }
    return non_finite;
  }
  // Whether the acceleration changes (the push() rule: by more than 1e-12 relative).
  static bool steps(const double* before, const double* after, std::size_t count) {
    double largest = 0.0, change = 0.0;
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128d sign = _mm_set1_pd(-0.0);
    __m128d large = _mm_setzero_pd(), diff = _mm_setzero_pd();
    for (; i + 2 <= count; i += 2) {
      const __m128d b = _mm_loadu_pd(before + i);
      large = _mm_max_pd(large, _mm_andnot_pd(sign, b));
      diff = _mm_max_pd(diff, _mm_andnot_pd(sign, _mm_sub_pd(_mm_loadu_pd(after + i), b)));
    }
    largest = std::max(_mm_cvtsd_f64(large), _mm_cvtsd_f64(_mm_unpackhi_pd(large, large)));
    change = std::max(_mm_cvtsd_f64(diff), _mm_cvtsd_f64(_mm_unpackhi_pd(diff, diff)));
#endif
    for (; i < count; ++i) {
      largest = std::max(largest, std::abs(before[i]));
      change = std::max(change, std::abs(after[i] - before[i]));
    }
    return !(change <= 1e-12 * (1.0 + largest));
  }
  // Field f (0: q, 1: q̇, 2: q̈) of sample i.
  Eigen::Map<JointVector> field(std::size_t i, int f) {
    return Eigen::Map<JointVector>(values(i) + static_cast<std::size_t>(f) * n_,
                                   static_cast<Eigen::Index>(n_));
  }

  std::size_t n_;
  std::size_t count_ = 0;
  std::uint64_t non_finite_ = 0;  // non-zero once a value written was not finite
  std::vector<double> scratch_;   // n_ values: an acceleration being pushed
  std::vector<double> times_;     // the first count_ are samples, the rest room for the next ones
  std::vector<double> values_;    // 3 n_ per entry of times_
};

}  // namespace kinetic::detail
