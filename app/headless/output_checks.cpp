#include "app/headless/output_checks.hpp"

#include <filesystem>
#include <string>

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
    throw JobFailure(kExitWriteFailed, by + ": cannot create the folder " + folder.string() + ": " + existing.string() +
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
      throw JobFailure(kExitWriteFailed, by + ": the folder name '" + part.string().substr(0, 40) + "…' is " +
                                             std::to_string(part.string().size()) + " bytes long; names may have at most " +
                                             std::to_string(kLongestName) + " (nothing was written)");
  const std::size_t name = final_path.filename().string().size();
  if (name + kTemporaryNameExtra > kLongestName)
    throw JobFailure(kExitWriteFailed, by + ": the file name is " + std::to_string(name) + " bytes long; outputs may have at most " +
                                           std::to_string(kLongestName - kTemporaryNameExtra) +
                                           " (the file system's limit less room for the temporary it is first written to); "
                                           "nothing was written");
}

// The output file `file` (relative to the output folder) can be written where it goes.
void check_file(const Job& job, const std::string& file, const std::string& by) {
  const fs::path final_path = (job.output_directory / file).lexically_normal();
  check_name_lengths(final_path, by);
  check_folder(final_path.has_parent_path() ? final_path.parent_path() : fs::path("."), by);
  std::error_code ec;
  if (fs::is_directory(final_path, ec))
    throw JobFailure(kExitWriteFailed, by + ": " + final_path.string() +
                                           " is a folder; nothing was written (remove it or name the output differently)");
}

}  // namespace

void check_output_places(const Job& job) {
  for (const ExportSpec& spec : job.exports) check_file(job, spec.file, "trajectory \"" + spec.file + "\"");
  for (const ScreenshotSpec& spec : job.screenshots) check_file(job, spec.file, "screenshot \"" + spec.file + "\"");
  for (const FramesSpec& spec : job.frames) {
    const fs::path pattern = (job.output_directory / spec.pattern).lexically_normal();
    check_name_lengths(pattern, "frames \"" + spec.pattern + "\"");  // (the number may be a few digits longer)
    check_folder(pattern.has_parent_path() ? pattern.parent_path() : fs::path("."), "frames \"" + spec.pattern + "\"");
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
