// A path whose edges were checked only at the search's resolution can clip an obstacle between two
// checked states; the continuous output gate refuses such a segment. The planner must not hand
// over what its gate refuses: it re-plans the refused segment (segment_repair.hpp) rather than
// failing the plan. Reproduced on MotionBenchMaker's bookshelf with the Panda's meshes, its edges
// checked coarsely (0.3 rad) so that the search's path clips a shelf: a refused segment is
// re-planned, or where that fails the whole motion is searched again with the finer check.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/planner.hpp"
#include "engine/scene/scene_file.hpp"
#include "mbm_problem.hpp"
#include "support/stall_watch.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

TEST(GateRepair, ACoarselyCheckedPathThatClipsAShelfIsRepairedNotRefused) {
  KINETIC_REQUIRE_MBM();
  const std::unique_ptr<Planner> mbm = test::mbm_panda_planner();
  Planner& planner = *mbm;
  PlannerOptions options;
  options.resolution = 0.3;  // edges checked every 0.3 rad: the gate finds what the search skipped
  // The repair's re-planning shares the budget.
  options.timeout_ms = test::generous_ms(3000);
  options.max_iterations = 1000000;
  options.seed = 1;
  int refused = 0, repaired = 0;
  for (int index = 1; index <= 4; ++index) {
    const test::MbmProblem problem = test::mbm_problem(planner.model(), "bookshelf_thin", index);
    planner.set_scene(problem.scene);
    try {
      const PlanResult result = planner.plan(problem.start, JointGoal{problem.goal}, options);
      EXPECT_FALSE(collision_gate(planner.checker(), result.path).has_value())
          << "problem " << index;
      for (const std::string& note : result.notes)
        repaired += note.find("re-planned") != std::string::npos;
    } catch (const Error& error) {
      if (error.code() != ErrorCode::Timeout) {
        ++refused;
        ADD_FAILURE() << "problem " << index << ": " << error.what();
      }
    }
  }
  EXPECT_EQ(refused, 0);
  EXPECT_GT(repaired, 0)
      << "no path needed a repair: the test no longer reproduces the clipping it guards against";
}

// A plan that fails after the planner reduced its margin says the narrowest margin it searched
// with.
TEST(GateRepair, AFailedPlanSaysTheMarginItWasReducedTo) {
  KINETIC_REQUIRE_MBM();
  const std::unique_ptr<Planner> mbm = test::mbm_panda_planner();
  Planner& planner = *mbm;
  // bookshelf_small 29: start or goal within 1 cm of a shelf (the default margin is 2 cm).
  const test::MbmProblem problem = test::mbm_problem(planner.model(), "bookshelf_small", 29);
  planner.set_scene(problem.scene);
  PlannerOptions options;
  options.max_iterations = 1;  // fails at once
  try {
    planner.plan(problem.start, JointGoal{problem.goal}, options);
    FAIL() << "one iteration solved it";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::Timeout);
    // 0.005 m for the start or goal, then the 2 mm floor when no path kept that clear.
    EXPECT_NE(error.message().find("with margins down to 0.002 m (asked: 0.020 m)"),
              std::string::npos)
        << error.message();
  }
}

// The margin is a preference: where a passage is narrower than the arm plus twice the margin
// (bookshelf_small 32: the 2 cm search's first turn finds nothing, and 1 cm finds a path), the
// planner searches with less in the margins' turns, and says so; the path still passes the exact
// gate. (bookshelf_small 78 and bookshelf_thin 89, used here before, have paths 2 cm clear after
// all: the search found them once it sampled Halton points, and near a stuck tree's own nodes.)
TEST(MarginFallback, APassageNarrowerThanTheMarginIsPlannedWithLessAndSaysSo) {
  KINETIC_REQUIRE_MBM();
  const std::unique_ptr<Planner> mbm = test::mbm_panda_planner();
  Planner& planner = *mbm;
  const test::MbmProblem problem = test::mbm_problem(planner.model(), "bookshelf_small", 32);
  planner.set_scene(problem.scene);
  PlannerOptions options;
  // The margins take turns counted in iterations; the budget only has to hold them all.
  options.timeout_ms = test::generous_ms(1500);
  options.max_iterations = 1000000;
  options.seed = 1;
  const test::StallWatch stalls;
  std::optional<PlanResult> planned;
  try {
    planned = planner.plan(problem.start, JointGoal{problem.goal}, options);
  } catch (const Error& error) {
    // The whole budget is wall-clock time: a machine that stalls the process eats it.
    SKIP_IF_STALLED(stalls, error.code() != ErrorCode::Timeout);
    throw;
  }
  const PlanResult& result = *planned;
  EXPECT_FALSE(collision_gate(planner.checker(), result.path).has_value());
  // The passage is not closed at 2 cm, only hard to find: the 2 cm search's first turn of 8192
  // iterations ends without a path, and a narrower margin's turn finds one (the same on any
  // machine and under the sanitizers: turns are counted in iterations, not time).
  EXPECT_LT(result.margin_used, 0.02);
  EXPECT_GE(result.margin_used, 0.002);
  bool said = false;
  for (const std::string& note : result.notes) {
    const std::string said_why = "no path kept 0.020 m clear in ";
    const std::size_t at = note.find(said_why);
    if (at == std::string::npos) continue;
    said = true;
    // The asked margin had its turns, not half the budget before the first fallback.
    const double wide_ms = std::stod(note.substr(at + said_why.size()));
    SKIP_IF_STALLED(stalls, wide_ms < options.timeout_ms / 2);
    EXPECT_LT(wide_ms, options.timeout_ms / 2) << note;
  }
  EXPECT_TRUE(said) << "the notes do not say why the margin was reduced";
}
