#pragma once
// Deadlines and sample counts for the sanitizer build. Tests of time-limited searches (planning,
// numeric IK) check answers, not speed (speed is the benchmarks' business), so a deadline only has
// to be out of reach: a search that hits it answers differently (fewer restarts, no refinement, no
// path) and the test fails for a reason that has nothing to do with what it checks. Sanitizer
// builds run 10-20x slower than the optimised one, and CI runs two tests at once on two cores
// beside lavapipe. Tests that compare against a reference on many random cases take fewer there:
// the sanitizers look for memory and undefined-behaviour errors on every path, which a few hundred
// cases reach as well as thousands; the optimised build keeps the statistics.
namespace kinetic::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
inline constexpr double kBuildSlowdown = 20.0;
#else
inline constexpr bool kSanitized = false;
inline constexpr double kBuildSlowdown = 1.0;
#endif

// `optimised_ms`: a deadline that is already ample (10x or more) for the optimised build.
constexpr double generous_ms(double optimised_ms) {
  return optimised_ms * kBuildSlowdown;
}

// How many random cases a comparison draws: `optimised` in the optimised build, `sanitized` under
// the sanitizers.
constexpr int cases(int optimised, int sanitized) {
  return kSanitized ? sanitized : optimised;
}

}  // namespace kinetic::test
