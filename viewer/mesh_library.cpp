#include "viewer/mesh_library.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

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
  const std::string key = mesh_file_key(path);
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  std::optional<PreparedMesh> read;
  if (auto it = preloaded_.find(key); it != preloaded_.end()) {
    read = std::move(it->second);
    preloaded_.erase(it);
  } else if (file_cache_) {
    read = file_cache_->take(path);
  }
  if (!read) return upload(key, prepare_mesh(load_mesh_file(path)));
  if (!read->error.empty()) throw Error(read->error);
  return upload(key, std::move(*read));
}

void MeshLibrary::preload(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::string> keys;
  std::vector<std::filesystem::path> files;
  for (const auto& path : paths) {
    std::string key = mesh_file_key(path);
    if (by_key_.count(key) || preloaded_.count(key) ||
        std::find(keys.begin(), keys.end(), key) != keys.end())
      continue;
    keys.push_back(std::move(key));
    files.push_back(path);
  }
  std::vector<PreparedMesh> results = read_mesh_files(files);
  for (size_t i = 0; i < keys.size(); ++i)
    preloaded_.emplace(std::move(keys[i]), std::move(results[i]));
}

std::set<std::string> MeshLibrary::file_keys() const {
  std::set<std::string> keys;
  for (const auto& [key, id] : by_key_)
    if (key.rfind("file:", 0) == 0) keys.insert(key);
  return keys;
}

MeshId MeshLibrary::add(const std::string& key, const MeshData& mesh) {
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return upload(key, prepare_mesh(mesh));
}

MeshId MeshLibrary::upload(const std::string& key, PreparedMesh prepared) {
  const MeshData& mesh = prepared.mesh;
  if (mesh.indices.empty()) throw Error("mesh '" + key + "' has no triangles");
  GpuMesh gpu;
  gpu.closed_index_count = prepared.closed_index_count;
  gpu.vertices = GpuBuffer::device_local(context_, mesh.vertices.data(),
                                         mesh.vertices.size() * sizeof(MeshVertex),
                                         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  gpu.indices =
      GpuBuffer::device_local(context_, mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t),
                              VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  gpu.index_count = static_cast<uint32_t>(mesh.indices.size());
  gpu.has_colors = mesh.has_colors;
  gpu.bounds_min = mesh.bounds_min();
  gpu.bounds_max = mesh.bounds_max();
  gpu.positions.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices)
    gpu.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
  gpu.triangles = std::move(prepared.mesh.indices);
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
