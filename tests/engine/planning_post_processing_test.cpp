// Post-processing of raw search paths (path_processing.hpp) on the cluttered benchmark scenes:
// the redundant-waypoint pass, random shortcutting and corner-cutting smoothing keep both ends,
// never lengthen the path, keep every waypoint valid at the planning margin and every segment
// collision-free (the continuous output gate); smoothing cuts a sharp corner exactly when the
// edge across it is free, so corners next to obstacles stay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/planning/planner.hpp"
#include "engine/planning/planning_space.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

constexpr int kProblems = test::cases(10, 2);
constexpr double kMargin = 0.02, kResolution = 0.05;  // the default preset's

struct Case {
  RobotModelPtr model;
  std::unique_ptr<Planner> planner;
  std::vector<JointPath> raw;  // search output, not post-processed, with at least one corner
};

// Raw RRT-Connect paths between benchmark problems of a scene (fixed seeds).
Case raw_paths(const std::string& robot, const std::string& scene_name) {
  Case c;
  c.model = load_builtin_robot(robot);
  const PlanningScene scene = benchmark_scene(scene_name, c.model);
  c.planner = std::make_unique<Planner>(c.model, scene);
  PlannerOptions raw = default_preset();
  raw.timeout_ms = test::generous_ms(2000.0);
  raw.shortcut_passes = 0;
  raw.smoothing = false;
  // OMPL's longer step (a fifth of the joint box diagonal): paths with long detours, so every
  // pass has work (with the planners' own default step, a few paths can be nearly straight).
  raw.range = 0.2 * (c.model->upper_limits() - c.model->lower_limits()).norm();
  std::uint64_t seed = 0;
  const auto solvable = [&](const JointVector& start, const JointVector& goal) {
    raw.seed = ++seed;
    try {
      return !c.planner->plan(start, JointGoal{goal}, raw).path.empty();
    } catch (const Error&) {
      return false;
    }
  };
  const BenchmarkProblemSet set =
      benchmark_problems(c.model, scene, 4 * kProblems, 17, kMargin, solvable);
  for (const auto& problem : set.problems) {
    raw.seed = ++seed;
    JointPath path = c.planner->plan(problem.start, JointGoal{problem.goal}, raw).path;
    if (path.size() >= 3 && static_cast<int>(c.raw.size()) < kProblems)
      c.raw.push_back(std::move(path));
  }
  return c;
}

PlanningSpace space_for(Case& c, const JointPath& path, double margin = kMargin) {
  std::vector<int> variables(static_cast<std::size_t>(c.model->dof()));
  for (int j = 0; j < c.model->dof(); ++j) variables[static_cast<std::size_t>(j)] = j;
  return PlanningSpace(c.planner->checker(), variables, path.front(), margin, kResolution);
}

// Ends kept, no longer than before, waypoints valid at the margin, segments collision-free.
void expect_sound(Case& c, PlanningSpace& space, const JointPath& before, const JointPath& after) {
  ASSERT_GE(after.size(), 2u);
  EXPECT_EQ(after.front(), before.front());
  EXPECT_EQ(after.back(), before.back());
  EXPECT_LE(path_length(after), path_length(before) + 1e-9);
  for (std::size_t i = 0; i < after.size(); ++i)
    EXPECT_TRUE(space.valid(after[i])) << "waypoint " << i;
  const auto problem = collision_gate(c.planner->checker(), after);
  EXPECT_FALSE(problem.has_value()) << *problem;
}

const std::vector<std::pair<std::string, std::string>>& cluttered() {
  // Under the sanitizers one scene per robot (each test's shard plans its own paths).
  static const std::vector<std::pair<std::string, std::string>> cases =
      test::kSanitized
          ? std::vector<std::pair<std::string, std::string>>{{"panda", "boxes20"},
                                                             {"ur5e", "shelf"}}
          : std::vector<std::pair<std::string, std::string>>{
                {"panda", "boxes20"}, {"ur5e", "boxes20"}, {"panda", "shelf"}, {"ur5e", "shelf"}};
  return cases;
}

Case& cached(const std::string& robot, const std::string& scene) {
  static std::map<std::string, Case> cache;
  const std::string key = robot + "/" + scene;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, raw_paths(robot, scene)).first;
  return it->second;
}

