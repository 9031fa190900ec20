// Pick and place (engine/task): grasp candidates for boxes, cylinders and spheres with a parallel
// gripper or a suction cup, best first; the eight-stage chain on the real UR5e in the example scene
// and on the Panda, with the contacts the task allows only while they happen; timing the whole
// task; and every mistake as a typed error that says what to change.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "builtin_arms.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/task/scene_switch.hpp"
#include "engine/trajectory/validation.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;
using Kind = TaskStage::Kind;

namespace {

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The error's code and message (with hint) of what `run` throws; fails the test when nothing is
// thrown.
template <typename Run>
std::pair<ErrorCode, std::string> error_of(Run&& run) {
  try {
    run();
  } catch (const Error& error) {
    return {error.code(), error.message() + " | " + error.hint()};
  }
  ADD_FAILURE() << "no error thrown";
  return {ErrorCode::InvalidValue, ""};
}

PlanningScene example_scene() {
  return load_scene(kinetic::test::test_source_dir() +
                    "/../examples/jobs/pick_and_place_scene.json");
}

Pose at(double x, double y, double z) {
  return pose_from_xyz_rpy({x, y, z}, {0, 0, 0});
}

// The face of a box (outward unit normal, object frame) a grasp comes in through.
Vector3 face_normal(const Grasp& grasp) {
  return -grasp.approach();
}

// ---------------------------------------------------------------------------------------------
// Grasp generation

TEST(Grasps, BoxClosesOnlyAcrossTheSpanTheGripperFits) {
  const GripperSpec gripper;  // opens 0.08 m
  const std::vector<Grasp> grasps =
      generate_grasps(Shape::box({0.05, 0.2, 0.1}), Pose::Identity(), gripper);
  // Four faces have x in them (±y, ±z), each closing across x both ways round; ±x faces have none.
  ASSERT_EQ(grasps.size(), 8u);
  for (const Grasp& grasp : grasps) {
    SCOPED_TRACE(grasp.description);
    EXPECT_DOUBLE_EQ(grasp.width, 0.05);
    const Eigen::Matrix3d& r = grasp.object_to_tcp.linear();
    EXPECT_NEAR(std::abs(r.col(1).x()), 1.0, 1e-12);  // fingers close along TCP Y = ±x
    EXPECT_NEAR(std::abs(face_normal(grasp).x()), 0.0, 1e-12);
    EXPECT_TRUE(r.isUnitary(1e-12));
    EXPECT_NEAR(r.determinant(), 1.0, 1e-12);
    EXPECT_TRUE(mentions(grasp.description, "across x")) << grasp.description;
  }
}

TEST(Grasps, BoxTcpPointsIntoTheFaceAtFingerDepth) {
  GripperSpec gripper;
  gripper.finger_depth = 0.03;
  const Vector3 size(0.05, 0.2, 0.1);
  const std::vector<Grasp> grasps = generate_grasps(Shape::box(size), Pose::Identity(), gripper);
  ASSERT_FALSE(grasps.empty());
  for (const Grasp& grasp : grasps) {
    SCOPED_TRACE(grasp.description);
    const Vector3 n = face_normal(grasp);
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    EXPECT_NEAR(std::abs(n[axis]), 1.0, 1e-12);  // a face normal, and TCP Z is against it
    const double half = 0.5 * size[axis];
    EXPECT_TRUE(
        grasp.object_to_tcp.translation().isApprox(n * (half - std::min(0.03, half)), 1e-12))
        << grasp.object_to_tcp.translation().transpose();
  }
  // The +z face (half extent 0.05): the TCP 3 cm under it, 2 cm above the centre.
  const auto top = std::find_if(grasps.begin(), grasps.end(),
                                [](const Grasp& g) { return g.approach().z() < -0.99; });
  ASSERT_NE(top, grasps.end());
  EXPECT_NEAR(top->object_to_tcp.translation().z(), 0.02, 1e-12);
}

TEST(Grasps, ObjectTooWideForTheGripperSaysItsNarrowestSpanAndTheOpening) {
  const auto [code, text] = error_of([] {
    generate_grasps(Shape::box({0.12, 0.15, 0.2}), Pose::Identity(), {});
  });
  EXPECT_EQ(code, ErrorCode::InvalidValue);
  EXPECT_TRUE(mentions(text, "0.12 m across at its narrowest")) << text;
  EXPECT_TRUE(mentions(text, "opens 0.08 m (GripperSpec::max_opening)")) << text;
}

TEST(Grasps, CylinderIsHeldAtItsEndsAndAroundItsSide) {
  GripperSpec gripper;
  gripper.yaw_steps = 4;
  const double radius = 0.025;
  // Too long to close along the axis: ends (2 x 4 turns) and the side across the diameter (4 x 2).
  const std::vector<Grasp> long_one =
      generate_grasps(Shape::cylinder(radius, 0.12), Pose::Identity(), gripper);
  int ends = 0, sides = 0;
  for (const Grasp& grasp : long_one) {
    SCOPED_TRACE(grasp.description);
    EXPECT_DOUBLE_EQ(grasp.width, 0.05);
    const Eigen::Matrix3d& r = grasp.object_to_tcp.linear();
    EXPECT_NEAR(r.col(1).dot(r.col(2)), 0.0, 1e-12);
    if (std::abs(grasp.approach().z()) > 0.99) {
      ++ends;
      EXPECT_NEAR(r.col(1).z(), 0.0, 1e-12);  // across the diameter
      EXPECT_NEAR(std::abs(grasp.object_to_tcp.translation().z()), 0.06 - 0.03, 1e-12);
    } else {
      ++sides;
      EXPECT_NEAR(grasp.approach().z(), 0.0, 1e-12);
      EXPECT_NEAR(r.col(1).z(), 0.0, 1e-12);  // fingers level: across the diameter
      EXPECT_NEAR(grasp.object_to_tcp.translation().norm(), 0.0,
                  1e-12);  // finger depth reaches the axis
    }
  }
  EXPECT_EQ(ends, 8);
  EXPECT_EQ(sides, 8);
  // Short enough to close along the axis too: 8 more side grasps, their fingers along z.
  const std::vector<Grasp> short_one =
      generate_grasps(Shape::cylinder(radius, 0.06), Pose::Identity(), gripper);
  ASSERT_EQ(short_one.size(), 24u);
  const auto along = std::count_if(short_one.begin(), short_one.end(), [](const Grasp& g) {
    return std::abs(g.object_to_tcp.linear().col(1).z()) > 0.99 && std::abs(g.width - 0.06) < 1e-12;
  });
  EXPECT_EQ(along, 8);
}

TEST(Grasps, SphereIsApproachedStraightDownWhateverItsRotation) {
  const Pose tilted = pose_from_xyz_rpy({0.4, 0.1, 0.2}, {0.7, -0.3, 1.1});
  const std::vector<Grasp> grasps = generate_grasps(Shape::sphere(0.03), tilted, {});
  ASSERT_GT(grasps.size(), 8u);
  const Grasp& best = grasps.front();
  EXPECT_TRUE((tilted.linear() * best.approach()).isApprox(-Vector3::UnitZ(), 1e-12));
  EXPECT_TRUE(mentions(best.description, "from above")) << best.description;
  for (const Grasp& grasp : grasps) {
    EXPECT_DOUBLE_EQ(grasp.width, 0.06);
    // Finger depth 0.03 reaches the centre: every TCP there, fingers across the diameter.
    EXPECT_NEAR(grasp.object_to_tcp.translation().norm(), 0.0, 1e-12);
  }
  EXPECT_EQ(generate_grasps(Shape::sphere(0.035), Pose::Identity(), {}).size(), grasps.size());
  GripperSpec narrow;
  narrow.max_opening = 0.09;
  const std::string text =
      error_of([&] { generate_grasps(Shape::sphere(0.05), Pose::Identity(), narrow); }).second;
  EXPECT_TRUE(mentions(text, "0.1 m across")) << text;
}

TEST(Grasps, SuctionSitsOnEveryFlatFaceTurnedAboutItsNormal) {
  GripperSpec cup;
  cup.kind = GripperSpec::Kind::Suction;
  cup.yaw_steps = 4;
  const Vector3 size(0.3, 0.2, 0.1);  // wider than any parallel gripper: suction does not care
  const std::vector<Grasp> grasps = generate_grasps(Shape::box(size), Pose::Identity(), cup);
  ASSERT_EQ(grasps.size(), 24u);
  for (const Grasp& grasp : grasps) {
    SCOPED_TRACE(grasp.description);
    EXPECT_EQ(grasp.width, 0.0);
    const Vector3 n = face_normal(grasp);
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    EXPECT_TRUE(
        grasp.object_to_tcp.translation().isApprox(n * 0.5 * size[axis], 1e-12));  // on the face
  }
  EXPECT_TRUE(generate_grasps(Shape::box(size), Pose::Identity(), cup)
                  .front()
                  .approach()
                  .isApprox(-Vector3::UnitZ()));
  // Cylinders: the two end faces only.
  const std::vector<Grasp> ends = generate_grasps(Shape::cylinder(0.1, 0.2), Pose::Identity(), cup);
  ASSERT_EQ(ends.size(), 8u);
  for (const Grasp& grasp : ends)
    EXPECT_NEAR(std::abs(grasp.object_to_tcp.translation().z()), 0.1, 1e-12);
  const auto [code, text] =
      error_of([&] { generate_grasps(Shape::sphere(0.05), Pose::Identity(), cup); });
  EXPECT_EQ(code, ErrorCode::Unsupported);
  EXPECT_TRUE(mentions(text, "sphere")) << text;
}

TEST(Grasps, UprightObjectIsGraspedFromAboveFirstAndFromBelowLast) {
  const std::vector<Grasp> grasps =
      generate_grasps(Shape::box({0.04, 0.06, 0.1}), at(0.5, 0, 0.05), {});
  ASSERT_GE(grasps.size(), 4u);
  for (std::size_t i = 1; i < grasps.size(); ++i) EXPECT_GE(grasps[i - 1].score, grasps[i].score);
  EXPECT_TRUE(grasps.front().approach().isApprox(-Vector3::UnitZ(), 1e-12));
  EXPECT_TRUE(grasps.back().approach().isApprox(Vector3::UnitZ(), 1e-12));
  EXPECT_TRUE(mentions(grasps.front().description, "from above")) << grasps.front().description;
  EXPECT_TRUE(mentions(grasps.back().description, "from below")) << grasps.back().description;
  // From above both spans fit: the narrower one (x, 0.04 m) comes first.
  EXPECT_DOUBLE_EQ(grasps.front().width, 0.04);
  EXPECT_EQ(grasps.front().description, "from above, +z face, across x");
}

TEST(Grasps, TurningTheObjectChangesWhichGraspsComeFromAbove) {
  const Shape box = Shape::box({0.04, 0.06, 0.07});
  // Lying on its side (90° about x): its +y face looks up.
  const Pose lying = pose_from_xyz_rpy({0.5, 0, 0.03}, {std::numbers::pi / 2, 0, 0});
  const std::vector<Grasp> grasps = generate_grasps(box, lying, {});
  const Grasp& best = grasps.front();
  EXPECT_TRUE((lying.linear() * best.approach()).isApprox(-Vector3::UnitZ(), 1e-12));
  EXPECT_TRUE(best.approach().isApprox(-Vector3::UnitY(), 1e-12)) << best.approach().transpose();
  EXPECT_TRUE(mentions(best.description, "from above, +y face")) << best.description;
  const std::vector<Grasp> upright = generate_grasps(box, at(0.5, 0, 0.035), {});
  EXPECT_TRUE(upright.front().approach().isApprox(-Vector3::UnitZ(), 1e-12));
}

TEST(Grasps, InvalidGripperSpecNamesTheField) {
  const auto field_of = [](GripperSpec spec) { return error_of([&] { spec.validate(); }).second; };
  GripperSpec spec;
  EXPECT_NO_THROW(spec.validate());
  spec.max_opening = -0.01;
  EXPECT_TRUE(mentions(field_of(spec), "GripperSpec::max_opening")) << field_of(spec);
  spec = {};
  spec.min_opening = 0.1;
  EXPECT_TRUE(mentions(field_of(spec), "GripperSpec::min_opening")) << field_of(spec);
  spec = {};
  spec.finger_depth = std::nan("");
  EXPECT_TRUE(mentions(field_of(spec), "GripperSpec::finger_depth")) << field_of(spec);
  spec = {};
  spec.yaw_steps = 0;
  EXPECT_TRUE(mentions(field_of(spec), "GripperSpec::yaw_steps")) << field_of(spec);
  EXPECT_EQ(error_of([&] {
              generate_grasps(Shape::box({0.05, 0.05, 0.05}), Pose::Identity(), spec);
            }).first,
            ErrorCode::InvalidValue);
  EXPECT_EQ(error_of([] {
              generate_grasps(Shape::half_space(Vector3::UnitZ(), 0), Pose::Identity(), {});
            }).first,
            ErrorCode::Unsupported);
}

// ---------------------------------------------------------------------------------------------
// Pick and place on the UR5e in the example scene: the part from its spot to the table on the
// other side of the box.

PickPlaceRequest ur5e_request() {
  PickPlaceRequest request;
  request.object = "part";
  request.place_pose = at(0.45, 0.35, 0.035);
  // The built-in UR5e has no gripper: the flange holds the part on its surface (as a cup or a
  // magnet would), where the wrist's last two bodies end: both touch it.
  request.gripper.finger_depth = 0.0;
  request.touch_links = {"link6", "link5"};
  request.options.seed = 7;
  request.options.timeout_ms = kinetic::test::generous_ms(2000.0);
  return request;
}

struct Ur5eTask {
  PlanningScene scene;
  JointVector start;
  PickPlaceResult result;
};

const Ur5eTask& ur5e_task() {
  static const Ur5eTask task = [] {
    Ur5eTask t;
    t.scene = example_scene();
    t.start = test::builtin_ur5e()->named_pose("ready");
    Planner planner(test::builtin_ur5e(), t.scene);
    t.result = plan_pick_and_place(planner, t.start, ur5e_request());
    return t;
  }();
  return task;
}

Pose world_tcp(const Planner& planner, const JointVector& q) {
  return compute_link_pose(planner.model(), q, planner.chain().base_link()) * planner.tcp_pose(q);
}

double off_line(const Vector3& p, const Vector3& a, const Vector3& b) {
  const Vector3 d = (b - a).normalized();
  const Vector3 v = p - a;
  return (v - v.dot(d) * d).norm();
}

TEST(PickPlace, Ur5eChainHasTheEightStagesInOrder) {
  const PickPlaceResult& result = ur5e_task().result;
  const std::vector<Kind> kinds{Kind::Move,     Kind::Approach, Kind::Grasp,   Kind::Lift,
                                Kind::Transfer, Kind::Place,    Kind::Release, Kind::Retreat};
  ASSERT_EQ(result.stages.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(result.stages[i].kind, kinds[i]) << i;
    EXPECT_EQ(result.stages[i].path.empty(), !result.stages[i].moves()) << i;
  }
  EXPECT_STREQ(to_string(Kind::Transfer), "transfer");
  EXPECT_TRUE(result.stages.front().path.front().isApprox(ur5e_task().start, 1e-12));
  EXPECT_TRUE(result.final_state.isApprox(result.stages.back().path.back(), 0.0));
  // Each motion starts where the one before ended.
  const JointPath* last = nullptr;
  for (const TaskStage& stage : result.stages) {
    if (!stage.moves()) continue;
    if (last) {
      EXPECT_LT((stage.path.front() - last->back()).norm(), 1e-9) << stage.name;
    }
    last = &stage.path;
  }
  EXPECT_GE(result.grasps_tried, 1);
  EXPECT_LE(result.grasps_tried, result.grasp_candidates);
  EXPECT_EQ(result.grasp_candidates, 16);  // max_grasps of the cylinder's 48
  EXPECT_GT(result.planning_time_ms, 0.0);
  EXPECT_TRUE(mentions(result.grasp.description, "from above")) << result.grasp.description;
}

TEST(PickPlace, Ur5eMotionsAreCollisionFreeInTheirStagesScenesAndWithinLimits) {
  const PickPlaceResult& result = ur5e_task().result;
  CollisionChecker checker(test::builtin_ur5e());
  for (const TaskStage& stage : result.stages) {
    if (!stage.moves()) continue;
    SCOPED_TRACE(stage.name);
    checker.set_scene(stage.scene);
    for (std::size_t i = 0; i < stage.path.size(); ++i) {
      EXPECT_TRUE(test::builtin_ur5e()->within_limits(stage.path[i])) << i;
      if (i > 0) {
        EXPECT_TRUE(checker.motion_valid_discrete(stage.path[i - 1], stage.path[i], 0.002)) << i;
      }
    }
  }
}

TEST(PickPlace, Ur5eStraightStagesKeepTheTcpOnTheirLines) {
  const PickPlaceResult& result = ur5e_task().result;
  const Planner planner(test::builtin_ur5e());
  for (const TaskStage& stage : result.stages) {
    if (stage.kind == Kind::Move || stage.kind == Kind::Transfer || !stage.moves()) continue;
    SCOPED_TRACE(stage.name);
    const Vector3 a = world_tcp(planner, stage.path.front()).translation();
    const Vector3 b = world_tcp(planner, stage.path.back()).translation();
    EXPECT_NEAR((b - a).norm(), 0.10, 1e-3);
    for (const JointVector& q : stage.path)
      EXPECT_LT(off_line(world_tcp(planner, q).translation(), a, b), 1e-3);
    if (stage.kind == Kind::Lift) {
      EXPECT_NEAR(b.z() - a.z(), 0.10, 1e-3);  // straight up
    }
    if (stage.kind == Kind::Place) {
      EXPECT_NEAR(a.z() - b.z(), 0.10, 1e-3);  // straight down
    }
  }
}

// In the example the part is carried round the box. The planner alone connects to the elbow-down
// solution of the pre-place pose by a straight joint line (4.3 rad, the elbow turning 3 rad); the
// task keeps the arm on its own branch: the nearest solution, about 2 rad away.
TEST(PickPlace, Ur5eCarryEndsOnTheArmsOwnBranch) {
  const Ur5eTask& task = ur5e_task();
  const TaskStage& transfer = task.result.stages[4];
  Planner planner(test::builtin_ur5e(), transfer.scene);
  const std::vector<JointVector> solutions =
      planner.resolve_goal(transfer.path.front(), PoseGoal{planner.tcp_pose(transfer.path.back())});
  ASSERT_GE(solutions.size(), 2u);
  EXPECT_LT((transfer.path.back() - solutions.front()).norm(), 1e-6);            // nearest first
  EXPECT_LT(std::abs(transfer.path.back()[2] - transfer.path.front()[2]), 1.0);  // the elbow
  EXPECT_LT(path_length(transfer.path), 3.0);
}

TEST(PickPlace, Ur5eApproachEndsWithTheTcpAtTheGrasp) {
  const Ur5eTask& task = ur5e_task();
  const Planner planner(test::builtin_ur5e());
  const Pose object = task.scene.obstacle("part").pose;
  const Pose expected = object * task.result.grasp.object_to_tcp;
  const Pose reached = world_tcp(planner, task.result.stages[1].path.back());
  EXPECT_LT((reached.translation() - expected.translation()).norm(), 1e-4);
  EXPECT_LT(Quaternion(reached.linear()).angularDistance(Quaternion(expected.linear())), 1e-3);
  // The pre-grasp is approach_distance back along the approach.
  const Pose pre = world_tcp(planner, task.result.stages[0].path.back());
  EXPECT_TRUE((expected.translation() - pre.translation())
                  .normalized()
                  .isApprox(expected.linear().col(2), 1e-3));
}

TEST(PickPlace, Ur5eLiftRaisesTheHeldObjectByTheLiftDistance) {
  const Ur5eTask& task = ur5e_task();
  const TaskStage& lift = task.result.stages[3];
  ASSERT_TRUE(lift.scene.has_attached("part"));
  const AttachedObject& held = lift.scene.attached("part");
  EXPECT_EQ(held.link, "tool0");
  EXPECT_EQ(held.touch_links, (std::vector<std::string>{"link6", "link5"}));
  const Pose before =
      compute_link_pose(*test::builtin_ur5e(), lift.path.front(), held.link) * held.pose;
  const Pose after =
      compute_link_pose(*test::builtin_ur5e(), lift.path.back(), held.link) * held.pose;
  EXPECT_LT((before.translation() - task.scene.obstacle("part").pose.translation()).norm(), 1e-4);
  EXPECT_NEAR(after.translation().z() - before.translation().z(), 0.10, 1e-4);
  EXPECT_NEAR((after.translation() - before.translation()).head<2>().norm(), 0.0, 1e-4);
}

TEST(PickPlace, Ur5eFinalSceneHasThePartStandingAtThePlacePose) {
  const Ur5eTask& task = ur5e_task();
  const PickPlaceResult& result = task.result;
  EXPECT_TRUE(
      result.place_pose.translation().isApprox(ur5e_request().place_pose.translation(), 1e-12));
  ASSERT_TRUE(result.final_scene.has_obstacle("part"));
  EXPECT_FALSE(result.final_scene.has_attached("part"));
  EXPECT_TRUE(result.final_scene.obstacle("part").pose.isApprox(result.place_pose, 1e-9));
  // The request's overrides, and nothing the task allowed for a while.
  EXPECT_EQ(result.final_scene.overrides(), task.scene.overrides());
  EXPECT_EQ(result.final_scene.obstacles().size(), task.scene.obstacles().size());
  // Released where it was put: the part is an obstacle at the place pose in the release's scene.
  const TaskStage& release = result.stages[6];
  ASSERT_TRUE(release.scene.has_obstacle("part"));
  EXPECT_TRUE(release.scene.obstacle("part").pose.isApprox(result.place_pose, 1e-9));
  // After the retreat the arm is clear of it without any allowance.
  CollisionChecker checker(test::builtin_ur5e());
  checker.set_scene(result.final_scene);
  EXPECT_FALSE(checker.in_collision(result.final_state));
}

// The object may touch what it rests on only from the grasp to the end of the lift and from the
// place to the release; the gripper may touch it from the approach to the retreat.
TEST(PickPlace, RestingContactsAreAllowedOnlyWhileTheyHappen) {
  PlanningScene scene = example_scene();
  scene.clear_override("part", "table");  // the example scene allows it for good: take that away
  Planner planner(test::builtin_ur5e(), scene);
  const PickPlaceResult result =
      plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), ur5e_request());
  ASSERT_EQ(result.stages.size(), 8u);
  const auto allowed = [](const TaskStage& stage, const std::string& other) {
    return stage.scene.override_for("part", other).value_or(false);
  };
  const std::vector<bool> table{false, false, true, true, false, true, false, false};
  const std::vector<bool> link6{false, true, false, false, false, false, true, true};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(allowed(result.stages[i], "table"), table[i]) << result.stages[i].name;
    EXPECT_EQ(allowed(result.stages[i], "link6"), link6[i]) << result.stages[i].name;
  }
  EXPECT_FALSE(result.final_scene.override_for("part", "table").has_value());
  EXPECT_TRUE(result.final_scene.overrides().empty());
}

