// Saving over a file keeps what the user set up: its permissions (a private 0600 session stayed
// 0600 only until the first Save, which made it 0644) and a symbolic link (Save replaced the link
// with a plain file, so the real file never got the changes).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "engine/core/atomic_file.hpp"
#include "model_test_helpers.hpp"

namespace kinetic::test {
namespace {

mode_t permissions(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0);
  return info.st_mode & 07777;
}

TEST(AtomicFile, ReplacingAFileKeepsItsPermissions) {
  TempDir dir;
  const fs::path file = dir.path() / "private.kinetic-session";
  std::ofstream(file) << "old";
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  write_file_atomically(file, "new");
  EXPECT_EQ(read_text_file(file), "new");
  EXPECT_EQ(permissions(file), 0600u);
  // A new file gets the usual 0644.
  write_file_atomically(dir.path() / "fresh.json", "x");
  EXPECT_EQ(permissions(dir.path() / "fresh.json"), 0644u);
}

TEST(AtomicFile, ASymbolicLinkIsWrittenThroughToItsTarget) {
  TempDir dir;
  fs::create_directories(dir.path() / "real");
  const fs::path target = dir.path() / "real" / "s.kinetic-session",
                 link = dir.path() / "link.kinetic-session";
  std::ofstream(target) << "old";
  ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
  fs::create_symlink(fs::path("real") / "s.kinetic-session", link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_text_file(target), "new");
  EXPECT_EQ(permissions(target), 0640u);
  // No temporary is left beside either.
  for (const auto& entry : fs::recursive_directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

}  // namespace
}  // namespace kinetic::test
