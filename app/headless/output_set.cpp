#include "app/headless/output_set.hpp"

#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "app/headless/interruption.hpp"
#include "app/headless/job_execution.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

// The sets alive now (guarded by output_files_mutex(); never destroyed, as the thread that ends an
// interrupted run may look at it while the process exits).
std::vector<OutputSet*>& live_sets() {
  static auto* sets = new std::vector<OutputSet*>;
  return *sets;
}

// Whether a set was committed: its files are in place, so the run is not "interrupted" any more.
bool g_committed_any = false;

}  // namespace

fs::path real_path(const fs::path& path) {
  std::error_code ec;
  fs::path real = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path, ec).lexically_normal() : real;
}

fs::path output_real_path(const fs::path& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  const fs::path normal = (ec ? path : absolute).lexically_normal();
  return real_path(normal.parent_path()) / normal.filename();
}

bool discard_uncommitted_output_sets() {
  std::lock_guard lock(output_files_mutex());
  if (g_committed_any) return false;
  for (const OutputSet* set : live_sets())
    if (set->committed_) return false;
  for (OutputSet* set : live_sets()) {
    set->discard();
    set->committed_ = true;  // nothing left for its destructor
  }
  return true;
}

OutputSet::OutputSet(fs::path directory) : directory_(std::move(directory)) {
  std::lock_guard lock(output_files_mutex());
  live_sets().push_back(this);
}

OutputSet::~OutputSet() {
  std::lock_guard lock(output_files_mutex());
  if (!committed_) discard();
  std::erase(live_sets(), this);
}

void OutputSet::protect(const fs::path& input, const std::string& what) {
  if (!input.empty()) protected_.emplace(real_path(input), what);
}

std::string OutputSet::protected_input(const fs::path& path) const {
  const auto found = protected_.find(output_real_path(path));
  return found == protected_.end() ? std::string() : found->second;
}

std::error_code OutputSet::create_folders(const fs::path& folder) {
  std::lock_guard lock(output_files_mutex());
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path f = folder; !f.empty() && !fs::exists(f, ec); f = f.parent_path()) {
    missing.push_back(f);
    if (f == f.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) || ec)
      return ec ? ec : std::make_error_code(std::errc::file_exists);
    created_folders_.push_back(*it);
  }
  return {};
}

void OutputSet::create_directory() {
  std::error_code ec;
  const fs::path dir = directory_.empty() ? fs::current_path(ec) : directory_;
  if (ec)
    throw JobFailure(kExitWriteFailed,
                     "outputs.directory: the working directory no longer exists (" + ec.message() +
                         "): run from an existing folder, or pass --output-dir");
  ec = create_folders(dir);
  if (ec || !fs::is_directory(dir))
    throw JobFailure(kExitWriteFailed, "outputs.directory: cannot create " + dir.string() + ": " +
                                           (ec ? ec.message() : "a file is in the way"));
  if (::access(dir.c_str(), W_OK) != 0)
    throw JobFailure(kExitWriteFailed, "outputs.directory: " + dir.string() + " is not writable");
}

fs::path OutputSet::claim(const std::string& file, const std::string& by) {
  std::lock_guard lock(output_files_mutex());
  const fs::path final_path = (directory_ / file).lexically_normal();
  for (size_t i = 0; i < finals_.size(); ++i)
    if (finals_[i] == final_path)
      throw JobFailure(kExitBadJob, by + ": " + final_path.string() + " is also written by " +
                                        claimed_by_[i] + "; give the outputs different names");

  // Missing folders are made now and remembered, so a failed job removes them again.
  const fs::path folder = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  if (const std::error_code ec = create_folders(folder))
    throw JobFailure(kExitWriteFailed,
                     by + ": cannot create the folder " + folder.string() + ": " + ec.message());

  // Told apart by where they really are: one temporary per real file.
  const fs::path real = output_real_path(final_path);
  for (size_t i = 0; i < real_finals_.size(); ++i)
    if (real_finals_[i] == real)
      throw JobFailure(kExitBadJob,
                       by + ": " + final_path.string() + " is the file " + real.string() +
                           ", which " + claimed_by_[i] +
                           " writes too (through a symbolic link); nothing was written");
  if (const std::string input = protected_input(real); !input.empty())
    throw JobFailure(kExitBadJob,
                     by + ": " + final_path.string() + " would overwrite " + input + " " +
                         real.string() +
                         ", which the run read; name the output differently; nothing was written");

  // Hidden, unique to this process, with the final extension, beside the real file.
  const fs::path name = real.filename();
  std::string temporary_name = ".";
  temporary_name.append(name.stem().string())
      .append(".partial-")
      .append(std::to_string(::getpid()))
      .append(name.extension().string());
  finals_.push_back(final_path);
  real_finals_.push_back(real);
  temporaries_.push_back(real.parent_path() / temporary_name);
  claimed_by_.push_back(by);
  return temporaries_.back();
}

std::string OutputSet::in_final_names(std::string message) const {
  for (size_t i = 0; i < temporaries_.size(); ++i) {
    const std::string temporary = temporaries_[i].string(), final_name = finals_[i].string();
    for (size_t at = message.find(temporary); at != std::string::npos;
         at = message.find(temporary, at + final_name.size()))
      message.replace(at, temporary.size(), final_name);
  }
  return message;
}

std::vector<fs::path> OutputSet::commit() {
  std::lock_guard lock(output_files_mutex());  // a signal's end waits until every file is in place
  // A folder where a file should go is the one failure a rename in its own folder meets in
  // practice: found before anything moves, so the set stays all or nothing.
  for (size_t i = 0; i < finals_.size(); ++i) {
    std::error_code ec;
    if (fs::is_directory(finals_[i], ec))
      throw JobFailure(
          kExitWriteFailed,
          claimed_by_[i] + ": " + finals_[i].string() +
              " is a folder; nothing was written (remove it or name the output differently)");
  }
  for (size_t i = 0; i < finals_.size(); ++i) {
    std::error_code ec;
    fs::rename(temporaries_[i], finals_[i], ec);
    if (ec) {
      std::string placed;
      for (size_t k = 0; k < i; ++k) placed += (k ? ", " : "") + finals_[k].string();
      // The files renamed stay (they are complete); the destructor removes the temporaries left.
      finals_.erase(finals_.begin(), finals_.begin() + static_cast<std::ptrdiff_t>(i));
      real_finals_.erase(real_finals_.begin(),
                         real_finals_.begin() + static_cast<std::ptrdiff_t>(i));
      temporaries_.erase(temporaries_.begin(),
                         temporaries_.begin() + static_cast<std::ptrdiff_t>(i));
      throw JobFailure(kExitWriteFailed, claimed_by_[i] + ": cannot put " +
                                             finals_.front().string() +
                                             " in place: " + ec.message() +
                                             (placed.empty() ? std::string("; nothing was written")
                                                             : "; already in place: " + placed));
    }
  }
  committed_ = true;
  g_committed_any = true;
  return finals_;
}

void OutputSet::discard() noexcept {
  std::lock_guard lock(output_files_mutex());
  for (const fs::path& temporary : temporaries_) {
    std::error_code ec;
    fs::remove(temporary, ec);
  }
  // Innermost first; a folder that is not empty (something else wrote there) stays.
  for (auto it = created_folders_.rbegin(); it != created_folders_.rend(); ++it) {
    std::error_code ec;
    fs::remove(*it, ec);
  }
}

}  // namespace kinetic::app::headless
