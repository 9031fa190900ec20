// xacro text -> URDF text (xacro::expand): only kinetic::Error may come out, within the
// expansion's own limits (xacro_limits.hpp). The document sits in an empty folder, so relative
// includes find nothing; $(find) finds no package.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_processor.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (kinetic::fuzz::scratch_dir() / "robot.urdf.xacro").string();
  kinetic::xacro::ExpandOptions options;
  options.args = {{"prefix", "fuzz_"}};
  options.find_package = [](const std::string&) { return std::optional<std::string>(); };
  try {
    kinetic::xacro::expand(kinetic::fuzz::text(data, size), path, options);
  } catch (const kinetic::Error&) {
  }
  return 0;
}
