#pragma once
// Golden-image comparison for the viewer tests. Two-part tolerance: a pixel fails when any channel
// differs by more than `channel_tolerance`; the image fails when more than `max_failing_fraction`
// of its pixels fail. On failure <name>.actual.png and <name>.diff.png are written to the build
// tree (tests/viewer/golden-output/) and the message names them. Regenerate goldens:
// KINETIC_UPDATE_GOLDENS=1 ctest -L golden (or `make goldens`), then look at them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "viewer/image.hpp"

namespace kinetic::test {

struct GoldenTolerance {
  int channel_tolerance = 6;            // 0..255 per channel
  double max_failing_fraction = 0.002;  // of all pixels
};

struct ImageComparison {
  bool same_size = false;
  int largest_difference = 0;  // over all channels and pixels
  size_t failing_pixels = 0;
  double failing_fraction = 1.0;
  viewer::RgbaImage
      diff;  // expected dimmed to grey; failing pixels red, within-tolerance changes yellow
  bool passed(const GoldenTolerance& tolerance) const {
    return same_size && failing_fraction <= tolerance.max_failing_fraction;
  }
};

ImageComparison compare_images(const viewer::RgbaImage& actual, const viewer::RgbaImage& expected,
                               int channel_tolerance);

// Compares `actual` with the PNG at `golden`; writes actual/diff images into `output_dir` on
// failure. With KINETIC_UPDATE_GOLDENS=1 it writes `golden` instead and passes.
::testing::AssertionResult matches_golden_file(const viewer::RgbaImage& actual,
                                               const std::filesystem::path& golden,
                                               const std::filesystem::path& output_dir,
                                               const GoldenTolerance& tolerance = {});

// The same against tests/goldens/<name>.png, failures written under the build tree.
::testing::AssertionResult matches_golden(const std::string& name, const viewer::RgbaImage& actual,
                                          const GoldenTolerance& tolerance = {});

std::filesystem::path golden_dir();
std::filesystem::path golden_output_dir();
bool updating_goldens();

}  // namespace kinetic::test
