// Viewer benchmarks (issue 6), lavapipe at 1280x720 with the Panda's full DAE visual meshes:
//   Ours/panda_frame_1280x720           one frame rendered into the offscreen target (target >= 30 fps)
//   Ours/panda_frame_readback_1280x720  the same plus readback to RGBA8
//   Ours/cold_screenshot_1280x720       device + meshes + one frame + PNG, as a headless run does
//   Ours/frames_no_growth               10,000 frames (20 with KINETIC_BENCH_QUICK): device memory
//                                       allocations and resident memory must not grow
// Built from tests/viewer (the benchmarks folder links only the engine) into build/.../benchmarks.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "robot_scene.hpp"
#include "support/test_paths.hpp"
#include "viewer/headless.hpp"

namespace {

using namespace kinetic::viewer;

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long value = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> value;
      return value;
    }
    std::getline(status, key);
  }
  return 0;
}

bool quick() { return std::getenv("KINETIC_BENCH_QUICK") != nullptr; }
// The quick pass (test suite) only proves the benchmarks run: a small image keeps it to seconds.
uint32_t bench_width() { return quick() ? 320 : 1280; }
uint32_t bench_height() { return quick() ? 180 : 720; }

struct PandaScene {
  RenderScene scene;
  Camera camera;
};

PandaScene panda_scene(HeadlessRenderer& headless) {
  const auto model = kinetic::test::load_shared_panda();
  PandaScene out;
  kinetic::test::add_robot(out.scene, headless.meshes(), *model,
                           kinetic::test::panda_q(*model, {0, -0.785, 0, -2.356, 0, 1.571, 0.785}));
  Vec3 min, max;
  kinetic::test::robot_bounds(out.scene, headless.meshes(), min, max);
  out.camera.yaw = 0.9f;
  out.camera.pitch = 0.35f;
  out.camera.fit(min, max, headless.aspect());
  return out;
}

bool skip_without_robots(benchmark::State& state) {
  if (kinetic::test::shared_robots_available()) return false;
  state.SkipWithError("../shared/robots is absent");
  return true;
}

void BM_PandaFrame(benchmark::State& state, bool readback, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT) {
  if (skip_without_robots(state)) return;
  HeadlessRenderer headless(bench_width(), bench_height(), samples);
  const PandaScene panda = panda_scene(headless);
  headless.draw(panda.scene, panda.camera);  // warm-up: pipelines, first upload
  for (auto _ : state) {
    if (readback) benchmark::DoNotOptimize(headless.render(panda.scene, panda.camera));
    else headless.draw(panda.scene, panda.camera);
  }
  state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["triangles"] = static_cast<double>(headless.last_stats().triangles);
  state.counters["draw_calls"] = headless.last_stats().draw_calls;
  state.SetLabel(headless.context().device_name());
}
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_1280x720, false)->Name("Ours/panda_frame_1280x720")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_1280x720_no_msaa, false, VK_SAMPLE_COUNT_1_BIT)->Name("Ours/panda_frame_1280x720_no_msaa")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_readback_1280x720, true)->Name("Ours/panda_frame_readback_1280x720")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ColdScreenshot(benchmark::State& state) {
  if (skip_without_robots(state)) return;
  const auto path = std::filesystem::temp_directory_path() / "kinetic_bench_screenshot.png";
  for (auto _ : state) {
    HeadlessRenderer headless(bench_width(), bench_height());
    const PandaScene panda = panda_scene(headless);
    headless.render_png(panda.scene, panda.camera, path);
  }
  std::filesystem::remove(path);
}
BENCHMARK(BM_ColdScreenshot)->Name("Ours/cold_screenshot_1280x720")->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(quick() ? 1 : 3);

void BM_FramesNoGrowth(benchmark::State& state) {
  if (skip_without_robots(state)) return;
  HeadlessRenderer headless(bench_width(), bench_height());
  PandaScene panda = panda_scene(headless);
  panda.scene.overlay.show_stats = true;
  const int frames = quick() ? 20 : 10000;
  for (auto _ : state) {
    for (int i = 0; i < (quick() ? 3 : 50); ++i) headless.draw(panda.scene, panda.camera);  // settle caches
    const long rss_before = resident_kib();
    const int64_t allocations_before = headless.context().live_allocations();
    for (int i = 0; i < frames; ++i) {
      panda.camera.orbit(0.01f, 0);  // a moving view, as in the studio
      headless.draw(panda.scene, panda.camera);
    }
    const long rss_growth = resident_kib() - rss_before;
    const int64_t allocation_growth = headless.context().live_allocations() - allocations_before;
    state.counters["frames"] = frames;
    state.counters["rss_growth_kib"] = static_cast<double>(rss_growth);
    state.counters["vk_allocation_growth"] = static_cast<double>(allocation_growth);
    if (allocation_growth != 0 || rss_growth > 4096)
      state.SkipWithError("memory or Vulkan allocations grew over the run");
  }
}
BENCHMARK(BM_FramesNoGrowth)->Name("Ours/frames_no_growth")->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
