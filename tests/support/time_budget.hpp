#pragma once
// Deadlines for tests of time-limited searches (planning, numeric IK). Those tests check answers,
// not speed (speed is the benchmarks' business), so a deadline only has to be out of reach: a
// search that hits it answers differently (fewer restarts, no refinement, no path) and the test
// fails for a reason that has nothing to do with what it checks. Sanitizer builds run 10-20x
// slower than the optimised one, and CI runs two tests at once on two cores beside lavapipe.
namespace kinetic::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kBuildSlowdown = 20.0;
#else
inline constexpr double kBuildSlowdown = 1.0;
#endif

// `optimised_ms`: a deadline that is already ample (10x or more) for the optimised build.
constexpr double generous_ms(double optimised_ms) {
  return optimised_ms * kBuildSlowdown;
}

}  // namespace kinetic::test
