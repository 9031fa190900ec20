// Viewer benchmarks (issue 6), lavapipe at 1280x720 with the Panda's full DAE visual meshes:
//   Ours/panda_frame_1280x720           one frame rendered into the offscreen target (target >= 30
//   fps) Ours/panda_frame_readback_1280x720  the same plus readback to RGBA8
//   Ours/cold_screenshot_1280x720       device + meshes + one frame + PNG, as a headless run does
//   Ours/frames_no_growth               10,000 frames (20 with KINETIC_BENCH_QUICK) at 320x180 (the
//                                       soak checks growth, not speed): device memory allocations
//                                       and resident memory (lavapipe's objects and memory live in
//                                       it) must not grow, nor the host blocks the driver holds
//                                       (every Vulkan object lives in some)
// The machine is shared, so wall time alone overstates the cost of a frame: the frame cases also
// report CPU time per frame over all threads (cpu_ms) and that of the busiest thread (busiest_ms,
// lavapipe's vertex/binning thread). On an idle 2-core machine a frame takes about
// max(busiest_ms, cpu_ms / 2) (idle_estimate_ms).
// Built from tests/viewer (the benchmarks folder links only the engine) into build/.../benchmarks.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
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

// Nanoseconds each thread of this process has run (Linux schedstat), by thread id.
std::map<std::string, double> thread_cpu_ns() {
  std::map<std::string, double> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream stat(entry.path() / "schedstat");
    double ns = 0;
    if (stat >> ns) out[entry.path().filename().string()] = ns;
  }
  return out;
}

// CPU time per frame between two thread_cpu_ns() snapshots: total and busiest thread (ms).
void report_cpu(benchmark::State& state, const std::map<std::string, double>& before,
                const std::map<std::string, double>& after, double frames) {
  double total = 0, busiest = 0;
  for (const auto& [tid, ns] : after) {
    const auto it = before.find(tid);
    const double used = ns - (it == before.end() ? 0.0 : it->second);
    total += used;
    busiest = std::max(busiest, used);
  }
  const double cpu_ms = total / 1e6 / frames, busiest_ms = busiest / 1e6 / frames;
  state.counters["cpu_ms"] = cpu_ms;
  state.counters["busiest_ms"] = busiest_ms;
  state.counters["idle_estimate_ms"] = std::max(busiest_ms, cpu_ms / 2);
}

bool quick() {
  return std::getenv("KINETIC_BENCH_QUICK") != nullptr;
}
// The quick pass (test suite) only proves the benchmarks run: a small image keeps it to seconds.
uint32_t bench_width() {
  return quick() ? 320 : 1280;
}
uint32_t bench_height() {
  return quick() ? 180 : 720;
}

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

void BM_PandaFrame(benchmark::State& state, bool readback,
                   VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT) {
  if (skip_without_robots(state)) return;
  HeadlessRenderer headless(bench_width(), bench_height(), samples);
  const PandaScene panda = panda_scene(headless);
  headless.draw(panda.scene, panda.camera);  // warm-up: pipelines, first upload
  const auto cpu_before = thread_cpu_ns();
  for (auto _ : state) {
    if (readback)
      benchmark::DoNotOptimize(headless.render(panda.scene, panda.camera));
    else
      headless.draw(panda.scene, panda.camera);
  }
  report_cpu(state, cpu_before, thread_cpu_ns(), static_cast<double>(state.iterations()));
  state.counters["fps"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["triangles"] = static_cast<double>(headless.last_stats().triangles);
  state.counters["draw_calls"] = headless.last_stats().draw_calls;
  state.SetLabel(headless.context().device_name());
}
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_1280x720, false)
    ->Name("Ours/panda_frame_1280x720")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_1280x720_no_msaa, false, VK_SAMPLE_COUNT_1_BIT)
    ->Name("Ours/panda_frame_1280x720_no_msaa")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_PandaFrame, panda_frame_readback_1280x720, true)
    ->Name("Ours/panda_frame_readback_1280x720")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

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
BENCHMARK(BM_ColdScreenshot)
    ->Name("Ours/cold_screenshot_1280x720")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(quick() ? 1 : 3);

void BM_FramesNoGrowth(benchmark::State& state) {
  if (skip_without_robots(state)) return;
  HeadlessRenderer headless(320, 180);
  PandaScene panda = panda_scene(headless);
  panda.scene.overlay.show_stats = true;
  const char* frames_env = std::getenv("KINETIC_SOAK_FRAMES");  // e.g. a shorter local run
  const int frames = frames_env ? std::atoi(frames_env) : quick() ? 20 : 10000;
  for (auto _ : state) {
    // Settle first with the same moving view: within its first few hundred frames lavapipe grows
    // to its working set (~20 MB once, e.g. shaders compiled for new pipeline states), then stays
    // flat; the baseline is taken after that.
    for (int i = 0; i < (quick() ? 3 : 1000); ++i) {
      panda.camera.orbit(0.01f, 0);
      headless.draw(panda.scene, panda.camera);
    }
    const long rss_before = resident_kib();
    const int64_t allocations_before = headless.context().live_allocations();
    const int64_t host_blocks_before = headless.context().live_host_allocations();
    const int64_t host_bytes_before = headless.context().live_host_bytes();
    for (int i = 0; i < frames; ++i) {
      panda.camera.orbit(0.01f, 0);  // a moving view, as in the studio
      headless.draw(panda.scene, panda.camera);
    }
    const long rss_growth = resident_kib() - rss_before;
    const int64_t allocation_growth = headless.context().live_allocations() - allocations_before;
    const int64_t host_block_growth =
        headless.context().live_host_allocations() - host_blocks_before;
    const int64_t host_byte_growth = headless.context().live_host_bytes() - host_bytes_before;
    state.counters["frames"] = frames;
    state.counters["rss_before_kib"] = static_cast<double>(rss_before);
    state.counters["vk_allocations"] = static_cast<double>(allocations_before);
    state.counters["vk_host_blocks"] = static_cast<double>(host_blocks_before);
    state.counters["vk_host_block_growth"] = static_cast<double>(host_block_growth);
    state.counters["vk_host_byte_growth"] = static_cast<double>(host_byte_growth);
    state.counters["rss_growth_kib"] = static_cast<double>(rss_growth);
    state.counters["vk_allocation_growth"] = static_cast<double>(allocation_growth);
    if (allocation_growth != 0 || host_block_growth != 0 || rss_growth > 4096) {
      static std::string message;  // SkipWithError keeps the pointer
      message = "memory or Vulkan allocations grew over the run: resident +" +
                std::to_string(rss_growth) + " KiB, device allocations +" +
                std::to_string(allocation_growth) + ", driver host blocks +" +
                std::to_string(host_block_growth);
      state.SkipWithError(message.c_str());
    }
  }
}
BENCHMARK(BM_FramesNoGrowth)
    ->Name("Ours/frames_no_growth")
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