TEST(PickPlace, PlannersSceneIsTheRequestsAfterwards) {
  PlanningScene scene = example_scene();
  scene.disallow("part", "link5");  // an override of the request's own, kept as it is
  Planner planner(test::builtin_ur5e(), scene);
  const std::string before = scene_to_json(planner.scene());
  PickPlaceRequest request = ur5e_request();
  request.options.seed = 11;
  plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request);
  EXPECT_EQ(scene_to_json(planner.scene()), before);
  request.place_pose = at(3.0, 0.0, 0.035);  // failing: restored too
  EXPECT_THROW(plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request),
               Error);
  EXPECT_EQ(scene_to_json(planner.scene()), before);
}

// The stages' scenes (scene_switch.hpp): a scene equal to the planner's is not set again, which
// would rebuild the checker and drop the PRM roadmap; any difference is.
TEST(TaskScenes, SameSceneTellsObstaclesAttachedObjectsAndOverridesApart) {
  const PlanningScene scene = example_scene();
  ASSERT_FALSE(scene.obstacles().empty());
  const std::string object = scene.obstacles().front().name;
  EXPECT_TRUE(task_detail::same_scene(scene, PlanningScene(scene)));
  PlanningScene moved = scene;
  Pose nudged = scene.obstacles().front().pose;
  nudged.translation().x() += 1e-9;
  moved.move_obstacle(object, nudged);
  EXPECT_FALSE(task_detail::same_scene(scene, moved));
  PlanningScene allowed = scene;
  allowed.allow(object, "link3");
  EXPECT_FALSE(task_detail::same_scene(scene, allowed));
  PlanningScene held = scene;
  held.attach_obstacle(object, "tool0", Pose::Identity(), {"link6"});
  EXPECT_FALSE(task_detail::same_scene(scene, held));
  PlanningScene held_too = scene;
  held_too.attach_obstacle(object, "tool0", Pose::Identity(), {"link6"});
  EXPECT_TRUE(task_detail::same_scene(held, held_too));
  held_too.detach(object, Pose::Identity());
  held_too.attach_obstacle(object, "tool0", Pose::Identity(), {"link5"});
  EXPECT_FALSE(task_detail::same_scene(held, held_too));  // other touch links
  PlanningScene larger = scene;
  larger.add_obstacle("crate", Shape::box({0.1, 0.1, 0.1}), at(-0.5, 0.0, 0.05));
  EXPECT_FALSE(task_detail::same_scene(scene, larger));
}

