// Contiguous sample storage of Trajectory: the samples() view reads back exactly what was given,
// converts to owning samples, and bad storage is refused with a message naming what is wrong —
// also when the generators' SampleBuilder writes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numbers>
#include <random>

#include "engine/core/error.hpp"
#include "engine/trajectory/sample_builder.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trapezoidal.hpp"

namespace kinetic {
namespace {

std::vector<TrajectorySample> ramp_samples() {
  std::vector<TrajectorySample> samples;
  for (int i = 0; i < 4; ++i) {
    const double x = static_cast<double>(i);
    samples.push_back({0.5 * x, JointVector::Constant(2, x), JointVector::Constant(2, 10 + x),
                       JointVector::Constant(2, 20 + x)});
  }
  return samples;
}

TEST(TrajectoryStorage, ViewReadsBackEverySampleExactly) {
  const std::vector<TrajectorySample> given = ramp_samples();
  const Trajectory t("test", {"a", "b"}, {}, given);
  const TrajectorySamples view = t.samples();
  ASSERT_EQ(view.size(), given.size());
  std::size_t i = 0;
  for (const auto& s : view) {
    EXPECT_EQ(s.t, given[i].t);
    EXPECT_EQ(JointVector(s.position), given[i].position);
    EXPECT_EQ(JointVector(s.velocity), given[i].velocity);
    EXPECT_EQ(JointVector(s.acceleration), given[i].acceleration);
    ++i;
  }
  EXPECT_EQ(i, given.size());
  EXPECT_EQ(view.back().t, 1.5);
  EXPECT_EQ(view.end() - view.begin(), 4);
  EXPECT_EQ((view.begin() + 2)->t, 1.0);
  // Random-access iterators work with the standard algorithms.
  const auto late = std::find_if(view.begin(), view.end(),
                                 [](const TrajectorySampleRef& s) { return s.t > 0.7; });
  EXPECT_EQ(late - view.begin(), 2);
  const TrajectorySample owned = view[3];
  EXPECT_EQ(owned.acceleration, JointVector::Constant(2, 23.0));
  const std::vector<TrajectorySample> copies = view.to_vector();
  EXPECT_TRUE(Trajectory("test", {"a", "b"}, {}, copies) == t);
}

TEST(TrajectoryStorage, FromStorageMatchesTheSampleConstructor) {
  const std::vector<TrajectorySample> given = ramp_samples();
  std::vector<double> times, values;
  for (const auto& s : given) {
    times.push_back(s.t);
    for (const JointVector* v : {&s.position, &s.velocity, &s.acceleration})
      values.insert(values.end(), v->data(), v->data() + v->size());
  }
  const Trajectory a = Trajectory::from_storage("test", {"a", "b"}, {}, times, values, {0.0, 1.5});
  const Trajectory b("test", {"a", "b"}, {}, given, {0.0, 1.5});
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.units().size(), 2u);  // units default to radians, as with the other constructor
}

TEST(TrajectoryStorage, RefusesStorageOfTheWrongSizeOrNonFiniteValues) {
  try {
    (void)Trajectory::from_storage("test", {"a", "b"}, {}, {0.0, 1.0},
                                   std::vector<double>(11, 0.0));
    FAIL() << "storage of the wrong size was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DimensionMismatch);
    EXPECT_NE(std::string(e.what()).find("11 values for 2 samples of 2 joints"), std::string::npos)
        << e.what();
  }
  std::vector<double> values(12, 0.0);
  values[2 * 3 + 5] = std::numeric_limits<double>::quiet_NaN();  // sample 1, acceleration of 'b'
  try {
    (void)Trajectory::from_storage("test", {"a", "b"}, {}, {0.0, 1.0}, values);
    FAIL() << "a NaN was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(std::string(e.what()).find("sample 1: acceleration of joint 'b'"), std::string::npos)
        << e.what();
  }
  std::vector<TrajectorySample> short_one = ramp_samples();
  short_one[2].velocity = JointVector::Zero(3);
  EXPECT_THROW(Trajectory("test", {"a", "b"}, {}, short_one), Error);
}

// The generators' builder checks values as it writes them and hands over without a second pass:
// steps, dropped repeats and growth past the expected size must still come out right, and a value
// that is not finite must still be refused by name.
TEST(TrajectoryStorage, SampleBuilderWritesStepsGrowsAndRefusesWhatIsNotFinite) {
  const double q[2] = {1.0, 2.0}, dq[2] = {0.5, -0.5}, ddq[2] = {0.25, 4.0};
  detail::SampleBuilder builder(2, 1);  // expects one sample, gets many
  builder.push_path_point(0.0, q, dq, ddq, 2.0, 4.0, 1.0);
  builder.push_path_point(1.0, q, dq, ddq, 2.0, 4.0, 1.0);
  builder.push_path_point(1.0, q, dq, ddq, 2.0, 4.0, 3.0);          // same instant, new q̈: a step
  builder.push_path_point(1.0 + 1e-12, q, dq, ddq, 2.0, 4.0, 3.0);  // same instant and q̈: dropped
  for (int i = 2; i < 100; ++i)
    builder.push(static_cast<double>(i), JointVector::Constant(2, i), JointVector::Zero(2),
                 JointVector::Ones(2));
  const Trajectory t = builder.take("test", {"a", "b"}, {}, {});
  const TrajectorySamples samples = t.samples();
  ASSERT_EQ(samples.size(), 101u);
  EXPECT_EQ(samples[1].t, 1.0);
  EXPECT_EQ(samples[2].t, 1.0);
  EXPECT_EQ(JointVector(samples[2].position), JointVector(samples[1].position));
  EXPECT_EQ(JointVector(samples[1].velocity), (JointVector(2) << 1.0, -1.0).finished());  // q' ṡ
  // q̈ = q'' ṡ² + q' s̈, before and after the step
  EXPECT_EQ(JointVector(samples[1].acceleration), (JointVector(2) << 1.5, 15.5).finished());
  EXPECT_EQ(JointVector(samples[2].acceleration), (JointVector(2) << 2.5, 14.5).finished());
  EXPECT_EQ(samples.back().position[1], 99.0);

  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  const double bad_dq[2] = {0.5, nan};
  detail::SampleBuilder with_nan(2, 4);
  with_nan.push_path_point(0.0, q, dq, ddq, 2.0, 4.0, 1.0);
  with_nan.push_path_point(1.0, q, bad_dq, ddq, 2.0, 4.0, 1.0);
  try {
    (void)with_nan.take("test", {"a", "b"}, {}, {});
    FAIL() << "a NaN velocity was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sample 1: velocity of joint 'b'"), std::string::npos)
        << e.what();
  }
  detail::SampleBuilder with_inf_step(2, 4);
  with_inf_step.push_path_point(0.0, q, dq, ddq, 2.0, 4.0, 1.0);
  with_inf_step.push_path_point(0.0, q, dq, ddq, 2.0, 4.0, inf);  // the step's q̈ is infinite
  EXPECT_THROW((void)with_inf_step.take("test", {"a", "b"}, {}, {}), Error);
  detail::SampleBuilder with_inf(2, 4);
  with_inf.push(0.0, JointVector::Zero(2), JointVector::Constant(2, inf), JointVector::Zero(2));
  EXPECT_THROW((void)with_inf.take("test", {"a", "b"}, {}, {}), Error);
}

