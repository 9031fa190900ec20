#include "app/headless/frame_disk_space.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <ostream>
#include <vector>

#include "app/headless/job_rendering.hpp"
#include "app/headless/whole_motion.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

constexpr double kPngBytesPerPixel = 0.2;
// The pace of a CPU renderer (Mesa's lavapipe), PNG writing included: about 3 frames a second at
// 3840x2160. A GPU is faster, but the same job may run in CI without one.
constexpr double kCpuPixelsPerSecond = 25e6;
// A render longer than this at that pace is said before it starts.
constexpr double kLongRenderSeconds = 10 * 60;

const char* const kWhatToChange =
    "render fewer frames (a smaller \"count\" or \"fps\") or smaller ones (\"width\", \"height\"), "
    "or free space there, or write the outputs elsewhere (\"outputs\": {\"directory\"} or "
    "--output-dir)";

// Where a sequence's frames go: the nearest existing folder on their way (the folders below it are
// made as the frames are written).
fs::path frames_folder(const Job& job, const FramesSpec& spec) {
  const fs::path pattern = (job.output_directory / spec.pattern).lexically_normal();
  fs::path folder = pattern.has_parent_path() ? pattern.parent_path() : fs::path(".");
  std::error_code ec;
  while (!fs::exists(folder, ec)) {
    if (!folder.has_parent_path() || folder == folder.parent_path()) return ".";
    folder = folder.parent_path();
  }
  return folder;
}

std::string frames_text(std::size_t count, const ImageSpec& image) {
  return std::to_string(count) + (count == 1 ? " frame of " : " frames of ") +
         std::to_string(image.width) + "x" + std::to_string(image.height);
}

std::string hours_text(double seconds) {
  char text[32];
  if (seconds < 3600)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  return text;
}

// The sequences whose counts are known (non-zero), summed per file system, against its free space.
// `nothing_done`: what the failure leaves undone ("nothing was planned or written").
void check_fit(const Job& job, const std::vector<std::size_t>& counts,
               const std::string& nothing_done) {
  struct Need {
    fs::path folder;
    std::uintmax_t bytes = 0;
    std::string outputs, frames;
  };
  std::map<dev_t, Need> needs;  // sequences on one file system share its free space
  for (std::size_t i = 0; i < job.frames.size(); ++i) {
    if (counts[i] == 0) continue;
    const FramesSpec& spec = job.frames[i];
    const fs::path folder = frames_folder(job, spec);
    struct stat status {};
    if (::stat(folder.c_str(), &status) != 0) continue;  // the writer will say what is wrong there
    Need& need = needs[status.st_dev];
    if (need.folder.empty()) need.folder = folder;
    need.bytes += counts[i] * estimated_png_bytes(spec.image.width, spec.image.height);
    need.outputs += (need.outputs.empty() ? "frames \"" : ", \"") + spec.pattern + "\"";
    need.frames += (need.frames.empty() ? "" : " and ") + frames_text(counts[i], spec.image);
  }
  for (const auto& entry : needs) {
    const Need& need = entry.second;
    std::error_code ec;
    const fs::space_info space = fs::space(need.folder, ec);
    if (ec || need.bytes <= space.available) continue;
    throw JobFailure(kExitWriteFailed,
                     need.outputs + ": " + need.frames + " need about " +
                         byte_size_text(need.bytes) +
                         " as PNG (at least; busy pictures take more), but only " +
                         byte_size_text(space.available) + " is free in " + need.folder.string() +
                         "; " + nothing_done + ": " + kWhatToChange);
  }
}

void warn_if_long(const FramesSpec& spec, std::size_t count, std::ostream& err) {
  const double pixels = static_cast<double>(count) * spec.image.width * spec.image.height;
  const double seconds = pixels / kCpuPixelsPerSecond;
  if (seconds < kLongRenderSeconds) return;
  char gigapixels[32];
  std::snprintf(gigapixels, sizeof gigapixels, "%.0f", pixels / 1e9);
  err << "warning: frames \"" << spec.pattern << "\": " << frames_text(count, spec.image) << " ("
      << gigapixels << " gigapixels) take about " << hours_text(seconds)
      << " to render on a CPU renderer (Mesa's lavapipe: about 25 megapixels, or 3 frames of "
         "3840x2160, a second; "
         "less on a GPU) and "
      << byte_size_text(count * estimated_png_bytes(spec.image.width, spec.image.height))
      << " of PNGs: fewer or smaller frames are done sooner\n";
}

}  // namespace

std::uintmax_t estimated_png_bytes(uint32_t width, uint32_t height) {
  return static_cast<std::uintmax_t>(kPngBytesPerPixel * width * height);
}

std::string byte_size_text(std::uintmax_t bytes) {
  const auto value = static_cast<double>(bytes);
  char text[32];
  if (value >= 1e12)
    std::snprintf(text, sizeof text, "%.1f TB", value / 1e12);
  else if (value >= 1e9)
    std::snprintf(text, sizeof text, "%.1f GB", value / 1e9);
  else if (value >= 1e6)
    std::snprintf(text, sizeof text, "%.1f MB", value / 1e6);
  else if (value >= 1e3)
    std::snprintf(text, sizeof text, "%.0f kB", value / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f bytes", value);
  return text;
}

void check_counted_frames(const Job& job, std::ostream& err) {
  std::vector<std::size_t> counts;
  for (const FramesSpec& spec : job.frames)
    counts.push_back(spec.count > 0 ? static_cast<std::size_t>(spec.count) : 0);
  check_fit(job, counts, "nothing was planned or written");
  for (std::size_t i = 0; i < job.frames.size(); ++i)
    if (counts[i] > 0) warn_if_long(job.frames[i], counts[i], err);
}

void check_all_frames(const Job& job, JobResult& result, std::ostream& err) {
  std::vector<std::size_t> counts;
  for (const FramesSpec& spec : job.frames)
    counts.push_back(
        frame_times(spec, trajectory_for(job, result, spec.trajectory).duration()).size());
  check_fit(job, counts, "nothing was rendered or written");
  for (std::size_t i = 0; i < job.frames.size(); ++i)
    if (job.frames[i].count <= 0) warn_if_long(job.frames[i], counts[i], err);
}

void check_rest_of_frames_fits(const fs::path& first_frame, std::size_t frames_to_come,
                               const std::string& by) {
  std::error_code ec;
  const std::uintmax_t frame = fs::file_size(first_frame, ec);
  if (ec || frames_to_come == 0) return;
  const fs::path folder = first_frame.parent_path();
  const fs::space_info space = fs::space(folder, ec);
  const std::uintmax_t needed = frame * frames_to_come;
  if (ec || needed <= space.available) return;
  throw JobFailure(kExitWriteFailed, by + ": the first frame took " + byte_size_text(frame) +
                                         ", so the " + std::to_string(frames_to_come) +
                                         " still to come need about " + byte_size_text(needed) +
                                         ", but only " + byte_size_text(space.available) +
                                         " is free in " + folder.string() +
                                         "; nothing was written: " + kWhatToChange);
}

}  // namespace kinetic::app::headless