TEST(TaskScenes, AnEqualSceneKeepsThePlannersRoadmapAndAChangedOneReplacesIt) {
  Planner planner(test::builtin_ur5e(), example_scene());
  PlannerOptions options = default_preset();
  options.planner = PlannerType::Prm;
  options.timeout_ms = test::generous_ms(2000.0);
  JointVector goal = test::builtin_ur5e()->named_pose("ready");
  goal[0] += 0.5;
  planner.plan(test::builtin_ur5e()->named_pose("ready"), JointGoal{goal}, options);
  const int roadmap = planner.roadmap_size();
  ASSERT_GT(roadmap, 0);
  task_detail::use_scene(planner, example_scene());
  EXPECT_EQ(planner.roadmap_size(), roadmap);
  PlanningScene moved = example_scene();
  const std::string object = moved.obstacles().front().name;
  Pose pose = moved.obstacles().front().pose;
  pose.translation().y() += 0.05;
  moved.move_obstacle(object, pose);
  task_detail::use_scene(planner, moved);
  EXPECT_EQ(planner.roadmap_size(), 0);
  EXPECT_TRUE(task_detail::same_scene(planner.scene(), moved));
}

TEST(PickPlace, Ur5eTimedTaskRestsAtGraspAndReleaseWithinLimits) {
  const PickPlaceResult& result = ur5e_task().result;
  const TrajectoryLimits limits = TrajectoryLimits::from_model(*test::builtin_ur5e());
  const TimedPickPlace timed = time_pick_and_place(result, limits);
  ASSERT_EQ(timed.stage_start.size(), 8u);
  for (std::size_t i = 1; i < 8; ++i) {
    if (result.stages[i - 1].moves()) {
      EXPECT_GT(timed.stage_start[i], timed.stage_start[i - 1]) << i;
    } else {
      EXPECT_EQ(timed.stage_start[i], timed.stage_start[i - 1]) << i;
    }
  }
  EXPECT_GT(timed.trajectory.end_time(), timed.stage_start.back());
  for (const std::size_t instant : {2u, 6u}) {  // grasp, release
    const TrajectoryState state = timed.trajectory.sample(timed.stage_start[instant]);
    EXPECT_LT(state.velocity.cwiseAbs().maxCoeff(), 1e-9) << instant;
    EXPECT_TRUE(state.position.isApprox(result.stages[instant - 1].path.back(), 1e-9)) << instant;
  }
  const TrajectoryValidationReport report = validate_trajectory(timed.trajectory, limits);
  EXPECT_TRUE(report.ok()) << report.summary();
  EXPECT_TRUE(timed.trajectory.samples().back().position.isApprox(result.final_state, 1e-9));
}

