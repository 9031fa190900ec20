#pragma once
// A job's output files, written as one set: each file goes to a hidden temporary beside its final
// name, and commit() renames them all into place only once every one of them exists. A job that
// fails or is interrupted part way leaves the output folder as it found it: no new file, no
// replaced file, no temporary, no folder it had to create; so does one ended by a signal
// (interruption.hpp removes every uncommitted set's temporaries before the process ends).
//
// Outputs are told apart by where they really go: two names reaching one file through a symlinked
// folder are refused (they would share one temporary), and so is a name reaching a file the run
// read (protect()).
#include <filesystem>
#include <map>
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

  // Files the run read (the job, robot and scene files, meshes, textures), by what they are: an
  // output reaching one of them is refused (JobFailure(kExitBadJob) naming both).
  void protect(const std::filesystem::path& input, const std::string& what);
  // The description of the protected input an output written to `path` replaces, "" when none.
  std::string protected_input(const std::filesystem::path& path) const;

  // Renames every claimed file into place, in claim order; returns the final paths. A rename
  // that fails throws JobFailure(kExitWriteFailed) naming the outputs already in place.
  std::vector<std::filesystem::path> commit();

  // Final paths claimed so far, in claim order.
  const std::vector<std::filesystem::path>& files() const { return finals_; }

  // A writer's error message with every temporary's path replaced by its final one: the
  // temporaries are the set's own business, never shown to the user.
  std::string in_final_names(std::string message) const;

 private:
  friend bool discard_uncommitted_output_sets();
  void discard() noexcept;
  // Creates `folder` and its missing parents, remembering them; returns the error, if any.
  std::error_code create_folders(const std::filesystem::path& folder);

  std::filesystem::path directory_;
  std::vector<std::filesystem::path> finals_, temporaries_, real_finals_;
  std::map<std::filesystem::path, std::string> protected_;  // real path -> what the run read there
  std::vector<std::string> claimed_by_;
  std::vector<std::filesystem::path> created_folders_;  // outermost first
  bool committed_ = false;
};

// Removes the temporaries and made folders of every output set not committed (a signal's end of
// the run, with output_files_mutex() held); false, removing nothing, when one was committed (the
// run is then finishing on its own).
bool discard_uncommitted_output_sets();

// Where `path` really is: symbolic links and ".." resolved as far as the path exists.
std::filesystem::path real_path(const std::filesystem::path& path);
// Where an output written to `path` really goes: its folder's real path and its own name (the
// rename that puts it in place replaces a symbolic link of that name, not the file it names).
std::filesystem::path output_real_path(const std::filesystem::path& path);

}  // namespace kinetic::app::headless
