#include "viewer/image.hpp"

#include <png.h>

#include <cstdio>
#include <memory>
#include <string>
#include <system_error>

#include "viewer/error.hpp"

namespace kinetic::viewer {

RgbaImage::RgbaImage(uint32_t width, uint32_t height, Rgba8 fill)
    : width_(width), height_(height), pixels_(size_t{width} * height * 4) {
  for (size_t i = 0; i < pixels_.size(); i += 4) {
    pixels_[i] = fill.r;
    pixels_[i + 1] = fill.g;
    pixels_[i + 2] = fill.b;
    pixels_[i + 3] = fill.a;
  }
}

Rgba8 RgbaImage::at(uint32_t x, uint32_t y) const {
  const uint8_t* p = &pixels_[(size_t{y} * width_ + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

void RgbaImage::set(uint32_t x, uint32_t y, Rgba8 colour) {
  uint8_t* p = &pixels_[(size_t{y} * width_ + x) * 4];
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
  p[3] = colour.a;
}

void write_png(const RgbaImage& image, const std::filesystem::path& path) {
  if (image.empty()) throw Error("cannot write an empty image to " + path.string());
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const std::filesystem::path temporary = path.string() + ".tmp";

  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width();
  png.height = image.height();
  png.format = PNG_FORMAT_RGBA;
  // Fast zlib settings: on rendered images about 4x faster than the default for ~2% more bytes.
  png.flags = PNG_IMAGE_FLAG_FAST;
  if (!png_image_write_to_file(&png, temporary.c_str(), 0, image.data(), 0, nullptr)) {
    const std::string reason = png.message;
    std::filesystem::remove(temporary, ec);
    throw Error("could not write PNG " + path.string() + ": " + reason);
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    const std::string reason = ec.message();  // (remove() below resets ec)
    std::filesystem::remove(temporary, ec);
    throw Error("could not write PNG " + path.string() + ": " + reason);
  }
}

RgbaImage read_png(const std::filesystem::path& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw Error("could not read PNG " + path.string() + ": " + png.message);
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image(png.width, png.height);
  if (!png_image_finish_read(&png, nullptr, image.data(), 0, nullptr)) {
    const std::string reason = png.message;
    png_image_free(&png);
    throw Error("could not read PNG " + path.string() + ": " + reason);
  }
  return image;
}

}  // namespace kinetic::viewer