TEST(PickPlace, TimingCopesWithAStageThatDoesNotMove) {
  PickPlaceResult result = ur5e_task().result;
  result.stages[3].path = {result.stages[3].path.front()};  // a lift of zero length
  result.stages[4].path.front() = result.stages[3].path.front();
  const TimedPickPlace timed =
      time_pick_and_place(result, TrajectoryLimits::from_model(*test::builtin_ur5e()));
  EXPECT_EQ(timed.stage_start[3], timed.stage_start[4]);
  EXPECT_TRUE(
      validate_trajectory(timed.trajectory, TrajectoryLimits::from_model(*test::builtin_ur5e()))
          .ok());
}

TEST(PickPlace, SameSeedGivesTheSamePlan) {
  Planner planner(test::builtin_ur5e(), example_scene());
  const PickPlaceResult again =
      plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), ur5e_request());
  const PickPlaceResult& first = ur5e_task().result;
  ASSERT_EQ(again.stages.size(), first.stages.size());
  for (std::size_t i = 0; i < first.stages.size(); ++i)
    EXPECT_EQ(again.stages[i].path, first.stages[i].path) << i;
  EXPECT_EQ(again.grasp.description, first.grasp.description);
}

// The straight stages take the request's line settings (PickPlaceRequest::straight).
const TaskStage& stage_of(const PickPlaceResult& result, Kind kind) {
  for (const TaskStage& stage : result.stages)
    if (stage.kind == kind) return stage;
  throw std::logic_error("no such stage");
}

