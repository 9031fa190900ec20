#pragma once
// A job's output files, written as one set: each file goes to a hidden temporary beside its final
// name, and commit() renames them all into place only once every one of them exists. A job that
// fails or is interrupted part way leaves the output folder as it found it: no new file, no
// replaced file, no temporary, no folder it had to create.
#include <filesystem>
#include <string>
#include <vector>

namespace kinetic::app::headless {

class OutputSet {
 public:
  // `directory`: where relative output names go (empty: the working directory).
  explicit OutputSet(std::filesystem::path directory);
  ~OutputSet();  // removes whatever was not committed
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Makes the output folder (and its missing parents) now, so a folder that cannot be made or
  // written fails before any work: JobFailure(kExitWriteFailed) naming outputs.directory.
  void create_directory();

  // The temporary to write the output `file` (relative to the directory) to, keeping its
  // extension (writers choose the format by it). Creates missing folders on the way.
  // `by` names the output in errors: JobFailure(kExitBadJob) when another output of the job
  // already claimed the same file, JobFailure(kExitWriteFailed) when a folder cannot be made.
  std::filesystem::path claim(const std::string& file, const std::string& by);

  // Renames every claimed file into place, in claim order; returns the final paths. A rename
  // that fails throws JobFailure(kExitWriteFailed) naming the outputs already in place.
  std::vector<std::filesystem::path> commit();

  // Final paths claimed so far, in claim order.
  const std::vector<std::filesystem::path>& files() const { return finals_; }

  // A writer's error message with every temporary's path replaced by its final one: the
  // temporaries are the set's own business, never shown to the user.
  std::string in_final_names(std::string message) const;

 private:
  void discard() noexcept;
  // Creates `folder` and its missing parents, remembering them; returns the error, if any.
  std::error_code create_folders(const std::filesystem::path& folder);

  std::filesystem::path directory_;
  std::vector<std::filesystem::path> finals_, temporaries_;
  std::vector<std::string> claimed_by_;
  std::vector<std::filesystem::path> created_folders_;  // outermost first
  bool committed_ = false;
};

}  // namespace kinetic::app::headless
