// The golden-image helper on synthetic images: the two-part tolerance, the diff image, PNG round
// trip.
#include "golden.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "viewer/error.hpp"
#include "viewer/image.hpp"

namespace kinetic::test {
namespace {

using viewer::Rgba8;
using viewer::RgbaImage;

RgbaImage gradient(uint32_t width, uint32_t height) {
  RgbaImage image(width, height);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      image.set(x, y,
                {static_cast<uint8_t>(x * 255 / width), static_cast<uint8_t>(y * 255 / height), 128,
                 255});
  return image;
}

class GoldenHelper : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("KINETIC_UPDATE_GOLDENS");
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("kinetic_golden_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(GoldenHelper, PngRoundTripIsExact) {
  const RgbaImage image = gradient(37, 23);
  viewer::write_png(image, dir_ / "round.png");
  EXPECT_EQ(viewer::read_png(dir_ / "round.png"), image);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "round.png.tmp"));
}

TEST_F(GoldenHelper, ReadingAMissingOrBrokenPngIsAnError) {
  EXPECT_THROW(viewer::read_png(dir_ / "absent.png"), viewer::Error);
  std::FILE* f = std::fopen((dir_ / "broken.png").c_str(), "wb");
  std::fputs("not a png", f);
  std::fclose(f);
  EXPECT_THROW(viewer::read_png(dir_ / "broken.png"), viewer::Error);
}

TEST_F(GoldenHelper, ChannelDifferencesWithinToleranceDoNotFail) {
  const RgbaImage expected = gradient(64, 64);
  RgbaImage actual = expected;
  for (uint32_t x = 0; x < 64; ++x) {
    Rgba8 p = actual.at(x, 10);
    p.b = static_cast<uint8_t>(p.b + 5);
    actual.set(x, 10, p);
  }
  const auto comparison = compare_images(actual, expected, 6);
  EXPECT_EQ(comparison.largest_difference, 5);
  EXPECT_EQ(comparison.failing_pixels, 0u);
  EXPECT_TRUE(comparison.passed({6, 0.0}));
  EXPECT_FALSE(compare_images(actual, expected, 4).passed({4, 0.0}));
}

TEST_F(GoldenHelper, FailingFractionDecides) {
  const RgbaImage expected = gradient(100, 100);
  RgbaImage actual = expected;
  for (uint32_t x = 0; x < 10; ++x) actual.set(x, 0, {255, 0, 255, 255});  // 10 of 10,000 pixels
  const auto comparison = compare_images(actual, expected, 6);
  EXPECT_EQ(comparison.failing_pixels, 10u);
  EXPECT_DOUBLE_EQ(comparison.failing_fraction, 0.001);
  EXPECT_TRUE(comparison.passed({6, 0.002}));
  EXPECT_FALSE(comparison.passed({6, 0.0005}));
  EXPECT_EQ(comparison.diff.at(0, 0).r, 255);                             // marked red
  EXPECT_EQ(comparison.diff.at(50, 50).r, comparison.diff.at(50, 50).g);  // unchanged: grey
}

TEST_F(GoldenHelper, SizeMismatchFails) {
  EXPECT_FALSE(compare_images(gradient(10, 10), gradient(10, 11), 255).passed({255, 1.0}));
}

TEST_F(GoldenHelper, FailureWritesActualAndDiffNextToEachOther) {
  const RgbaImage expected = gradient(40, 30);
  viewer::write_png(expected, dir_ / "scene.png");
  RgbaImage actual = expected;
  for (uint32_t y = 0; y < 30; ++y) actual.set(5, y, {0, 0, 0, 255});
  const auto out = dir_ / "out";
  const auto result = matches_golden_file(actual, dir_ / "scene.png", out, {6, 0.001});
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("scene.diff.png"), std::string::npos)
      << result.message();
  ASSERT_TRUE(std::filesystem::exists(out / "scene.diff.png"));
  EXPECT_EQ(viewer::read_png(out / "scene.actual.png"), actual);
  EXPECT_EQ(viewer::read_png(out / "scene.diff.png").at(5, 3), (Rgba8{255, 0, 0, 255}));
  EXPECT_TRUE(matches_golden_file(expected, dir_ / "scene.png", out, {6, 0.001}));
}

TEST_F(GoldenHelper, MissingGoldenFailsWithTheRegenerateCommand) {
  const auto result = matches_golden_file(gradient(8, 8), dir_ / "absent.png", dir_ / "out");
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("KINETIC_UPDATE_GOLDENS=1"), std::string::npos);
}

TEST_F(GoldenHelper, UpdateModeWritesTheGolden) {
  setenv("KINETIC_UPDATE_GOLDENS", "1", 1);
  const RgbaImage image = gradient(16, 16);
  EXPECT_TRUE(matches_golden_file(image, dir_ / "new.png", dir_ / "out"));
  unsetenv("KINETIC_UPDATE_GOLDENS");
  EXPECT_EQ(viewer::read_png(dir_ / "new.png"), image);
}

}  // namespace
}  // namespace kinetic::test
