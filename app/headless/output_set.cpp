#include "app/headless/output_set.hpp"

#include <unistd.h>

#include <algorithm>

#include "app/headless/job_execution.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

OutputSet::OutputSet(fs::path directory) : directory_(std::move(directory)) {}

OutputSet::~OutputSet() {
  if (!committed_) discard();
}

std::error_code OutputSet::create_folders(const fs::path& folder) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path f = folder; !f.empty() && !fs::exists(f, ec); f = f.parent_path()) {
    missing.push_back(f);
    if (f == f.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) || ec) return ec ? ec : std::make_error_code(std::errc::file_exists);
    created_folders_.push_back(*it);
  }
  return {};
}

void OutputSet::create_directory() {
  std::error_code ec;
  const fs::path dir = directory_.empty() ? fs::current_path(ec) : directory_;
  if (ec)
    throw JobFailure(kExitWriteFailed, "outputs.directory: the working directory no longer exists (" + ec.message() +
                                           "): run from an existing folder, or pass --output-dir");
  ec = create_folders(dir);
  if (ec || !fs::is_directory(dir))
    throw JobFailure(kExitWriteFailed, "outputs.directory: cannot create " + dir.string() + ": " +
                                           (ec ? ec.message() : "a file is in the way"));
  if (::access(dir.c_str(), W_OK) != 0)
    throw JobFailure(kExitWriteFailed, "outputs.directory: " + dir.string() + " is not writable");
}

fs::path OutputSet::claim(const std::string& file, const std::string& by) {
  const fs::path final_path = (directory_ / file).lexically_normal();
  for (size_t i = 0; i < finals_.size(); ++i)
    if (finals_[i] == final_path)
      throw JobFailure(kExitBadJob, by + ": " + final_path.string() + " is also written by " + claimed_by_[i] +
                                        "; give the outputs different names");

  // Missing folders are made now and remembered, so a failed job removes them again.
  const fs::path folder = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  if (const std::error_code ec = create_folders(folder))
    throw JobFailure(kExitWriteFailed, by + ": cannot create the folder " + folder.string() + ": " + ec.message());

  // Hidden, unique to this process, and with the final extension.
  const fs::path name = final_path.filename();
  std::string temporary_name = ".";
  temporary_name.append(name.stem().string())
      .append(".partial-")
      .append(std::to_string(::getpid()))
      .append(name.extension().string());
  finals_.push_back(final_path);
  temporaries_.push_back(folder / temporary_name);
  claimed_by_.push_back(by);
  return temporaries_.back();
}

std::string OutputSet::in_final_names(std::string message) const {
  for (size_t i = 0; i < temporaries_.size(); ++i) {
    const std::string temporary = temporaries_[i].string(), final_name = finals_[i].string();
    for (size_t at = message.find(temporary); at != std::string::npos; at = message.find(temporary, at + final_name.size()))
      message.replace(at, temporary.size(), final_name);
  }
  return message;
}

std::vector<fs::path> OutputSet::commit() {
  // A folder where a file should go is the one failure a rename in its own folder meets in
  // practice: found before anything moves, so the set stays all or nothing.
  for (size_t i = 0; i < finals_.size(); ++i) {
    std::error_code ec;
    if (fs::is_directory(finals_[i], ec))
      throw JobFailure(kExitWriteFailed, claimed_by_[i] + ": " + finals_[i].string() +
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
      temporaries_.erase(temporaries_.begin(), temporaries_.begin() + static_cast<std::ptrdiff_t>(i));
      throw JobFailure(kExitWriteFailed, claimed_by_[i] + ": cannot put " + finals_.front().string() +
                                             " in place: " + ec.message() +
                                             (placed.empty() ? std::string("; nothing was written")
                                                             : "; already in place: " + placed));
    }
  }
  committed_ = true;
  return finals_;
}

void OutputSet::discard() noexcept {
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
