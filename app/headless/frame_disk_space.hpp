#pragma once
// What a job's frame sequences will take, said before the work: the disk space their PNGs need
// where they go (a job that cannot fit fails at once, not after an hour of rendering), and a
// warning for a render that will take long. Every frame is written to a temporary beside its final
// name and renamed into place at the end (output_set.hpp), so the space is the PNGs' own.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"

namespace kinetic::app::headless {

// About what one rendered frame of this size takes as a PNG. Measured on the studio's pictures
// (fast zlib): 1.7-1.9 MB at 3840x2160 (0.21 bytes a pixel), more per pixel for small or busy
// pictures, so this is a low estimate: a job it refuses cannot fit.
std::uintmax_t estimated_png_bytes(uint32_t width, uint32_t height);

// "850 kB", "16.6 MB", "1.3 GB", "2.1 TB" (powers of 1000, as df -H).
std::string byte_size_text(std::uintmax_t bytes);

// Before planning: the frame sequences with a "count" (those with "fps" follow the motion's
// duration) must fit in the free space of the file system they go to, else
// JobFailure(kExitWriteFailed) with what they need, what is free and what to change; a very long
// render gets a "warning: frames ..." line on `err`.
void check_counted_frames(const Job& job, std::ostream& err);

// Once the motions are planned, before rendering: the same with every sequence's frames known
// (the warning only for those with "fps", the others had theirs).
void check_all_frames(const Job& job, JobResult& result, std::ostream& err);

// After the first frame of a sequence is written: the frames still to come, at that frame's size,
// must fit in the space left, else JobFailure(kExitWriteFailed). `by` names the output.
void check_rest_of_frames_fits(const std::filesystem::path& first_frame, std::size_t frames_to_come,
                               const std::string& by);

}  // namespace kinetic::app::headless
