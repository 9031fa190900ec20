// The studio's responsiveness, measured on the real window (X/Xvfb, Vulkan on lavapipe), with
// Google Benchmark and manual timing:
//   Ours/studio_startup_to_first_frame  create the studio (document, window, Vulkan viewport,
//                                       UR5e) and show it, until its first frame is presented.
//   Ours/studio_gizmo_move_to_ik_frame  a synthesised mouse move on the goal gizmo's X arrow until
//                                       the first presented frame that shows the IK answer;
//                                       frames_before_answer counts frames drawn in between
//                                       (0 = the answer is in the next frame).
//   Ours/studio_frames_while_planning   the camera orbits (a mouse move per frame) while a plan
//                                       runs on the planning thread; each iteration is one frame
//                                       interval, max_frame_ms the longest one.
// Issue 7's targets: start-up <= 1.5 s, the IK answer within one frame, no frame over 50 ms.
// The Panda of ../shared/robots (moveit_resources' panda_moveit_config, opened as a user opens it:
// its URDF with the real meshes and its SRDF) in a 1600x1000 window, issue 39's budget
// (<= 33 ms a frame at p95 while orbiting and dragging, the first frame <= 1.5 s after launch):
//   Ours/panda_package_startup_to_first_frame   as the UR5e's, until the Panda's first frame.
//   Ours/panda_package_orbit_frames             the camera orbits, a mouse move per frame.
//   Ours/panda_package_gizmo_drag_frames        the goal gizmo's X arrow dragged, a move per frame
//                                               (IK answers on its worker as the drag goes).
// Each frame iteration is one frame interval; p95_frame_ms and max_frame_ms are counters.
// render_ms is the drawing part of each interval; single_sample_fraction the share of the frames
// drawn Fast (FrameQualityPolicy: while the view moves on lavapipe, single-sample at 0.7x the
// window's width and height, stretched to it; the still frame after the motion is full size, 4x
// MSAA). The spin loop below polls events while it waits, so the GUI thread stays busy between
// frames: compare figures A/B on one machine.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "app/goal/goal_controller.hpp"
#include "app/hopeless_plan.hpp"
#include "app/planning/planning_features.hpp"
#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"
#include "engine/collision/collision_checker.hpp"
#include "panels/planner_panel.hpp"
#include "support/test_paths.hpp"
#include "viewer/gizmo.hpp"

namespace {

using namespace kinetic;
using namespace kinetic::app;

constexpr int kWaitLimitMs = 20000;

// The test suite's pass (KINETIC_BENCH_QUICK) only proves each benchmark runs: a few iterations,
// as it holds the display that the window tests queue for.
int iterations(int full) {
  return std::getenv("KINETIC_BENCH_QUICK") ? std::min(full, 4) : full;
}

// Processes events until `done` or the limit; false on timeout.
template <typename Predicate>
bool spin_until(Predicate done, int limit_ms = kWaitLimitMs) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > limit_ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
  }
  return true;
}

// The Panda package as `kinetic-studio --robot .../panda_moveit_config` opens it.
CommandLine panda_package() {
  CommandLine line;
  line.robot = QString::fromStdString(kinetic::test::shared_robots_dir() +
                                      "/moveit_resources/panda_moveit_config");
  line.robot_given = true;
  line.package_paths = {QString::fromStdString(kinetic::test::shared_robots_dir())};
  return line;
}

std::unique_ptr<Studio> open_studio(benchmark::State& state,
                                    const CommandLine& line = CommandLine{},
                                    const QSize& size = QSize()) {
  auto studio = create_studio(line);
  if (!studio || !studio->viewport) {
    state.SkipWithError("the studio's Vulkan viewport could not be created");
    return nullptr;
  }
  if (size.isValid()) studio->window->resize(size);
  studio->window->show();
  if (!spin_until([&] { return studio->viewport->frames_drawn() > 0; })) {
    state.SkipWithError("no frame was presented within 20 s");
    return nullptr;
  }
  return studio;
}

