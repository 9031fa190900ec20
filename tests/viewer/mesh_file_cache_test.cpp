// MeshFileCache: meshes read on one thread (a robot load's worker) are handed, once, to whoever
// uploads them; a file saved since it was read, one a library already holds, and what a
// superseded load read are not served.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "viewer/error.hpp"
#include "viewer/mesh_data.hpp"
#include "viewer/mesh_file_cache.hpp"

namespace kinetic::viewer {
namespace {

namespace fs = std::filesystem;

// A folder of its own under the system's temporary folder, removed afterwards.
class MeshFileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kinetic_mesh_file_cache_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // One triangle (two with `second`), as an OBJ file.
  fs::path write_obj(const std::string& name, bool second = false) {
    const fs::path path = dir_ / name;
    std::ofstream out(path);
    out << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n";
    if (second) out << "f 1 3 4\n";
    return path;
  }

  fs::path dir_;
};

TEST_F(MeshFileCacheTest, AWarmedFileIsTakenOnce) {
  const fs::path file = write_obj("part.obj");
  MeshFileCache cache;
  cache.warm({file, file});
  EXPECT_EQ(cache.size(), 1u);
  const std::optional<PreparedMesh> taken =
      cache.take(dir_ / "." / "part.obj");  // another spelling
  ASSERT_TRUE(taken.has_value());
  EXPECT_TRUE(taken->error.empty());
  EXPECT_EQ(taken->mesh.triangle_count(), load_mesh_file(file).triangle_count());
  EXPECT_FALSE(cache.take(file).has_value());
}

// A binary PLY face naming vertex 1000000000 of 3 crashed Assimp's post-processing (found by
// fuzzing the engine's reader of the same files): an error naming the file and the face.
TEST_F(MeshFileCacheTest, AFaceNamingAMissingVertexIsAnErrorNotACrash) {
  const fs::path path = dir_ / "broken.ply";
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
  const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  bytes.append(reinterpret_cast<const char*>(corners), sizeof corners);
  bytes.push_back('\3');
  const std::int32_t face[3] = {0, 1, 1000000000};
  bytes.append(reinterpret_cast<const char*>(face), sizeof face);
  std::ofstream(path, std::ios::binary) << bytes;
  try {
    load_mesh_file(path);
    FAIL() << "the broken face was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.ply: face 0 names vertex 1000000000 of 3"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(MeshFileCacheTest, AFileSavedSinceItWasReadIsNotServed) {
  const fs::path file = write_obj("part.obj");
  MeshFileCache cache;
  cache.warm({file});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_obj("part.obj", true);
  EXPECT_FALSE(cache.take(file).has_value());
}

TEST_F(MeshFileCacheTest, FilesALibraryHoldsAreNotRead) {
  const fs::path held = write_obj("held.obj"), fresh = write_obj("fresh.obj");
  MeshFileCache cache;
  cache.warm({held, fresh}, {mesh_file_key(held)});
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_FALSE(cache.take(held).has_value());
  EXPECT_TRUE(cache.take(fresh).has_value());
}

TEST_F(MeshFileCacheTest, ANewWarmDropsWhatAnEarlierOneLeftUntaken) {
  const fs::path a = write_obj("a.obj"), b = write_obj("b.obj"), shared = write_obj("shared.obj");
  MeshFileCache cache;
  cache.warm({a, shared});
  cache.warm({b, shared});
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_FALSE(cache.take(a).has_value());
  EXPECT_TRUE(cache.take(b).has_value());
  EXPECT_TRUE(cache.take(shared).has_value());
}

TEST_F(MeshFileCacheTest, AnUnreadableFileKeepsItsError) {
  const fs::path bad = dir_ / "bad.nomesh";
  std::ofstream(bad) << "this is not a mesh\n";
  MeshFileCache cache;
  cache.warm({bad});
  const std::optional<PreparedMesh> taken = cache.take(bad);
  ASSERT_TRUE(taken.has_value());
  EXPECT_NE(taken->error.find("bad.nomesh"), std::string::npos) << taken->error;
}

TEST_F(MeshFileCacheTest, ACancelledWarmReadsNothing) {
  const fs::path file = write_obj("part.obj");
  std::atomic<bool> cancel{true};
  MeshFileCache cache;
  cache.warm({file}, {}, &cancel);
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace kinetic::viewer
