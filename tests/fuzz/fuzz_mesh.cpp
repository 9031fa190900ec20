// Mesh bytes through the collision mesh path (load_collision_mesh: the mesh file check, Assimp,
// our triangle collection, then the FCL BVH): only kinetic::Error may come out. The reader takes
// a path and Assimp picks its importer by extension, so the bytes go to a file named as their
// content suggests: COLLADA for XML, PLY, OBJ for other text, else (binary) STL.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/core/error.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

bool starts_with(const uint8_t* data, size_t size, const char* prefix) {
  const size_t n = std::strlen(prefix);
  return size >= n && std::memcmp(data, prefix, n) == 0;
}

const char* extension_for(const uint8_t* data, size_t size) {
  if (starts_with(data, size, "<")) return ".dae";
  if (starts_with(data, size, "ply")) return ".ply";
  if (starts_with(data, size, "solid")) return ".stl";
  for (size_t i = 0; i < size && i < 256; ++i)
    if (data[i] == 0 || data[i] >= 0x80) return ".stl";  // binary
  return ".obj";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = kinetic::fuzz::write_scratch_file(
      data, size, std::string("mesh") + extension_for(data, size));
  try {
    // Not kept: the cache holds meshes weakly, so the next input is read afresh.
    const auto mesh = kinetic::load_collision_mesh(path.string());
    mesh->bvh();
  } catch (const kinetic::Error&) {
  }
  return 0;
}