// Presses the left button on the goal gizmo's X arrow; returns the press point and the screen
// step of one tenth of the arrow (the +X direction), or nothing when the arrow is not on screen.
std::optional<std::pair<QPointF, QPointF>> grab_x_arrow(ViewportWindow& view) {
  if (!spin_until([&] { return view.gizmo().has_value(); })) return std::nullopt;
  const viewer::Gizmo gizmo = *view.gizmo();
  const float scale = viewer::gizmo_scale(gizmo, view.camera(), static_cast<float>(view.height()));
  const Vector3 centre = gizmo.pose.translation().cast<double>();
  const Vector3 axis = viewer::gizmo_axis(gizmo, viewer::GizmoHandle::TranslateX).cast<double>();
  const auto on_arrow = view.project(centre + axis * (0.6 * scale));
  const auto further = view.project(centre + axis * (1.2 * scale));
  if (!on_arrow || !further) return std::nullopt;
  QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, on_arrow->toPoint());
  return std::make_pair(*on_arrow, (*further - *on_arrow) / 10.0);
}

// A pose inside the UR5e's workspace (its zero pose stands stretched out at the edge of reach).
JointVector working_pose() {
  return (JointVector(6) << 0.3, -1.2, 1.4, -0.5, 1.1, 0.2).finished();
}

void studio_startup_to_first_frame(benchmark::State& state) {
  for (auto _ : state) {
    QElapsedTimer clock;
    clock.start();
    auto studio = create_studio(CommandLine{});
    if (!studio || !studio->viewport) {
      state.SkipWithError("the studio's Vulkan viewport could not be created");
      return;
    }
    studio->window->show();
    if (!spin_until([&] { return studio->viewport->frames_drawn() > 0; })) {
      state.SkipWithError("no frame was presented within 20 s");
      return;
    }
    state.SetIterationTime(static_cast<double>(clock.nsecsElapsed()) * 1e-9);
  }
  state.SetLabel("UR5e, default window size");
}
BENCHMARK(studio_startup_to_first_frame)
    ->Name("Ours/studio_startup_to_first_frame")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(3));

void studio_gizmo_move_to_ik_frame(benchmark::State& state) {
  auto studio = open_studio(state);
  if (!studio) return;
  ViewportWindow& view = *studio->viewport;
  GoalController& goal = *studio->window->goal_controller();
  studio->document->set_joints(working_pose());
  spin_until([&] { return false; }, 300);  // settle: the pose change is drawn
  const auto grip = grab_x_arrow(view);
  if (!grip) {
    state.SkipWithError("the gizmo's X arrow is not on screen");
    return;
  }
  const auto [press, step] = *grip;
  int answer_frames = -1, frames = 0;
  bool answered = false;
  QObject::connect(&goal, &GoalController::ikStatusChanged, [&] {
    if (!goal.ik_busy()) answered = true;
  });
  QObject::connect(&view, &ViewportWindow::frameDrawn, [&] {
    ++frames;
    if (answered && answer_frames < 0) answer_frames = frames;
  });
  double frames_before_answer = 0, worst_frames_before = 0, frame_ms = 0;
  int move = 0, failures = 0;
  for (auto _ : state) {
    // Back and forth along the arrow, so the goal stays in reach.
    const double offset = (move++ % 2 == 0) ? 3.0 : 0.0;
    answered = false;
    answer_frames = -1;
    frames = 0;
    QElapsedTimer clock;
    clock.start();
    QTest::mouseMove(&view, (press + step * offset).toPoint());
    if (!spin_until([&] { return answer_frames > 0; })) {
      state.SkipWithError("no frame showed the IK answer within 20 s");
      return;
    }
    state.SetIterationTime(static_cast<double>(clock.nsecsElapsed()) * 1e-9);
    frames_before_answer += answer_frames - 1;
    worst_frames_before = std::max(worst_frames_before, static_cast<double>(answer_frames - 1));
    frame_ms += view.frame_time_ms();
    if (goal.ik_failed()) ++failures;
  }
  QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, press.toPoint());
  const auto n = static_cast<double>(state.iterations());
  state.counters["frames_before_answer"] = frames_before_answer / n;
  state.counters["max_frames_before_answer"] = worst_frames_before;
  state.counters["render_ms"] = frame_ms / n;
  state.counters["ik_failures"] = failures;
  state.SetLabel("UR5e (analytic IK), default window size");
}
BENCHMARK(studio_gizmo_move_to_ik_frame)
    ->Name("Ours/studio_gizmo_move_to_ik_frame")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(40));

