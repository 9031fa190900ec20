#pragma once
// Trajectory: a timed joint-space motion a controller can run.
//
// Representation (documented in docs/trajectory-format.md): a list of samples (t, q, q̇, q̈) in
// non-decreasing time. Between two consecutive samples the motion is the unique quintic polynomial
// that matches position, velocity and acceleration at both ends (the rule ROS controllers use when
// all three are given). Every generator in this folder places samples so that this rule reproduces
// its profile: trapezoidal, S-curve and cubic-spline profiles are polynomials of degree ≤ 3 between
// their knots (reproduced exactly); the time-optimal profile is sampled on its phase-plane grid.
// An acceleration step (trapezoidal ramps, bang-bang switches) is written as two samples with the
// same t, q and q̇ and the acceleration before and after; sample(t) at that instant returns the
// value after the step.
//
// Storage: all samples live in two contiguous buffers (times, and q, q̇, q̈ per sample), so a
// time-optimal trajectory of thousands of samples costs two allocations, not three per sample.
// samples() is a read-only view of them.
#include <compare>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

using JointPath = std::vector<JointVector>;  // geometric path: waypoints in joint space

namespace detail {
class SampleBuilder;
}

enum class PositionUnit { Radian, Metre };
const char* to_string(PositionUnit unit);  // "rad" | "m"

// A sample as a value (what callers build a Trajectory from).
struct TrajectorySample {
  double t = 0.0;            // s from the start
  JointVector position;      // q
  JointVector velocity;      // q̇
  JointVector acceleration;  // q̈
};

// A sample inside a Trajectory: views of its storage, valid while the trajectory lives unchanged.
// Converts to an owning TrajectorySample.
struct TrajectorySampleRef {
  double t;
  Eigen::Map<const JointVector> position, velocity, acceleration;

  operator TrajectorySample() const { return {t, position, velocity, acceleration}; }
};

// The samples of a Trajectory, a random-access range of TrajectorySampleRef (by value).
class TrajectorySamples {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = TrajectorySampleRef;
    using difference_type = std::ptrdiff_t;
    using reference = TrajectorySampleRef;
    struct pointer {  // what operator-> returns: the reference, kept alive for the expression
      TrajectorySampleRef ref;
      const TrajectorySampleRef* operator->() const { return &ref; }
    };

    iterator() = default;
    iterator(const TrajectorySamples* range, std::size_t index) : range_(range), index_(index) {}
    reference operator*() const { return (*range_)[index_]; }
    pointer operator->() const { return {**this}; }
    reference operator[](difference_type n) const {
      return (*range_)[index_ + static_cast<std::size_t>(n)];
    }
    iterator& operator++() {
      ++index_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++index_;
      return old;
    }
    iterator& operator--() {
      --index_;
      return *this;
    }
    iterator operator--(int) {
      iterator old = *this;
      --index_;
      return old;
    }
    iterator& operator+=(difference_type n) {
      index_ += static_cast<std::size_t>(n);
      return *this;
    }
    iterator& operator-=(difference_type n) {
      index_ -= static_cast<std::size_t>(n);
      return *this;
    }
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.index_ <=> b.index_; }

   private:
    const TrajectorySamples* range_ = nullptr;
    std::size_t index_ = 0;
  };

  TrajectorySamples(const double* times, const double* values, std::size_t count, Eigen::Index dof)
      : times_(times), values_(values), count_(count), dof_(dof) {}

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  TrajectorySampleRef operator[](std::size_t i) const {
    const double* v = values_ + i * 3 * static_cast<std::size_t>(dof_);
    return {times_[i], Eigen::Map<const JointVector>(v, dof_),
            Eigen::Map<const JointVector>(v + dof_, dof_),
            Eigen::Map<const JointVector>(v + 2 * dof_, dof_)};
  }
  TrajectorySampleRef front() const { return (*this)[0]; }
  TrajectorySampleRef back() const { return (*this)[count_ - 1]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, count_}; }
  // Owning copies of all samples.
  std::vector<TrajectorySample> to_vector() const;

 private:
  const double* times_;
  const double* values_;
  std::size_t count_;
  Eigen::Index dof_;
};

