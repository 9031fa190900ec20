// URDF text -> robot model (load_robot_string): only kinetic::Error may come out.
#include <cstddef>
#include <cstdint>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    kinetic::load_robot_string(kinetic::fuzz::text(data, size));
  } catch (const kinetic::Error&) {
  }
  return 0;
}