// Start and goal in two pan ranges a post near the shoulder separates: the plan cannot succeed,
// so it runs for its whole time budget.
bool start_hopeless_plan(Studio& studio) {
  auto* features = studio.window->findChild<PlanningFeatures*>();
  if (!features) return false;
  panels::PlannerPanel* panel = features->planner_panel();
  if (!kinetic::test::prepare_hopeless_plan(*studio.document, *panel, 600000)) return false;
  QTest::mouseClick(panel->plan_button(), Qt::LeftButton);
  return panel->cancel_button()->isEnabled();
}

// Frame intervals while `step(i)` moves something each frame (the caller holds the button).
// Each iteration is one interval; false when a frame did not come.
template <typename Step>
bool time_frames(benchmark::State& state, ViewportWindow& view, Step step) {
  int frames = 0, fast_frames = 0;
  double render_ms = 0;
  const auto connection = QObject::connect(&view, &ViewportWindow::frameDrawn, [&] {
    ++frames;
    render_ms += view.frame_time_ms();
    if (view.last_frame_quality() == viewer::FrameQuality::Fast) ++fast_frames;
  });
  std::vector<double> intervals;
  int i = 0;
  QElapsedTimer clock;
  clock.start();
  for (auto _ : state) {
    const int before = frames;
    step(i++);
    if (!spin_until([&] { return frames > before; })) {
      state.SkipWithError("no frame within 20 s");
      QObject::disconnect(connection);
      return false;
    }
    const double seconds = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
    clock.restart();
    state.SetIterationTime(seconds);
    intervals.push_back(seconds * 1e3);
  }
  QObject::disconnect(connection);
  std::sort(intervals.begin(), intervals.end());
  state.counters["max_frame_ms"] = intervals.back();
  state.counters["p95_frame_ms"] = intervals[intervals.size() * 95 / 100];
  state.counters["median_frame_ms"] = intervals[intervals.size() / 2];
  state.counters["render_ms"] = render_ms / std::max(1, frames);  // drawing, of each interval
  state.counters["single_sample_fraction"] = static_cast<double>(fast_frames) / std::max(1, frames);
  return true;
}

// Orbits the camera (the left button held away from the gizmo, a sideways step per frame) and
// times the frames.
bool orbit_frames(benchmark::State& state, ViewportWindow& view) {
  const QPoint anchor(view.width() / 8, view.height() / 2);
  QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, anchor);
  const bool timed = time_frames(state, view, [&](int i) {
    QTest::mouseMove(&view, anchor + QPoint((i % 40 + 1) * 4, 0));  // every move differs
  });
  QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, anchor);
  return timed;
}

void studio_frames_while_planning(benchmark::State& state) {
  auto studio = open_studio(state);
  if (!studio) return;
  ViewportWindow& view = *studio->viewport;
  if (!start_hopeless_plan(*studio)) {
    state.SkipWithError("the background plan did not start");
    return;
  }
  spin_until([&] { return false; }, 300);
  if (!orbit_frames(state, view)) return;
  auto* features = studio->window->findChild<PlanningFeatures*>();
  const bool still_planning = features && features->planner_panel()->cancel_button()->isEnabled();
  if (features) QTest::mouseClick(features->planner_panel()->cancel_button(), Qt::LeftButton);
  state.counters["planning_throughout"] = still_planning ? 1 : 0;
  state.SetLabel("UR5e orbit while an offline plan runs, default window size");
}
BENCHMARK(studio_frames_while_planning)
    ->Name("Ours/studio_frames_while_planning")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(60));

