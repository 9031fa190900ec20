#pragma once
// An 8-bit RGBA image in memory (rows top to bottom, no padding) and its PNG file form (libpng).
#include <cstdint>
#include <filesystem>
#include <vector>

namespace kinetic::viewer {

struct Rgba8 {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

class RgbaImage {
 public:
  RgbaImage() = default;
  RgbaImage(uint32_t width, uint32_t height, Rgba8 fill = {});

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  bool empty() const { return width_ == 0 || height_ == 0; }
  Rgba8 at(uint32_t x, uint32_t y) const;
  void set(uint32_t x, uint32_t y, Rgba8 colour);
  const uint8_t* data() const { return pixels_.data(); }
  uint8_t* data() { return pixels_.data(); }
  size_t byte_size() const { return pixels_.size(); }

  friend bool operator==(const RgbaImage&, const RgbaImage&) = default;

 private:
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  std::vector<uint8_t> pixels_;
};

// Writes an 8-bit RGBA PNG atomically (temporary file + rename); throws viewer::Error on failure.
void write_png(const RgbaImage& image, const std::filesystem::path& path);
// Reads any PNG libpng understands, converted to 8-bit RGBA; throws viewer::Error on failure.
RgbaImage read_png(const std::filesystem::path& path);

}  // namespace kinetic::viewer