TEST(TrajectoryStorage, GeneratorsKeepWorkingAcrossRepeatedCalls) {
  // Time-optimal reuses per-thread working memory: a long path then a short one then the long one
  // again must give the same results as fresh calls.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> step(-0.3, 0.3);
  JointPath long_path{JointVector::Zero(6)};
  for (int i = 0; i < 40; ++i) {
    JointVector q = long_path.back();
    for (Eigen::Index j = 0; j < 6; ++j) q[j] += step(rng);
    long_path.push_back(q);
  }
  const JointPath short_path{JointVector::Zero(6), JointVector::Constant(6, 0.4),
                             JointVector::Constant(6, 0.1)};
  const auto limits =
      TrajectoryLimits::uniform(6, std::numbers::pi, 2 * std::numbers::pi, 20 * std::numbers::pi);
  const Trajectory first = time_optimal(long_path, limits);
  const Trajectory small = time_optimal(short_path, limits);
  EXPECT_TRUE(time_optimal(long_path, limits) == first);
  EXPECT_TRUE(time_optimal(short_path, limits) == small);
  EXPECT_GT(first.samples().size(), small.samples().size());
  EXPECT_TRUE(trapezoidal(long_path, limits) == trapezoidal(long_path, limits));
}

}  // namespace
}  // namespace kinetic
