// Trajectory JSON (trajectory_from_json): only kinetic::Error may come out, and a trajectory
// that loads exports to JSON that loads again (docs/trajectory-format.md: files round-trip).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "engine/core/error.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kinetic::Trajectory trajectory;
  try {
    trajectory = kinetic::trajectory_from_json(kinetic::fuzz::text(data, size), "<fuzz json>");
  } catch (const kinetic::Error&) {
    return 0;
  }
  try {
    kinetic::trajectory_from_json(kinetic::trajectory_to_json(trajectory), "<exported fuzz json>");
  } catch (const kinetic::Error& e) {
    std::fprintf(stderr, "a trajectory that loaded does not load once exported: %s\n", e.what());
    std::abort();
  }
  return 0;
}