TEST(PickPlace, CoarserStraightStepsGiveTheApproachFewerWaypoints) {
  PickPlaceRequest request = ur5e_request();
  request.straight.max_translation_step = 0.01;  // 10 mm instead of the default 1 mm
  Planner planner(test::builtin_ur5e(), example_scene());
  const PickPlaceResult coarse =
      plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request);
  const std::size_t fine_steps = stage_of(ur5e_task().result, Kind::Approach).path.size();
  const std::size_t coarse_steps = stage_of(coarse, Kind::Approach).path.size();
  EXPECT_GE(fine_steps, 101u);   // 0.1 m in 1 mm steps, both ends
  EXPECT_LE(coarse_steps, 12u);  // in 10 mm steps
  for (const Kind kind : {Kind::Lift, Kind::Place, Kind::Retreat}) {
    EXPECT_LE(stage_of(coarse, kind).path.size(), 12u) << to_string(kind);
  }
}

TEST(PickPlace, ClosedFormStraightStepsKeepTheTcpExactlyOnTheLine) {
  PickPlaceRequest request = ur5e_request();
  request.straight.closed_form_ik = true;
  Planner planner(test::builtin_ur5e(), example_scene());
  const PickPlaceResult result =
      plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request);
  const auto farthest_off_line = [&](const TaskStage& stage) {
    const Vector3 a = world_tcp(planner, stage.path.front()).translation();
    const Vector3 b = world_tcp(planner, stage.path.back()).translation();
    double off = 0.0;
    for (const JointVector& q : stage.path)
      off = std::max(off, off_line(world_tcp(planner, q).translation(), a, b));
    return off;
  };
  for (const Kind kind : {Kind::Approach, Kind::Lift, Kind::Place, Kind::Retreat}) {
    EXPECT_LT(farthest_off_line(stage_of(result, kind)), 1e-9) << to_string(kind);
  }
  // Numeric IK stays within its tolerance of the line, not on it: the setting is what did it.
  EXPECT_GT(farthest_off_line(stage_of(ur5e_task().result, Kind::Approach)), 1e-9);
}

