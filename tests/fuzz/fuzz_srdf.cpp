// SRDF text, read alone and against a robot (parse_srdf): only kinetic::Error may come out.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/model/srdf_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml = kinetic::fuzz::text(data, size);
  std::vector<std::string> warnings;
  try {
    kinetic::parse_srdf(xml, "<fuzz srdf>", nullptr, &warnings);
  } catch (const kinetic::Error&) {
  }
  try {
    kinetic::parse_srdf(xml, "<fuzz srdf>", &kinetic::fuzz::reference_robot(), &warnings);
  } catch (const kinetic::Error&) {
  }
  return 0;
}