// State at an arbitrary time (what sample(t) returns).
struct TrajectoryState {
  double t = 0.0;
  JointVector position, velocity, acceleration;
};

class Trajectory {
 public:
  Trajectory() = default;
  Trajectory(std::string robot, std::vector<std::string> joint_names,
             std::vector<PositionUnit> units, const std::vector<TrajectorySample>& samples,
             std::vector<double> waypoint_times = {});
  // From contiguous storage: times[i] and values[3 dof i ...] = q, q̇, q̈ of sample i (what the
  // generators build, without a per-sample allocation).
  static Trajectory from_storage(std::string robot, std::vector<std::string> joint_names,
                                 std::vector<PositionUnit> units, std::vector<double> times,
                                 std::vector<double> values,
                                 std::vector<double> waypoint_times = {});

  const std::string& robot() const { return robot_; }
  const std::vector<std::string>& joint_names() const { return joint_names_; }
  const std::vector<PositionUnit>& units() const { return units_; }
  // A view of the samples, valid while this trajectory lives unchanged.
  TrajectorySamples samples() const {
    return {times_.data(), values_.data(), times_.size(),
            static_cast<Eigen::Index>(joint_names_.size())};
  }
  // Time at which each waypoint of the source path is reached (for blended time-optimal paths:
  // the middle of the blend, the closest approach).
  const std::vector<double>& waypoint_times() const { return waypoint_times_; }

  int dof() const { return static_cast<int>(joint_names_.size()); }
  bool empty() const { return times_.empty(); }
  double duration() const { return times_.empty() ? 0.0 : times_.back() - times_.front(); }
  double start_time() const { return times_.empty() ? 0.0 : times_.front(); }
  double end_time() const { return times_.empty() ? 0.0 : times_.back(); }

  // State at time t (clamped into [start_time, end_time]); throws InvalidValue when empty or t is
  // NaN.
  TrajectoryState sample(double t) const;
  // Third derivative (jerk) of the interpolating polynomial at t; at an acceleration step the
  // step itself is not a finite jerk and is reported by validate_trajectory() instead.
  JointVector jerk(double t) const;

  // Checks the invariants (sizes, finite values, non-decreasing time); throws Error naming the
  // sample and joint. Constructors call it.
  void check() const;

  // Bitwise equality of every double (so -0.0 != 0.0): what "import(export(x)) == x" means.
  friend bool operator==(const Trajectory& a, const Trajectory& b);

 private:
  friend class detail::SampleBuilder;
  // from_storage for values the generators' SampleBuilder found finite as it wrote them: check()
  // without its second pass over the whole value buffer (a megabyte for a long TOTP trajectory).
  static Trajectory from_finite_storage(std::string robot, std::vector<std::string> joint_names,
                                        std::vector<PositionUnit> units, std::vector<double> times,
                                        std::vector<double> values,
                                        std::vector<double> waypoint_times);
  // The parts as they are, unchecked.
  static Trajectory adopt(std::string robot, std::vector<std::string> joint_names,
                          std::vector<PositionUnit> units, std::vector<double> times,
                          std::vector<double> values, std::vector<double> waypoint_times);
  void check(bool scan_values) const;
  // Index i of the interval [sample i, sample i+1] holding t (right-continuous).
  std::size_t interval_index(double t) const;
  std::size_t stride() const { return 3 * joint_names_.size(); }
  const double* values_of(std::size_t i) const { return values_.data() + i * stride(); }
  // Writes q, q̇, q̈ of the state at t (clamped, not NaN) into the three outputs (dof values each).
  void interpolate(double t, double* q, double* qd, double* qdd) const;

  std::string robot_;
  std::vector<std::string> joint_names_;
  std::vector<PositionUnit> units_;
  std::vector<double> times_;
  std::vector<double> values_;  // per sample: q, q̇, q̈ (dof values each)
  std::vector<double> waypoint_times_;
};

// Makes a sample from its parts (sizes are checked by Trajectory::check()).
TrajectorySample make_sample(double t, JointVector q, JointVector qd, JointVector qdd);

}  // namespace kinetic