// Goals are in the group's base link, the scene in the world: a UR5e mounted off the world's
// origin, turned, does the same task in its own frame.
TEST(PickPlace, MountedRobotPlansInItsBaseFrame) {
  std::ifstream urdf_file(builtin_robot_directory() + "/ur5e/robot.urdf");
  std::ifstream toml_file(builtin_robot_directory() + "/ur5e/kinetic.toml");
  std::string urdf((std::istreambuf_iterator<char>(urdf_file)), {});
  const std::string toml((std::istreambuf_iterator<char>(toml_file)), {});
  const std::string robot_tag = "<robot name=\"ur5e\">";
  ASSERT_NE(urdf.find(robot_tag), std::string::npos);
  urdf.replace(
      urdf.find(robot_tag), robot_tag.size(),
      robot_tag +
          "<link name=\"world\"/><joint name=\"mount\" type=\"fixed\"><parent link=\"world\"/>"
          "<child link=\"base_link\"/><origin xyz=\"0.2 -0.1 0.3\" rpy=\"0 0 1.5707963267948966\"/>"
          "</joint>");
  const RobotModelPtr mounted = load_robot_string(urdf, "", toml);
  const Pose mount = pose_from_xyz_rpy({0.2, -0.1, 0.3}, {0, 0, std::numbers::pi / 2});
  const PlanningScene example = example_scene();
  PlanningScene scene;
  for (const Obstacle& obstacle : example.obstacles())
    scene.add_obstacle(obstacle.name, obstacle.shape, mount * obstacle.pose);
  PickPlaceRequest request = ur5e_request();
  request.place_pose = mount * request.place_pose;
  Planner planner(mounted, scene);
  ASSERT_EQ(planner.chain().base_link(), "base_link");
  const PickPlaceResult result =
      plan_pick_and_place(planner, mounted->named_pose("ready"), request);
  ASSERT_EQ(result.stages.size(), 8u);
  const Pose expected = scene.obstacle("part").pose * result.grasp.object_to_tcp;
  const Pose reached = world_tcp(planner, result.stages[1].path.back());
  EXPECT_LT((reached.translation() - expected.translation()).norm(), 1e-4);
  EXPECT_LT(Quaternion(reached.linear()).angularDistance(Quaternion(expected.linear())), 1e-3);
  // Lifted straight up in the world, whatever the base's frame says.
  const Vector3 lift = world_tcp(planner, result.stages[3].path.back()).translation() -
                       world_tcp(planner, result.stages[3].path.front()).translation();
  EXPECT_TRUE(lift.isApprox(Vector3(0, 0, 0.1), 1e-3)) << lift.transpose();
  EXPECT_TRUE(result.final_scene.obstacle("part").pose.isApprox(request.place_pose, 1e-9));
}

// ---------------------------------------------------------------------------------------------
// The Panda (no hand on the built-in one: the flange holds the part) picks a box off a table.

