// Kinetic scene JSON (scene_from_json): only kinetic::Error may come out, and a scene that loads
// saves to JSON that loads again (a saved scene the studio cannot open would lose the user's work).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "engine/core/error.hpp"
#include "engine/scene/scene_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kinetic::PlanningScene scene;
  try {
    scene =
        kinetic::scene_from_json(kinetic::fuzz::text(data, size), "<fuzz scene>", "/nonexistent");
  } catch (const kinetic::Error&) {
    return 0;
  }
  try {
    kinetic::scene_from_json(kinetic::scene_to_json(scene), "<saved fuzz scene>", "/nonexistent");
  } catch (const kinetic::Error& e) {
    std::fprintf(stderr, "a scene that loaded does not load once saved: %s\n", e.what());
    std::abort();
  }
  return 0;
}
