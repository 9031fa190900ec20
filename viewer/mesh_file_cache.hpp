#pragma once
// Mesh files read off the render thread. Reading a file (Assimp, welding, the closed-shell sort)
// is CPU work that needs no GPU; only the upload does. MeshFileCache holds meshes read on another
// thread (a robot load's worker) until a MeshLibrary that uses it uploads them, so the library's
// load() on the render thread is a cache hit. Thread-safe.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "viewer/mesh_data.hpp"

namespace kinetic::viewer {

// A mesh ready to upload: closed shells ordered first (or the error reading it).
struct PreparedMesh {
  MeshData mesh;
  uint32_t closed_index_count = 0;
  std::string error;
};

PreparedMesh prepare_mesh(MeshData mesh);
// The key a mesh file is known by (its canonical path, "file:" first), so two spellings of one
// file share a mesh.
std::string mesh_file_key(const std::filesystem::path& path);
// Reads and prepares the files on every core (the calling thread too), in the order given; never
// throws (a file that cannot be read gets its error). Files left when `cancel` turns true are not
// read (their error says so).
std::vector<PreparedMesh> read_mesh_files(const std::vector<std::filesystem::path>& paths,
                                          const std::atomic<bool>* cancel = nullptr);

class MeshFileCache {
 public:
  // Reads the files not held yet, except those whose key is in `skip` (a library has them
  // already), and keeps them until taken. What an earlier warm() left untaken and this one does
  // not ask for is dropped: it was read for a load that was superseded. Stops reading when
  // `cancel` turns true.
  void warm(const std::vector<std::filesystem::path>& paths, const std::set<std::string>& skip = {},
            const std::atomic<bool>* cancel = nullptr);
  // The mesh read for this file, removed from the cache; nothing when it was not read or the file
  // changed on disk since (it is read again by the caller).
  std::optional<PreparedMesh> take(const std::filesystem::path& path);
  size_t size() const;

 private:
  // What the file looked like when it was read: a file saved since is read again.
  struct Stamp {
    std::filesystem::file_time_type time;
    std::uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  struct Entry {
    PreparedMesh mesh;
    Stamp stamp;
  };
  static std::optional<Stamp> stamp_of(const std::filesystem::path& path);

  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace kinetic::viewer