TEST(PickPlace, PandaPicksAndPlacesABox) {
  PlanningScene scene;
  scene.add_obstacle("table", Shape::box({0.5, 1.0, 0.04}), at(0.55, 0.0, -0.02));
  scene.add_obstacle("block", Shape::box({0.04, 0.04, 0.06}), at(0.45, -0.25, 0.03));
  Planner planner(test::builtin_panda(), scene);
  PickPlaceRequest request;
  request.object = "block";
  request.place_pose = pose_from_xyz_rpy({0.45, 0.25, 0.03}, {0, 0, 0.3});
  request.options.seed = 3;
  request.options.timeout_ms = kinetic::test::generous_ms(2000.0);
  const PickPlaceResult result =
      plan_pick_and_place(planner, test::builtin_panda()->named_pose("ready"), request);
  ASSERT_EQ(result.stages.size(), 8u);
  EXPECT_TRUE(result.final_scene.obstacle("block").pose.isApprox(result.place_pose, 1e-9));
  EXPECT_TRUE(result.place_pose.translation().isApprox(request.place_pose.translation(), 1e-12));
  CollisionChecker checker(test::builtin_panda());
  for (const TaskStage& stage : result.stages) {
    if (!stage.moves()) continue;
    checker.set_scene(stage.scene);
    for (std::size_t i = 1; i < stage.path.size(); ++i)
      EXPECT_TRUE(checker.motion_valid_discrete(stage.path[i - 1], stage.path[i], 0.005))
          << stage.name << " " << i;
  }
  const TrajectoryLimits limits = TrajectoryLimits::from_model(*test::builtin_panda());
  EXPECT_TRUE(validate_trajectory(time_pick_and_place(result, limits).trajectory, limits).ok());
}

// ---------------------------------------------------------------------------------------------
// Mistakes

std::pair<ErrorCode, std::string> ur5e_error(
    PickPlaceRequest request, PlanningScene scene = example_scene(),
    JointVector start = test::builtin_ur5e()->named_pose("ready"),
    const PlanControl& control = {}) {
  Planner planner(test::builtin_ur5e(), scene);
  return error_of([&] { plan_pick_and_place(planner, start, request, control); });
}

TEST(PickPlaceErrors, UnknownObjectSuggestsTheCloseName) {
  PickPlaceRequest request = ur5e_request();
  request.object = "prat";
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::InvalidValue);
  EXPECT_TRUE(mentions(text, "no obstacle \"prat\"")) << text;
  EXPECT_TRUE(mentions(text, "did you mean 'part'")) << text;
}

TEST(PickPlaceErrors, PlacePoseOutOfReachSaysWhichStageFailed) {
  PickPlaceRequest request = ur5e_request();
  request.place_pose = at(1.6, 0.0, 0.035);
  request.max_grasps = 4;
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::Unreachable);
  EXPECT_TRUE(mentions(text, "most often the place pose failed (16 of 16)")) << text;
  EXPECT_TRUE(mentions(text, "16 candidates tried (4 grasps x 4 place poses)")) << text;
  EXPECT_TRUE(mentions(text, "place_yaw_steps")) << text;  // the hint
}

TEST(PickPlaceErrors, PlacePoseInsideAnotherObstacleNamesIt) {
  PickPlaceRequest request = ur5e_request();
  request.place_pose = at(0.5, 0.0, 0.15);  // inside "box"
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::InCollision);
  EXPECT_TRUE(mentions(text, "overlaps \"box\"")) << text;
  EXPECT_FALSE(mentions(text, "\"table\"")) << text;  // resting on the table is fine
}

TEST(PickPlaceErrors, AttachedObjectIsNotPickedAgain) {
  PlanningScene scene = example_scene();
  scene.attach_obstacle(
      "part", "tool0",
      compute_link_pose(*test::builtin_ur5e(), test::builtin_ur5e()->named_pose("ready"), "tool0"));
  const auto [code, text] = ur5e_error(ur5e_request(), scene);
  EXPECT_EQ(code, ErrorCode::InvalidValue);
  EXPECT_TRUE(mentions(text, "\"part\" is attached already (to tool0)")) << text;
}

TEST(PickPlaceErrors, MeshObjectHasNoGrasps) {
  PlanningScene scene = example_scene();
  // A tetrahedron (ASCII STL).
  const std::string path = ::testing::TempDir() + "/kinetic_task_test_blob.stl";
  std::ofstream(path) << "solid blob\n"
                         "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0.05 0 0\nvertex 0 "
                         "0.05 0\nendloop\nendfacet\n"
                         "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 0 0 0.05\nvertex "
                         "0.05 0 0\nendloop\nendfacet\n"
                         "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0.05 0\nvertex 0 "
                         "0 0.05\nendloop\nendfacet\n"
                         "facet normal 1 1 1\nouter loop\nvertex 0.05 0 0\nvertex 0 0 0.05\nvertex "
                         "0 0.05 0\nendloop\nendfacet\n"
                         "endsolid blob\n";
  scene.add_obstacle("blob", Shape::mesh(path), at(0.4, -0.3, 0.1));
  PickPlaceRequest request = ur5e_request();
  request.object = "blob";
  const auto [code, text] = ur5e_error(request, scene);
  EXPECT_EQ(code, ErrorCode::Unsupported);
  EXPECT_TRUE(mentions(text, "\"blob\"")) << text;
}

TEST(PickPlaceErrors, BadRequestValuesNameTheField) {
  PickPlaceRequest request = ur5e_request();
  request.lift_distance = -0.1;
  EXPECT_TRUE(mentions(ur5e_error(request).second, "PickPlaceRequest::lift_distance"))
      << ur5e_error(request).second;
  request = ur5e_request();
  request.attach_link = "tool9";
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::MissingLink);
  EXPECT_TRUE(mentions(text, "tool0")) << text;
  request = ur5e_request();
  request.gripper.max_opening = 0.01;  // the part is 0.05 m across
  EXPECT_TRUE(
      mentions(ur5e_error(request).second, "object \"part\" is 0.05 m across at its narrowest"))
      << ur5e_error(request).second;
}

