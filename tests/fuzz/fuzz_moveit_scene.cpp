// MoveIt scene files, the same bytes read as planning-scene YAML and as .scene text
// (moveit_scene_from_yaml / moveit_scene_from_text): only kinetic::Error may come out.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/core/error.hpp"
#include "engine/scene/moveit_scene_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = kinetic::fuzz::text(data, size);
  try {
    kinetic::moveit_scene_from_yaml(text, "<fuzz scene.yaml>");
  } catch (const kinetic::Error&) {
  }
  try {
    kinetic::moveit_scene_from_text(text, "<fuzz .scene>");
  } catch (const kinetic::Error&) {
  }
  return 0;
}
