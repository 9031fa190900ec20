#pragma once
// Atomic file replacement: the contents go to a temporary file in the target's folder, are flushed
// to disk, and the temporary is renamed over the target. A failure at any step leaves the old file
// untouched and no temporary behind. A symbolic link is written through to its target, and a file
// that exists keeps its permissions.
#include <filesystem>
#include <string>

namespace kinetic {

// Throws Error(IoError) naming the file and the system's reason.
void write_file_atomically(const std::filesystem::path& path, const std::string& contents);

// Whole file as a string (read_input_file with the general limit); throws Error(FileNotFound)
// naming the file.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace kinetic
