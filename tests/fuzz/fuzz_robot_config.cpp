// kinetic.toml text (parse_robot_config), then checked against a robot (validate_robot_config):
// only kinetic::Error may come out.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/model/config_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> warnings;
  try {
    const kinetic::RobotConfig config = kinetic::parse_robot_config(
        kinetic::fuzz::text(data, size), "<fuzz kinetic.toml>", &warnings);
    kinetic::validate_robot_config(config, kinetic::fuzz::reference_robot(), "<fuzz kinetic.toml>");
  } catch (const kinetic::Error&) {
  }
  return 0;
}