double turning_angle(const JointVector& before, const JointVector& corner,
                     const JointVector& after) {
  const JointVector in = corner - before, out = after - corner;
  return std::acos(std::clamp(in.dot(out) / (in.norm() * out.norm()), -1.0, 1.0));
}

}  // namespace

TEST(PostProcessing, RedundantWaypointPassKeepsInputWaypointsJoinedByValidEdges) {
  int dropped = 0;
  for (const auto& [robot, scene] : cluttered()) {
    SCOPED_TRACE(robot + " / " + scene);
    Case& c = cached(robot, scene);
    ASSERT_FALSE(c.raw.empty());
    for (const JointPath& raw : c.raw) {
      PlanningSpace space = space_for(c, raw);
      JointPath path = raw;
      remove_redundant_waypoints(space, path);
      expect_sound(c, space, raw, path);
      // A subsequence of the input, each new edge checked at the planning resolution and margin.
      std::size_t at = 0;
      for (const JointVector& q : path) {
        while (at < raw.size() && raw[at] != q) ++at;
        ASSERT_LT(at, raw.size()) << "a waypoint that is not one of the input's, in order";
      }
      for (std::size_t i = 1; i < path.size(); ++i)
        EXPECT_TRUE(
            edge_collision_free(c.planner->checker(), path[i - 1], path[i], kResolution, kMargin));
      dropped += static_cast<int>(raw.size() - path.size());
    }
  }
  EXPECT_GT(dropped, 0);
}

TEST(PostProcessing, RedundantWaypointPassStraightensAPathInFreeSpace) {
  const RobotModelPtr model = load_builtin_robot("panda");
  Planner planner(model, PlanningScene{});
  const JointVector a = model->mid_configuration();
  JointVector b = a;
  b[0] += 1.0;
  b[3] += 0.5;
  // A detour through two waypoints off the straight line.
  JointVector off1 = a + (b - a) * 0.3, off2 = a + (b - a) * 0.7;
  off1[1] += 0.3;
  off2[5] -= 0.4;
  const JointPath raw{a, off1, off2, b};
  std::vector<int> variables(static_cast<std::size_t>(model->dof()));
  for (int j = 0; j < model->dof(); ++j) variables[static_cast<std::size_t>(j)] = j;
  PlanningSpace space(planner.checker(), variables, a, kMargin, kResolution);
  for (const JointVector& q : raw) ASSERT_TRUE(space.valid(q));
  ASSERT_TRUE(space.motion_valid(a, b));
  JointPath path = raw;
  remove_redundant_waypoints(space, path);
  EXPECT_EQ(path, (JointPath{a, b}));
}

TEST(PostProcessing, ShortcuttingShortensAndIsReproducible) {
  for (const auto& [robot, scene] : cluttered()) {
    SCOPED_TRACE(robot + " / " + scene);
    Case& c = cached(robot, scene);
    double before = 0.0, after = 0.0;
    for (std::size_t i = 0; i < c.raw.size(); ++i) {
      PlanningSpace space = space_for(c, c.raw[i]);
      JointPath path = c.raw[i];
      remove_redundant_waypoints(space, path);
      const JointPath reduced = path;
      PlanControl control;
      SearchClock clock(1e9, control);
      std::mt19937_64 rng(i);
      shortcut_path(space, path, 100, rng, clock);
      expect_sound(c, space, reduced, path);
      JointPath again = reduced;
      std::mt19937_64 same_rng(i);
      shortcut_path(space, again, 100, same_rng, clock);
      EXPECT_EQ(again, path);
      before += path_length(reduced);
      after += path_length(path);
    }
    // Raw RRT-Connect paths in clutter zig-zag: shortcutting removes a large part of them.
    EXPECT_LT(after, 0.95 * before);
  }
}

