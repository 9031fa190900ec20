#include "app/headless/output_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "app/headless/output_set.hpp"

#include "engine/core/error.hpp"
#include "engine/trajectory/controller_export.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

// The nearest of `folder` and its parents that exists ("" when none does).
fs::path nearest_existing(fs::path folder) {
  std::error_code ec;
  while (!folder.empty() && !fs::exists(folder, ec)) {
    if (folder == folder.parent_path()) return {};
    folder = folder.parent_path();
  }
  return folder;
}

// `folder` can be made (or is one already): nothing but folders on its way.
void check_folder(const fs::path& folder, const std::string& by) {
  const fs::path existing = nearest_existing(folder);
  std::error_code ec;
  if (!existing.empty() && !fs::is_directory(existing, ec))
    throw JobFailure(kExitWriteFailed, by + ": cannot create the folder " + folder.string() + ": " +
                                           existing.string() +
                                           " is a file; nothing was written (name another folder)");
}

// Longest file or folder name Linux file systems take (NAME_MAX), and what the hidden temporary
// beside an output adds to its name ("." and ".partial-" and a process id: output_set.cpp).
constexpr std::size_t kLongestName = 255;
constexpr std::size_t kTemporaryNameExtra = 1 + 9 + 7;

// Every name on the way fits the file system, the output's own with room for its temporary.
void check_name_lengths(const fs::path& final_path, const std::string& by) {
  for (const fs::path& part : final_path.parent_path())
    if (part.string().size() > kLongestName)
      throw JobFailure(kExitWriteFailed, by + ": the folder name '" + part.string().substr(0, 40) +
                                             "…' is " + std::to_string(part.string().size()) +
                                             " bytes long; names may have at most " +
                                             std::to_string(kLongestName) +
                                             " (nothing was written)");
  const std::size_t name = final_path.filename().string().size();
  if (name + kTemporaryNameExtra > kLongestName)
    throw JobFailure(
        kExitWriteFailed,
        by + ": the file name is " + std::to_string(name) +
            " bytes long; outputs may have at most " +
            std::to_string(kLongestName - kTemporaryNameExtra) +
            " (the file system's limit less room for the temporary it is first written to); "
            "nothing was written");
}

