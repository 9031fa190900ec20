#pragma once
// MeshLibrary: one GPU copy of every mesh, shared by all instances that draw it. Files are cached
// by path and primitives by their parameters, so asking twice returns the same MeshId. A CPU copy
// of positions is kept for picking. Share one library between renderers with std::shared_ptr.
// preload() reads and prepares many files at once on worker threads (Assimp, welding and the
// closed-shell sort are CPU work); the load() calls that follow then only upload, in their own
// order, so mesh ids and pixels are the same as without it. A MeshFileCache does the same for files
// read on another thread before load() is called (a robot load's worker).
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "viewer/gpu_resources.hpp"
#include "viewer/mesh_data.hpp"
#include "viewer/mesh_file_cache.hpp"

namespace kinetic::viewer {

class VulkanContext;

using MeshId = uint32_t;

struct GpuMesh {
  GpuBuffer vertices;
  GpuBuffer indices;
  uint32_t index_count = 0;
  uint32_t closed_index_count =
      0;  // leading indices on closed, outward shells: back faces may be culled
  bool has_colors = false;
  Vec3 bounds_min = Vec3::Zero();
  Vec3 bounds_max = Vec3::Zero();
  std::vector<Vec3> positions;      // for picking
  std::vector<uint32_t> triangles;  // for picking (closed shells first, as uploaded)
};

class MeshLibrary {
 public:
  explicit MeshLibrary(const VulkanContext& context) : context_(context) {}

  // Loads (once) and uploads a mesh file; throws viewer::Error when it cannot be read.
  MeshId load(const std::filesystem::path& path);
  // Reads and prepares the files not loaded yet in parallel; the next load() of each only uploads
  // it. Never throws: a file that cannot be read throws its error from its load().
  void preload(const std::vector<std::filesystem::path>& paths);
  // Files load() takes from this cache when it holds them (read on another thread); null: none.
  void set_file_cache(std::shared_ptr<MeshFileCache> cache) { file_cache_ = std::move(cache); }
  // The keys (mesh_file_key) of the files uploaded, for a MeshFileCache to skip.
  std::set<std::string> file_keys() const;
  // Uploads a mesh under a key; the same key returns the first upload.
  MeshId add(const std::string& key, const MeshData& mesh);
  MeshId box(const Vec3& size);
  MeshId sphere(float radius);
  MeshId cylinder(float radius, float length);
  MeshId capsule(float radius, float length);

  const GpuMesh& get(MeshId id) const;
  bool contains(MeshId id) const { return id < meshes_.size(); }
  size_t size() const { return meshes_.size(); }

 private:
  MeshId upload(const std::string& key, PreparedMesh prepared);

  const VulkanContext& context_;
  std::shared_ptr<MeshFileCache> file_cache_;
  std::map<std::string, PreparedMesh> preloaded_;
  std::vector<GpuMesh> meshes_;
  std::map<std::string, MeshId> by_key_;
};

}  // namespace kinetic::viewer
