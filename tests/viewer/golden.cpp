#include "golden.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "viewer/error.hpp"

namespace kinetic::test {

using viewer::Rgba8;
using viewer::RgbaImage;

std::filesystem::path golden_dir() {
  return KINETIC_GOLDEN_DIR;
}
std::filesystem::path golden_output_dir() {
  return KINETIC_GOLDEN_OUTPUT_DIR;
}

bool updating_goldens() {
  const char* value = std::getenv("KINETIC_UPDATE_GOLDENS");
  return value && std::strcmp(value, "1") == 0;
}

ImageComparison compare_images(const RgbaImage& actual, const RgbaImage& expected,
                               int channel_tolerance) {
  ImageComparison result;
  result.same_size = actual.width() == expected.width() && actual.height() == expected.height();
  if (!result.same_size || actual.empty()) return result;
  result.diff = RgbaImage(expected.width(), expected.height());
  for (uint32_t y = 0; y < expected.height(); ++y) {
    for (uint32_t x = 0; x < expected.width(); ++x) {
      const Rgba8 a = actual.at(x, y);
      const Rgba8 e = expected.at(x, y);
      const int difference = std::max(
          {std::abs(a.r - e.r), std::abs(a.g - e.g), std::abs(a.b - e.b), std::abs(a.a - e.a)});
      result.largest_difference = std::max(result.largest_difference, difference);
      const auto grey = static_cast<uint8_t>((e.r * 3 + e.g * 6 + e.b) / 10 / 3 + 160);
      if (difference > channel_tolerance) {
        ++result.failing_pixels;
        result.diff.set(x, y, {255, static_cast<uint8_t>(std::max(0, 120 - difference)), 0, 255});
      } else if (difference > 0) {
        result.diff.set(x, y, {255, 220, 0, 255});
      } else {
        result.diff.set(x, y, {grey, grey, grey, 255});
      }
    }
  }
  result.failing_fraction =
      static_cast<double>(result.failing_pixels) / (double(expected.width()) * expected.height());
  return result;
}

::testing::AssertionResult matches_golden_file(const RgbaImage& actual,
                                               const std::filesystem::path& golden,
                                               const std::filesystem::path& output_dir,
                                               const GoldenTolerance& tolerance) {
  if (updating_goldens()) {
    viewer::write_png(actual, golden);
    std::printf("[golden] wrote %s (look at it before committing)\n", golden.c_str());
    return ::testing::AssertionSuccess();
  }
  const std::string stem = golden.stem().string();
  const auto actual_path = output_dir / (stem + ".actual.png");
  const auto diff_path = output_dir / (stem + ".diff.png");
  if (!std::filesystem::exists(golden)) {
    viewer::write_png(actual, actual_path);
    return ::testing::AssertionFailure()
           << "golden image " << golden << " does not exist; the rendered image is " << actual_path
           << ". Create goldens with KINETIC_UPDATE_GOLDENS=1 "
           << "ctest -L golden (or `make goldens`) and look at them.";
  }
  RgbaImage expected;
  try {
    expected = viewer::read_png(golden);
  } catch (const viewer::Error& e) {
    return ::testing::AssertionFailure() << e.what();
  }
  const ImageComparison comparison = compare_images(actual, expected, tolerance.channel_tolerance);
  if (comparison.passed(tolerance)) return ::testing::AssertionSuccess();

  viewer::write_png(actual, actual_path);
  std::ostringstream message;
  if (!comparison.same_size) {
    message << "image size " << actual.width() << "x" << actual.height() << " differs from golden "
            << golden << " (" << expected.width() << "x" << expected.height() << ")";
  } else {
    viewer::write_png(comparison.diff, diff_path);
    message << comparison.failing_pixels << " pixels (" << comparison.failing_fraction * 100.0
            << "%) differ from " << golden << " by more than " << tolerance.channel_tolerance
            << " (largest difference " << comparison.largest_difference << ", allowed fraction "
            << tolerance.max_failing_fraction * 100.0 << "%); diff image: " << diff_path;
  }
  message
      << "; rendered image: " << actual_path
      << ". If the change is intended, regenerate with KINETIC_UPDATE_GOLDENS=1 ctest -L golden.";
  return ::testing::AssertionFailure() << message.str();
}

::testing::AssertionResult matches_golden(const std::string& name, const RgbaImage& actual,
                                          const GoldenTolerance& tolerance) {
  return matches_golden_file(actual, golden_dir() / (name + ".png"), golden_output_dir(),
                             tolerance);
}

}  // namespace kinetic::test
