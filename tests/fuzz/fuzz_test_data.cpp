// The one file that knows where the checkout's tests/data is: a path in a compile line makes the
// compiler cache miss in a clone at another path, and on every fuzz target's files it cost ~40
// compiles per fresh clone; here it costs one.
#include "tests/fuzz/fuzz_support.hpp"

namespace kinetic::fuzz {

const char* test_data_dir() {
  return KINETIC_FUZZ_TEST_DATA;
}

}  // namespace kinetic::fuzz
