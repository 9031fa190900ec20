#include "viewer/mesh_library.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

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

std::string MeshLibrary::file_key(const std::filesystem::path& path) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(path, ec);
  return "file:" + (ec ? path.string() : canonical.string());
}

MeshId MeshLibrary::load(const std::filesystem::path& path) {
  const std::string key = file_key(path);
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  if (auto it = preloaded_.find(key); it != preloaded_.end()) {
    Prepared prepared = std::move(it->second);
    preloaded_.erase(it);
    if (!prepared.error.empty()) throw Error(prepared.error);
    return upload(key, std::move(prepared));
  }
  return upload(key, prepare(load_mesh_file(path)));
}

void MeshLibrary::preload(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::pair<std::string, std::filesystem::path>> work;
  for (const auto& path : paths) {
    std::string key = file_key(path);
    if (by_key_.count(key) || preloaded_.count(key) ||
        std::any_of(work.begin(), work.end(), [&](const auto& w) { return w.first == key; }))
      continue;
    work.emplace_back(std::move(key), path);
  }
  std::vector<Prepared> results(work.size());
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t i = next++; i < work.size(); i = next++) {
      try {
        results[i] = prepare(load_mesh_file(work[i].second));
      } catch (const std::exception& error) {
        results[i].error = error.what();
      }
    }
  };
  // The calling thread works too; the biggest files are not known up front, so threads take files
  // one at a time.
  const size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), work.size());
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(worker);
  worker();
  for (auto& helper : helpers) helper.join();
  for (size_t i = 0; i < work.size(); ++i) preloaded_.emplace(std::move(work[i].first), std::move(results[i]));
}

MeshLibrary::Prepared MeshLibrary::prepare(MeshData mesh) {
  Prepared prepared;
  if (!mesh.indices.empty()) prepared.closed_index_count = order_closed_shells_first(mesh.vertices, mesh.indices);
  prepared.mesh = std::move(mesh);
  return prepared;
}

MeshId MeshLibrary::add(const std::string& key, const MeshData& mesh) {
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  return upload(key, prepare(mesh));
}

MeshId MeshLibrary::upload(const std::string& key, Prepared prepared) {
  const MeshData& mesh = prepared.mesh;
  if (mesh.indices.empty()) throw Error("mesh '" + key + "' has no triangles");
  GpuMesh gpu;
  gpu.closed_index_count = prepared.closed_index_count;
  gpu.vertices = GpuBuffer::device_local(context_, mesh.vertices.data(), mesh.vertices.size() * sizeof(MeshVertex),
                                         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  gpu.indices = GpuBuffer::device_local(context_, mesh.indices.data(), mesh.indices.size() * sizeof(uint32_t),
                                        VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  gpu.index_count = static_cast<uint32_t>(mesh.indices.size());
  gpu.has_colors = mesh.has_colors;
  gpu.bounds_min = mesh.bounds_min();
  gpu.bounds_max = mesh.bounds_max();
  gpu.positions.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices) gpu.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
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
