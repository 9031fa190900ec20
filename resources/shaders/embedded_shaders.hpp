#pragma once
// SPIR-V of every shader in resources/shaders, compiled by glslc at build time
// (resources/CMakeLists.txt).
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace kinetic::shaders {

// The SPIR-V words of a shader by its file name, e.g. "mesh.vert"; throws std::out_of_range if
// absent.
std::span<const uint32_t> spirv(std::string_view file_name);
std::vector<std::string_view> names();

}  // namespace kinetic::shaders