constexpr int kPandaFrames = 120;
const QSize kBudgetWindow(1600, 1000);

bool shared_panda_available(benchmark::State& state) {
  if (kinetic::test::shared_robots_available()) return true;
  state.SkipWithError("../shared/robots is absent: the Panda package cannot be opened");
  return false;
}

// The Panda package's studio at the budget's size, its first frames settled; null (the benchmark
// skipped, saying why) without ../shared/robots or a viewport.
std::unique_ptr<Studio> open_settled_panda(benchmark::State& state) {
  if (!shared_panda_available(state)) return nullptr;
  auto studio = open_studio(state, panda_package(), kBudgetWindow);
  if (studio) spin_until([&] { return false; }, 300);
  return studio;
}

void panda_package_startup_to_first_frame(benchmark::State& state) {
  if (!shared_panda_available(state)) return;
  for (auto _ : state) {
    QElapsedTimer clock;
    clock.start();
    auto studio = open_studio(state, panda_package(), kBudgetWindow);
    if (!studio) return;
    state.SetIterationTime(static_cast<double>(clock.nsecsElapsed()) * 1e-9);
  }
  state.SetLabel("Panda package (real meshes), 1600x1000");
}
BENCHMARK(panda_package_startup_to_first_frame)
    ->Name("Ours/panda_package_startup_to_first_frame")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(3));

void panda_package_orbit_frames(benchmark::State& state) {
  auto studio = open_settled_panda(state);
  if (!studio) return;
  ViewportWindow& view = *studio->viewport;
  if (!orbit_frames(state, view)) return;
  state.SetLabel("Panda package (real meshes), 1600x1000, orbit");
}
BENCHMARK(panda_package_orbit_frames)
    ->Name("Ours/panda_package_orbit_frames")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(kPandaFrames));

void panda_package_gizmo_drag_frames(benchmark::State& state) {
  auto studio = open_settled_panda(state);
  if (!studio) return;
  ViewportWindow& view = *studio->viewport;
  const auto grip = grab_x_arrow(view);
  if (!grip) {
    state.SkipWithError("the gizmo's X arrow is not on screen");
    return;
  }
  const auto [press, step] = *grip;
  // Along the arrow and back, a tenth of its length a frame, so the goal stays in reach: 1..10,
  // 9..0, 1..10, ... Every move differs, as the orbit's: a move to where the cursor already is
  // draws nothing, and its interval timed the settle frame 160 ms later once IK answered within
  // the frame of its move (the turns at 10 and 0 were such moves, 2 of every 20 intervals).
  time_frames(state, view, [&, press = press, step = step](int i) {
    const int phase = i % 20;
    QTest::mouseMove(&view, (press + step * (phase < 10 ? phase + 1 : 19 - phase)).toPoint());
  });
  QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, press.toPoint());
  state.SetLabel("Panda package (real meshes), 1600x1000, goal gizmo drag");
}
BENCHMARK(panda_package_gizmo_drag_frames)
    ->Name("Ours/panda_package_gizmo_drag_frames")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(iterations(kPandaFrames));

}  // namespace

int main(int argc, char** argv) {
  // Under `make bench` or CTest the X server is Xvfb; the studio never asks the recovery question.
  qputenv("KINETIC_NO_RECOVERY", "1");
  QStandardPaths::setTestModeEnabled(true);  // never the user's settings, layout or autosave
  QApplication application(argc, argv);
  // A package opened with load warnings says them in a modal box at start-up (the Panda's SRDF
  // lists a passive joint in a group): closed as a user would, so the window gets the events.
  QTimer dismiss_dialogs;
  QObject::connect(&dismiss_dialogs, &QTimer::timeout, [] {
    if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) dialog->reject();
  });
  dismiss_dialogs.start(20);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
