#pragma once
// Paths the tests use. The real robots live in ../shared/robots; tests that need them call
// require_shared_robots(), which skips the test with a message when the folder is absent.
#include <gtest/gtest.h>

#include <string>

namespace kinetic::test {

std::string shared_robots_dir();       // "" when absent
std::string example_robot_data_dir();  // .../example-robot-data ("" when absent)
std::string test_source_dir();         // tests/ in the source tree
bool shared_robots_available();
// ../shared/mbm/panda (MotionBenchMaker's problems and robot; beside ../shared/robots); "" when
// absent.
std::string mbm_panda_dir();

}  // namespace kinetic::test

// Skips the current test, with a message, when ../shared/robots is absent.
#define KINETIC_REQUIRE_SHARED_ROBOTS()                                                   \
  do {                                                                                    \
    if (!::kinetic::test::shared_robots_available())                                      \
      GTEST_SKIP() << "../shared/robots is absent: tests on the real robots are skipped"; \
  } while (0)

// Skips the current test, with a message, when ../shared/mbm/panda is absent.
#define KINETIC_REQUIRE_MBM()                                                                \
  do {                                                                                       \
    if (::kinetic::test::mbm_panda_dir().empty())                                            \
      GTEST_SKIP()                                                                           \
          << "../shared/mbm/panda is absent: tests on MotionBenchMaker's files are skipped"; \
  } while (0)