// `path` is where a file system is mounted. A different device than its folder's says so for a
// mount of another file system; a file bind-mounted from the same file system has its folder's
// device, and only statx's mount-root attribute (Linux 5.8) tells (renaming over it: EBUSY).
bool is_mount_point(const fs::path& path, const struct stat& info, const struct stat& folder_info) {
  if (info.st_dev != folder_info.st_dev) return true;
  struct statx x {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, 0, &x) != 0) return false;
  return (x.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0 &&
         (x.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

// The output is put in place by a rename over `final_path` in its folder: what makes that rename
// fail is found now, before any planning, so a set never stops half written
// (docs/headless-jobs.md: "Outputs").
void check_replaceable(const fs::path& final_path, const std::string& by) {
  const fs::path folder = output_real_path(final_path).parent_path();
  struct stat folder_info {
  }, file_info{};
  if (::stat(folder.c_str(), &folder_info) != 0) return;  // made by the run: its own
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw JobFailure(kExitWriteFailed,
                     by + ": the folder " + folder.string() +
                         " is not writable; nothing was written (name another output folder)");
  if (::lstat(final_path.c_str(), &file_info) != 0) return;  // a new file
  if (is_mount_point(final_path, file_info, folder_info))
    throw JobFailure(kExitWriteFailed,
                     by + ": " + final_path.string() +
                         " is a mount point and cannot be replaced; nothing was written");
  const uid_t me = ::geteuid();
  if ((folder_info.st_mode & S_ISVTX) && me != 0 && file_info.st_uid != me &&
      folder_info.st_uid != me)
    throw JobFailure(kExitWriteFailed, by + ": " + final_path.string() +
                                           " belongs to another user in the shared folder " +
                                           folder.string() +
                                           " and cannot be replaced; nothing was written");
}

// A job file's names stay in the output folder, symbolic links on the way included (the names
// themselves were checked for ".." and absolute paths by the job's reader).
void check_inside(const Job& job, const fs::path& path, const std::string& by) {
  if (job.source.empty()) return;  // the command line's names go where the user said
  const fs::path folder = real_path(job.output_directory), real = output_real_path(path);
  const auto [end, at] = std::mismatch(folder.begin(), folder.end(), real.begin(), real.end());
  if (end != folder.end())
    throw JobFailure(kExitBadJob,
                     by + ": " + path.string() + " leads to " + real.string() +
                         ", outside the output folder " + folder.string() +
                         " (through a symbolic link); a job file writes inside it only");
}

// The output file `file` (relative to the output folder) can be written where it goes.
void check_file(const Job& job, const std::string& file, const std::string& by) {
  const fs::path final_path = (job.output_directory / file).lexically_normal();
  check_name_lengths(final_path, by);
  check_folder(final_path.has_parent_path() ? final_path.parent_path() : fs::path("."), by);
  std::error_code ec;
  if (fs::is_directory(final_path, ec))
    throw JobFailure(
        kExitWriteFailed,
        by + ": " + final_path.string() +
            " is a folder; nothing was written (remove it or name the output differently)");
  check_inside(job, final_path, by);
  check_replaceable(final_path, by);
}

// Two outputs reaching one real file (through a symbolic link to a folder) would share one
// temporary: the second replaced the first's contents.
void check_real_paths_differ(const Job& job) {
  std::map<fs::path, std::string> writers;
  const auto claim = [&](const std::string& file, const std::string& by) {
    const fs::path real = output_real_path(job.output_directory / file);
    const auto [at, inserted] = writers.emplace(real, by);
    if (!inserted)
      throw JobFailure(
          kExitBadJob,
          by + " and " + at->second + " are the same file " + real.string() +
              " (through a symbolic link); give the outputs different files; nothing was written");
  };
  for (const ExportSpec& spec : job.exports) claim(spec.file, "trajectory \"" + spec.file + "\"");
  for (const ScreenshotSpec& spec : job.screenshots)
    claim(spec.file, "screenshot \"" + spec.file + "\"");
}

}  // namespace

namespace {

// A job file's output folder stays inside the job's folder through symbolic links too: its name
// was checked when read (relative, no ".." above), but a link on the way could lead anywhere.
void check_folder_inside_job(const Job& job) {
  if (job.output_directory_base.empty() || job.output_directory != job.output_directory_named)
    return;
  const fs::path base = real_path(job.output_directory_base),
                 folder = real_path(job.output_directory);
  const auto [end, at] = std::mismatch(base.begin(), base.end(), folder.begin(), folder.end());
  if (end != base.end())
    throw JobFailure(kExitBadJob,
                     "outputs.directory: " + job.output_directory.string() + " leads to " +
                         folder.string() + ", outside the job's folder " + base.string() +
                         " (through a symbolic link); a job file writes inside it only (give "
                         "another output folder with --output-dir)");
}

}  // namespace

void check_output_places(const Job& job) {
  check_folder_inside_job(job);
  check_real_paths_differ(job);
  for (const ExportSpec& spec : job.exports)
    check_file(job, spec.file, "trajectory \"" + spec.file + "\"");
  for (const ScreenshotSpec& spec : job.screenshots)
    check_file(job, spec.file, "screenshot \"" + spec.file + "\"");
  for (const FramesSpec& spec : job.frames) {
    const fs::path pattern = (job.output_directory / spec.pattern).lexically_normal();
    check_name_lengths(
        pattern, "frames \"" + spec.pattern + "\"");  // (the number may be a few digits longer)
    check_folder(pattern.has_parent_path() ? pattern.parent_path() : fs::path("."),
                 "frames \"" + spec.pattern + "\"");
    check_inside(job, pattern, "frames \"" + spec.pattern + "\"");
  }
}

void check_exports_suit_the_robot(const Job& job, const JobResult& result) {
  for (const ExportSpec& spec : job.exports) {
    if (fs::path(spec.file).extension() != ".script") continue;
    try {
      check_urscript_robot(result.limits.robot, result.limits.joint_names, result.limits.units);
    } catch (const Error& error) {
      throw JobFailure(kExitBadJob, "trajectory \"" + spec.file + "\": " + describe(error));
    }
  }
}

}  // namespace kinetic::app::headless