// A shortcut must save 5% of its own length: across a corner, a chord saves at most
// 1 / sin(half the corner's angle) - 1 of its length (a chord cutting both edges equally), so a
// shallow detour is kept by any number of tries, and a deeper one (which saves up to 12%) is cut.
TEST(PostProcessing, ShortcutsThatSaveLittleForTheirLengthAreNotTaken) {
  const RobotModelPtr model = load_builtin_robot("panda");
  Planner planner(model, PlanningScene{});
  const JointVector a = model->mid_configuration();
  JointVector b = a;
  b[0] += 0.8;  // half-length 0.4 rad
  std::vector<int> variables(static_cast<std::size_t>(model->dof()));
  for (int j = 0; j < model->dof(); ++j) variables[static_cast<std::size_t>(j)] = j;
  PlanningSpace space(planner.checker(), variables, a, kMargin, kResolution);
  const auto detour = [&](double depth) {  // a corner `depth` x the half-length off the line
    JointVector corner = (a + b) * 0.5;
    corner[2] += 0.4 * depth;
    return JointPath{a, corner, b};
  };
  PlanControl control;
  SearchClock clock(1e9, control);
  std::mt19937_64 rng(3);
  // Depth 0.2: every chord saves under 2% of its length (and ~2% of the path, above its 0.2%).
  const JointPath shallow = detour(0.2);
  for (const JointVector& q : shallow) ASSERT_TRUE(space.valid(q));
  JointPath path = shallow;
  shortcut_path(space, path, 400, rng, clock);
  EXPECT_EQ(path, shallow);
  // Depth 0.5: chords near the middle save up to 12% of their length.
  const JointPath deep = detour(0.5);
  for (const JointVector& q : deep) ASSERT_TRUE(space.valid(q));
  path = deep;
  shortcut_path(space, path, 400, rng, clock);
  EXPECT_LT(path_length(path), path_length(deep) - 1e-3);
}

TEST(PostProcessing, SmoothingCutsSharpCornersExactlyWhereTheEdgeAcrossIsFree) {
  int cut = 0, kept_blocked = 0;
  for (const auto& [robot, scene] : cluttered()) {
    SCOPED_TRACE(robot + " / " + scene);
    Case& c = cached(robot, scene);
    for (const JointPath& raw : c.raw) {
      PlanningSpace planning = space_for(c, raw);
      PlanControl control;
      SearchClock clock(1e9, control);
      // One round: each interior corner is either kept or replaced by its two cut points. Also
      // with a wide margin, where many more cuts are blocked (edges across corners in clutter).
      for (const double margin : {kMargin, 0.1}) {
        SCOPED_TRACE("margin " + std::to_string(margin));
        PlanningSpace space = space_for(c, raw, margin);
        JointPath path = raw;
        smooth_path(space, path, 1, clock);
        expect_sound(c, planning, raw, path);
        std::size_t at = 1;
        for (std::size_t i = 1; i + 1 < raw.size(); ++i) {
          const JointVector in = raw[i] + (raw[i - 1] - raw[i]) * 0.25;
          const JointVector out = raw[i] + (raw[i + 1] - raw[i]) * 0.25;
          ASSERT_LT(at + 1, path.size());
          if (path[at] == raw[i]) {  // kept: gentle, or the cut is blocked
            if (turning_angle(raw[i - 1], raw[i], raw[i + 1]) >= 0.25) {
              EXPECT_FALSE(space.valid(in) && space.valid(out) &&
                           edge_collision_free(c.planner->checker(), in, out, kResolution, margin))
                  << "corner " << i << " kept though the edge across it is free";
              ++kept_blocked;
            }
            ++at;
          } else {
            EXPECT_LT((path[at] - in).norm(), 1e-12) << "corner " << i;
            EXPECT_LT((path[at + 1] - out).norm(), 1e-12) << "corner " << i;
            EXPECT_TRUE(space.valid(in) && space.valid(out));
            EXPECT_TRUE(edge_collision_free(c.planner->checker(), in, out, kResolution, margin));
            ++cut;
            at += 2;
          }
        }
        EXPECT_EQ(at + 1, path.size());
      }

      // Three rounds (the presets' default) stay sound.
      JointPath smooth = raw;
      smooth_path(planning, smooth, 3, clock);
      expect_sound(c, planning, raw, smooth);
    }
  }
  EXPECT_GT(cut, 0);
  EXPECT_GT(kept_blocked, 0);  // corners next to obstacles were met, and stayed
}
