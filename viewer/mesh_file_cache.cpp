#include "viewer/mesh_file_cache.hpp"

#include <algorithm>
#include <thread>

#include "viewer/closed_shells.hpp"

namespace kinetic::viewer {

namespace {
constexpr const char* kCancelled = "not read: the load was cancelled";
}  // namespace

PreparedMesh prepare_mesh(MeshData mesh) {
  PreparedMesh prepared;
  if (!mesh.indices.empty())
    prepared.closed_index_count = order_closed_shells_first(mesh.vertices, mesh.indices);
  prepared.mesh = std::move(mesh);
  return prepared;
}

std::string mesh_file_key(const std::filesystem::path& path) {
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(path, ec);
  return "file:" + (ec ? path.string() : canonical.string());
}

std::vector<PreparedMesh> read_mesh_files(const std::vector<std::filesystem::path>& paths,
                                          const std::atomic<bool>* cancel) {
  std::vector<PreparedMesh> results(paths.size());
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) {
      if (cancel && cancel->load()) {
        results[i].error = kCancelled;
        continue;
      }
      try {
        results[i] = prepare_mesh(load_mesh_file(paths[i]));
      } catch (const std::exception& error) {
        results[i].error = error.what();
      }
    }
  };
  // The biggest files are not known up front, so threads take files one at a time.
  const size_t threads =
      std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), paths.size());
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(worker);
  worker();
  for (auto& helper : helpers) helper.join();
  return results;
}

std::optional<MeshFileCache::Stamp> MeshFileCache::stamp_of(const std::filesystem::path& path) {
  std::error_code time_error, size_error;
  Stamp stamp{std::filesystem::last_write_time(path, time_error),
              std::filesystem::file_size(path, size_error)};
  if (time_error || size_error) return std::nullopt;
  return stamp;
}

void MeshFileCache::warm(const std::vector<std::filesystem::path>& paths,
                         const std::set<std::string>& skip, const std::atomic<bool>* cancel) {
  std::vector<std::string> keys;
  std::vector<std::filesystem::path> files;
  std::vector<Stamp> stamps;
  {
    std::set<std::string> wanted;
    for (const auto& path : paths) wanted.insert(mesh_file_key(path));
    std::lock_guard<std::mutex> lock(mutex_);
    std::erase_if(entries_, [&](const auto& entry) { return !wanted.count(entry.first); });
    for (const auto& path : paths) {
      std::string key = mesh_file_key(path);
      // A file that cannot be stat'ed is left to the library, which says why it cannot be read.
      const std::optional<Stamp> stamp = stamp_of(path);
      if (!stamp || skip.count(key) || std::find(keys.begin(), keys.end(), key) != keys.end())
        continue;
      if (auto held = entries_.find(key); held != entries_.end() && held->second.stamp == *stamp)
        continue;
      keys.push_back(std::move(key));
      files.push_back(path);
      stamps.push_back(*stamp);
    }
  }
  // Stamped before reading: a file saved while it is read does not match at take().
  std::vector<PreparedMesh> read = read_mesh_files(files, cancel);
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < read.size(); ++i)
    if (read[i].error != kCancelled) entries_[keys[i]] = Entry{std::move(read[i]), stamps[i]};
}

std::optional<PreparedMesh> MeshFileCache::take(const std::filesystem::path& path) {
  const std::string key = mesh_file_key(path);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = entries_.find(key);
  if (found == entries_.end()) return std::nullopt;
  Entry entry = std::move(found->second);
  entries_.erase(found);
  if (stamp_of(path) != std::optional<Stamp>(entry.stamp)) return std::nullopt;
  return std::move(entry.mesh);
}

size_t MeshFileCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

}  // namespace kinetic::viewer
