#include "viewer/mesh_library.hpp"

#include <cstdio>

#include "viewer/closed_shells.hpp"
#include "viewer/error.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

namespace {

std::string number_key(const char* kind, std::initializer_list<float> values) {
  std::string key = kind;
  char buffer[32];
  for (float v : values) {
    std::snprintf(buffer, sizeof buffer, ":%.6g", static_cast<double>(v));
    key += buffer;
  }
  return key;
}

}  // namespace

MeshId MeshLibrary::load(const std::filesystem::path& path) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(path, ec);
  const std::string key = "file:" + (ec ? path.string() : canonical.string());
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return add(key, load_mesh_file(path));
}

MeshId MeshLibrary::add(const std::string& key, const MeshData& mesh) {
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  if (mesh.indices.empty()) throw Error("mesh '" + key + "' has no triangles");
  GpuMesh gpu;
  std::vector<uint32_t> indices = mesh.indices;
  gpu.closed_index_count = order_closed_shells_first(mesh.vertices, indices);
  gpu.vertices = GpuBuffer::device_local(context_, mesh.vertices.data(), mesh.vertices.size() * sizeof(MeshVertex),
                                         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  gpu.indices = GpuBuffer::device_local(context_, indices.data(), indices.size() * sizeof(uint32_t),
                                        VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  gpu.index_count = static_cast<uint32_t>(indices.size());
  gpu.has_colors = mesh.has_colors;
  gpu.bounds_min = mesh.bounds_min();
  gpu.bounds_max = mesh.bounds_max();
  gpu.positions.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices) gpu.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
  gpu.triangles = std::move(indices);
  meshes_.push_back(std::move(gpu));
  const auto id = static_cast<MeshId>(meshes_.size() - 1);
  by_key_.emplace(key, id);
  return id;
}

MeshId MeshLibrary::box(const Vec3& size) {
  const auto key = number_key("box", {size.x(), size.y(), size.z()});
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return add(key, make_box(size));
}

MeshId MeshLibrary::sphere(float radius) {
  const auto key = number_key("sphere", {radius});
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return add(key, make_sphere(radius));
}

MeshId MeshLibrary::cylinder(float radius, float length) {
  const auto key = number_key("cylinder", {radius, length});
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return add(key, make_cylinder(radius, length));
}

MeshId MeshLibrary::capsule(float radius, float length) {
  const auto key = number_key("capsule", {radius, length});
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return add(key, make_capsule(radius, length));
}

const GpuMesh& MeshLibrary::get(MeshId id) const {
  if (id >= meshes_.size()) throw Error("unknown mesh id " + std::to_string(id));
  return meshes_[id];
}

}  // namespace kinetic::viewer