TEST(PickPlaceErrors, BadStraightOptionsNameTheField) {
  const auto expect_refused = [](const std::function<void(CartesianOptions&)>& spoil,
                                 const std::string& field) {
    PickPlaceRequest request = ur5e_request();
    spoil(request.straight);
    const auto [code, text] = ur5e_error(request);
    EXPECT_EQ(code, ErrorCode::InvalidValue) << text;
    EXPECT_TRUE(mentions(text, "PickPlaceRequest::straight." + field)) << text;
  };
  expect_refused([](CartesianOptions& o) { o.max_translation_step = 0.0; }, "max_translation_step");
  expect_refused([](CartesianOptions& o) { o.max_rotation_step = -0.001; }, "max_rotation_step");
  expect_refused([](CartesianOptions& o) { o.jump_threshold = std::nan(""); }, "jump_threshold");
  expect_refused([](CartesianOptions& o) { o.jump_threshold = 0.0; }, "jump_threshold");
  expect_refused([](CartesianOptions& o) { o.margin = -0.01; }, "margin");
  expect_refused([](CartesianOptions& o) { o.avoid_collisions = false; },
                 "avoid_collisions must be true");
}

TEST(PickPlaceErrors, CancelFlagStopsPlanning) {
  std::atomic<bool> cancel{true};
  PlanControl control;
  control.cancel = &cancel;
  const auto [code, text] = ur5e_error(ur5e_request(), example_scene(),
                                       test::builtin_ur5e()->named_pose("ready"), control);
  EXPECT_EQ(code, ErrorCode::Cancelled) << text;
}

TEST(PickPlaceErrors, StartInCollisionNamesTheLinks) {
  PlanningScene scene = example_scene();
  // A post through the arm's forearm at the start.
  const JointVector start = test::builtin_ur5e()->named_pose("ready");
  scene.add_obstacle("post", Shape::sphere(0.08),
                     compute_link_pose(*test::builtin_ur5e(), start, "link3"));
  const auto [code, text] = ur5e_error(ur5e_request(), scene, start);
  EXPECT_EQ(code, ErrorCode::InCollision);
  EXPECT_TRUE(mentions(text, "post")) << text;
}

TEST(PickPlaceErrors, GraspBlockedByALinkThatIsNoTouchLinkNamesIt) {
  PickPlaceRequest request = ur5e_request();
  request.touch_links = {"link6"};  // link5's housing ends in the flange face, on the part
  request.max_grasps = 2;
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::Unreachable);
  EXPECT_TRUE(mentions(text, "most often the grasp pose failed")) << text;
  EXPECT_TRUE(mentions(text, "'link5' with 'part'")) << text;
  EXPECT_TRUE(mentions(text, "PickPlaceRequest::touch_links")) << text;
}

TEST(PickPlace, BareFlangeByDefaultAlsoLetsTheWristHousingThatReachesItTouch) {
  // No touch links named, a suction cup on the bare UR5e flange: link6 moves with the flange, and
  // link5's housing ends in the flange face, so both may touch the part; nothing else may.
  PickPlaceRequest request = ur5e_request();
  request.touch_links = std::nullopt;
  request.gripper.kind = GripperSpec::Kind::Suction;
  Planner planner(test::builtin_ur5e(), example_scene());
  const PickPlaceResult result =
      plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request);
  const TaskStage& grasp = result.stages.at(2);
  ASSERT_EQ(grasp.kind, TaskStage::Kind::Grasp);
  ASSERT_TRUE(grasp.scene.has_attached("part"));
  std::vector<std::string> touch = grasp.scene.attached("part").touch_links;
  std::sort(touch.begin(), touch.end());
  EXPECT_EQ(touch, (std::vector<std::string>{"link5", "link6"}));
}

// An empty list is not the default: only the attach link (tool0, no body of its own) may touch
// the part, so the flange's body is in the way at every grasp, and the error says so.
TEST(PickPlaceErrors, EmptyTouchLinksLetOnlyTheAttachLinkTouch) {
  PickPlaceRequest request = ur5e_request();
  request.gripper.kind = GripperSpec::Kind::Suction;
  request.touch_links = std::vector<std::string>{};
  request.max_grasps = 2;
  const auto [code, text] = ur5e_error(request);
  EXPECT_EQ(code, ErrorCode::Unreachable) << text;
  EXPECT_TRUE(mentions(text, "'link6' with 'part'") || mentions(text, "'link5' with 'part'"))
      << text;
  EXPECT_TRUE(mentions(text, "PickPlaceRequest::touch_links")) << text;
  // Left out, the same request plans (the default lets link6 and link5 touch).
  request.touch_links = std::nullopt;
  Planner planner(test::builtin_ur5e(), example_scene());
  EXPECT_EQ(plan_pick_and_place(planner, test::builtin_ur5e()->named_pose("ready"), request)
                .stages.size(),
            8u);
}

// The probe that finds the housing at the flange runs on a copy: the checker keeps its scene (the
// task then reuses the obstacles' bodies it holds instead of building them again).
TEST(PickPlace, TouchLinkProbeLeavesTheCheckersScene) {
  CollisionChecker checker(test::builtin_ur5e());
  checker.set_scene(example_scene());
  const int bodies = checker.body_count();
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const std::vector<std::string> links =
      task_touch_links(checker, q, "tool0", test::builtin_ur5e()->group_variables());
  EXPECT_NE(std::find(links.begin(), links.end(), "link5"), links.end());
  EXPECT_EQ(checker.body_count(), bodies);
  std::vector<std::string> names;
  for (int i = checker.robot_body_count(); i < checker.body_count(); ++i)
    names.push_back(checker.body_name(i));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"box", "part", "table"}));
}

}  // namespace
