// Qt Test: pick and place in headless jobs, "attach" and "detach" steps. The example job carries
// its part with the TCP and leaves it where it is released; the whole motion comes to rest at both;
// a held part is kept clear of an obstacle the arm alone would pass; images show the part where it
// is at their instant; and every mistake fails with its exit code and the field at fault.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_rendering.hpp"
#include "app/headless/output_set.hpp"
#include "app/headless/scene_step_execution.hpp"
#include "app/headless/whole_motion.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "headless_job_run.hpp"
#include "job_image_check.hpp"
#include "support/test_paths.hpp"
#include "viewer/image.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using Run = kinetic::test::HeadlessRun;
using kinetic::test::object_pose;
using kinetic::test::planned;
using kinetic::test::project;
using kinetic::test::Purple;
using kinetic::test::purple_pixels;

using kinetic::test::examples_dir;
using kinetic::test::mentions;

Job example_job() {
  return load_job(examples_dir() / "ur5e_pick_and_place.json");
}

int step_index(const JobResult& result, const std::string& name) {
  for (size_t i = 0; i < result.steps.size(); ++i)
    if (result.steps[i].name == name) return static_cast<int>(i);
  qFatal("no step %s", name.c_str());
}

double angle_between(const Pose& a, const Pose& b) {
  return Quaternion(a.linear()).angularDistance(Quaternion(b.linear()));
}

// Distance from a point to an axis-aligned box (0 inside).
double distance_to_box(const Vector3& point, const Vector3& centre, const Vector3& size) {
  return ((point - centre).cwiseAbs() - size / 2).cwiseMax(0.0).norm();
}

std::string number(double x) {
  std::ostringstream text;
  text.precision(17);
  text << x;
  return text.str();
}

std::string xyz(const Vector3& v) {
  return "[" + number(v.x()) + ", " + number(v.y()) + ", " + number(v.z()) + "]";
}

// A UR5e job in a scene (JSON object text) with these steps (JSON array text), from `start`. The
// plans end when they find their paths (well under a second); 2 s ran out on a machine that
// stalled the process for hundreds of ms at a time.
std::string ur5e_job(const std::string& scene, const std::string& steps,
                     const std::string& outputs = "{}", const std::string& start = "\"ready\"") {
  return R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": )" + start +
         R"(, "scene": )" + scene +
         R"(, "defaults": {"options": {"seed": 3, "timeout_ms": 30000}}, "steps": )" + steps +
         R"(, "outputs": )" + outputs + "}";
}

// A table, and a part (8 cm cylinder) standing on it; `extra`: more scene keys (",\"allowed\":
// ...").
std::string table_scene(const std::string& extra = "") {
  return R"({"format": "kinetic-scene", "version": 1, "obstacles": [
      {"name": "table", "shape": {"type": "box", "size": [0.8, 1.4, 0.04]},
       "pose": {"position": [0.55, 0.0, -0.025], "orientation": [0, 0, 0, 1]}},
      {"name": "part", "shape": {"type": "cylinder", "radius": 0.025, "length": 0.08},
       "pose": {"position": [0.5, -0.35, 0.035], "orientation": [0, 0, 0, 1]}}])" +
         extra + "}";
}

Run run_text(const std::string& text, const QTemporaryDir& dir) {
  return kinetic::test::run_job_text(text, dir.path().toStdString());
}

}  // namespace

class JobAttachTest : public QObject {
  Q_OBJECT
 private slots:
  // examples/jobs/ur5e_pick_and_place.json: the part moves with the TCP from the grasp to the
  // release, exactly as it was held, and then stays where it was put down.
  void the_example_carries_the_part_with_the_tcp_and_leaves_it_where_released() {
    const Job job = example_job();
    JobResult result = planned(job);
    const Trajectory& whole = trajectory_for(job, result, kWholeMotion);
    QCOMPARE(int(result.whole_scenes.size()), 3);  // as loaded, from the grasp, from the release
    const double grasped_at = result.whole_scenes[1].from,
                 released_at = result.whole_scenes[2].from;
    QVERIFY(grasped_at > whole.start_time() && grasped_at < released_at &&
            released_at < whole.end_time());

    Planner planner(result.robot);
    const RobotModel& robot = *result.robot;
    const Pose on_table = result.scene.obstacle("part").pose;
    const Pose grasp_offset =
        planner.tcp_pose(whole.sample(grasped_at).position).inverse() * on_table;
    QVERIFY2(grasp_offset.translation().norm() < 0.1, "the part is gripped under the TCP");
    for (int i = 0; i < 20; ++i) {  // before the grasp: on the table, whatever the robot does
      const double t = whole.start_time() + (grasped_at - whole.start_time()) * i / 20;
      const PlanningScene& scene = scene_at(job, result, kWholeMotion, t);
      QVERIFY(scene.has_obstacle("part"));
      QVERIFY(scene.obstacle("part").pose.isApprox(on_table, 1e-12));
    }
    double carried = 0.0;
    for (int i = 0; i < 100; ++i) {  // held: the TCP's pose times the grasp offset
      const double t = grasped_at + (released_at - grasped_at) * i / 100;
      const PlanningScene& scene = scene_at(job, result, kWholeMotion, t);
      QVERIFY(scene.has_attached("part") && !scene.has_obstacle("part"));
      const JointVector q = whole.sample(t).position;
      const Pose held = object_pose(robot, scene, q, "part");
      const Pose expected = planner.tcp_pose(q) * grasp_offset;
      QVERIFY2((held.translation() - expected.translation()).norm() < 1e-6,
               std::to_string(t).c_str());
      QVERIFY(angle_between(held, expected) < 1e-6);
      carried = std::max(carried, (held.translation() - on_table.translation()).norm());
    }
    QVERIFY2(carried > 0.6, std::to_string(carried).c_str());

    // Released: an obstacle again, standing upright on the table at the place spot.
    const PlanningScene& final_scene = result.steps.back().scene;
    QVERIFY(final_scene.has_obstacle("part") && !final_scene.has_attached("part"));
    const Pose placed = final_scene.obstacle("part").pose;
    QVERIFY2((placed.translation() - Vector3(0.45, 0.35, 0.035)).norm() < 2e-3,
             xyz(placed.translation()).c_str());
    QVERIFY(angle_between(placed, on_table) < 0.01);
    QVERIFY(
        placed.isApprox(planner.tcp_pose(whole.sample(released_at).position) * grasp_offset, 1e-6));
    QVERIFY(scene_at(job, result, kWholeMotion, whole.end_time())
                .obstacle("part")
                .pose.isApprox(placed, 1e-12));
    // A step's own scene: the carry's holds the part, the first step's does not.
    QVERIFY(result.steps[size_t(step_index(result, "carry"))].scene.has_attached("part"));
    QVERIFY(result.steps[0].scene.has_obstacle("part"));
  }

  // The motion steps between scene steps are blended; the robot rests where it grasps and releases.
  void the_whole_motion_rests_at_the_grasp_and_the_release() {
    const Job job = example_job();
    JobResult result = planned(job);
    const Trajectory& whole = trajectory_for(job, result, kWholeMotion);
    double steps_alone = 0.0;
    for (const StepResult& step : result.steps) steps_alone += step.trajectory.duration();
    QVERIFY2(whole.duration() < steps_alone - 0.01, "blending within the runs saves time");
    double previous = whole.start_time();
    for (size_t i = 1; i < result.whole_scenes.size(); ++i) {
      const double at = result.whole_scenes[i].from;
      QVERIFY2(whole.sample(at).velocity.norm() < 1e-9, std::to_string(at).c_str());
      QVERIFY(whole.sample(at - 1e-9).velocity.norm() < 1e-6);
      QVERIFY(whole.sample(at + 1e-9).velocity.norm() < 1e-6);
      QVERIFY2(whole.sample((previous + at) / 2).velocity.norm() > 0.05, "it moves between them");
      previous = at;
    }
    // And the exported whole motion is the same: "all" still means every step.
    QTemporaryDir dir;
    Job exporting = job;
    exporting.output_directory = dir.path().toStdString();
    exporting.screenshots.clear();
    exporting.exports = {{"all.json", kWholeMotion}};
    std::ostringstream out, err;
    QVERIFY2(run_job(exporting, out, err) == kExitOk, err.str().c_str());
    QVERIFY2(
        mentions(out.str(), "step 3/8 \"grasp\": attached \"part\" to tool0 (touch links: link6)"),
        out.str().c_str());
    QVERIFY(mentions(out.str(), "step 7/8 \"release\": released \"part\" from tool0 where it is"));
    QVERIFY(mentions(out.str(), "(at rest at each attach and detach)"));
  }

  // A load hanging 25 cm under the TCP is swung past a low wall the arm clears: the straight joint
  // motion would drag the load through it, so the plan must keep the load (not only the arm) clear.
  void a_held_part_is_kept_clear_of_an_obstacle_the_arm_alone_would_pass() {
    const RobotModelPtr robot = load_builtin_robot("ur5e");
    JointVector start = robot->named_pose("ready"), goal = start;
    start[0] = -0.7;
    goal[0] = 0.7;
    Planner planner(robot);
    const double radius = 0.04;
    const Vector3 hanging(0, 0, -0.25);  // the load's centre from the TCP, world frame
    const Vector3 load = planner.tcp_pose(start).translation() + hanging;
    // Across the swing's middle, radial (its long side points away from the base), from the floor
    // to 8 cm above the load's centre.
    const Vector3 middle = planner.tcp_pose((start + goal) / 2).translation() + hanging;
    const Vector3 wall_size(0.5, 0.04, middle.z() + 0.08);
    const Pose wall_pose = Eigen::Translation3d(middle.x(), middle.y(), wall_size.z() / 2) *
                           Eigen::AngleAxisd(std::atan2(middle.y(), middle.x()), Vector3::UnitZ());
    const Quaternion wall_turn(wall_pose.linear());
    const std::string wall = R"({"name": "wall", "shape": {"type": "box", "size": )" +
                             xyz(wall_size) + R"(}, "pose": {"position": )" +
                             xyz(wall_pose.translation()) + R"(, "orientation": [)" +
                             number(wall_turn.x()) + ", " + number(wall_turn.y()) + ", " +
                             number(wall_turn.z()) + ", " + number(wall_turn.w()) + "]}}";
    const std::string scene = R"({"format": "kinetic-scene", "version": 1, "obstacles": [)" + wall +
                              R"(, {"name": "load", "shape": {"type": "sphere", "radius": 0.04},
        "pose": {"position": )" +
                              xyz(load) + R"(, "orientation": [0, 0, 0, 1]}}]})";
    const auto clearance_from_wall = [&](const Vector3& centre) {
      return distance_to_box(wall_pose.inverse() * centre, Vector3::Zero(), wall_size) - radius;
    };

    // The straight joint motion: the arm alone passes the wall, the load would go through it.
    CollisionChecker arm_only(robot);
    PlanningScene wall_only;
    wall_only.add_obstacle("wall", Shape::box(wall_size), wall_pose);
    arm_only.set_scene(wall_only);
    const Pose offset = planner.tcp_pose(start).inverse() * Pose(Eigen::Translation3d(load));
    double straight_clearance = 1e9;
    for (int i = 0; i <= 200; ++i) {
      const JointVector q = start + (goal - start) * i / 200.0;
      QVERIFY2(!arm_only.in_collision(q), "the arm alone clears the wall");
      straight_clearance = std::min(
          straight_clearance, clearance_from_wall((planner.tcp_pose(q) * offset).translation()));
    }
    QVERIFY2(straight_clearance < -0.01, std::to_string(straight_clearance).c_str());

    auto joints = [](const JointVector& q) {
      std::string text;
      for (int i = 0; i < q.size(); ++i) text += (i ? ", " : "") + number(q[i]);
      return "[" + text + "]";
    };
    QTemporaryDir dir;
    const std::string text = ur5e_job(scene,
                                      R"([{"name": "pick_up", "attach": "load"},
        {"name": "swing", "goal": {"joints": )" +
                                          joints(goal) + "}}]",
                                      "{}", joints(start));
    const Job job = parse_job(text, "job.json", dir.path().toStdString());
    const JobResult result = planned(job);
    const StepResult& swing = result.steps[1];
    QVERIFY(swing.scene.has_attached("load"));
    QVERIFY(swing.end.isApprox(goal, 1e-6));
    double clearance = 1e9;
    for (double t = 0.0; t <= swing.trajectory.duration(); t += 0.002)
      clearance = std::min(
          clearance, clearance_from_wall(object_pose(*robot, swing.scene,
                                                     swing.trajectory.sample(t).position, "load")
                                             .translation()));
    QVERIFY2(clearance > 0.0, std::to_string(clearance).c_str());
  }

  void scene_step_mistakes_in_the_job_file_name_the_field() {
    QTemporaryDir dir;
    const auto expect_error = [&](const std::string& steps, const std::string& message) {
      const Run run = run_text(ur5e_job(table_scene(), steps), dir);
      QVERIFY2(run.code == kExitBadJob,
               (steps + " gave " + std::to_string(run.code) + ": " + run.err).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
    };
    const std::string home = R"({"goal": {"named": "home"}})";
    expect_error(R"([{"attach": "part", "goal": {"named": "home"}}])",
                 "steps[0].goal: a scene step (\"attach\") does not move the robot, so it takes no "
                 "\"goal\"");
    expect_error(R"([{"detach": "part", "timing": "scurve"}, )" + home + "]",
                 "steps[0].timing: a scene step (\"detach\") does not move the robot, so it takes "
                 "no \"timing\"");
    expect_error(
        R"([{"attach": "part", "constraints": {"orientation": {"tolerance": 0.1}}}, )" + home + "]",
        "steps[0].constraints: a scene step (\"attach\")");
    expect_error(R"([{"attach": "part", "velocity_scaling": 0.5}, )" + home + "]",
                 "steps[0].velocity_scaling: a scene step");
    expect_error(R"([{"attach": "part", "planner": "cartesian"}, )" + home + "]",
                 "steps[0].planner: a scene step");
    expect_error(R"([{"attach": "part", "options": {"seed": 1}}, )" + home + "]",
                 "steps[0].options: a scene step");
    expect_error(R"([{"attach": "part", "detach": "part"}, )" + home + "]",
                 "steps[0].detach: a step either attaches or detaches");
    expect_error(
        R"([{"name": "idle"}, )" + home + "]",
        "steps[0].goal: missing (joints, named, pose, relative or arc; or \"attach\" / \"detach\"");
    expect_error(R"([{"attach": {"object": "part", "lnk": "tool0"}}, )" + home + "]",
                 "steps[0].attach.lnk: unknown field (did you mean 'link'");
    expect_error(R"([{"attach": {"link": "tool0"}}, )" + home + "]",
                 "steps[0].attach.object: missing");
    expect_error(R"([{"attach": 3}, )" + home + "]",
                 "steps[0].attach: expected the object's name or { \"object\"");
    expect_error(R"([{"detach": {"object": "part", "link": "tool0"}}, )" + home + "]",
                 "steps[0].detach.link: unknown field");
    expect_error(R"([{"attach": {"object": "part", "touch_links": "link6"}}, )" + home + "]",
                 "steps[0].attach.touch_links: expected an array of link names");
    expect_error(R"([{"attach": "part"}])", "steps: has no step with a \"goal\"");
  }

  // Names that are wrong where their step runs: exit 2 before anything is planned, naming the
  // field and the names there are.
  void scene_step_names_are_checked_against_the_scene_at_their_step() {
    QTemporaryDir dir;
    const auto expect_error = [&](const std::string& steps, const std::string& message) {
      const Run run =
          run_text(ur5e_job(table_scene(R"(, "allowed": [["part", "table"]])"), steps), dir);
      QVERIFY2(run.code == kExitBadJob,
               (steps + " gave " + std::to_string(run.code) + ": " + run.err).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
      QVERIFY2(!mentions(run.out, "step 1/"), "found before planning");
    };
    const std::string home = R"({"goal": {"named": "home"}})";
    expect_error("[" + home + R"(, {"attach": "prat"}])",
                 "steps[1].attach: the scene has no obstacle \"prat\" at this step (did you mean "
                 "'part'?); its "
                 "obstacles here are 'table' and 'part'");
    expect_error(R"([{"attach": "part"}, )" + home + R"(, {"attach": "part"}])",
                 "steps[2].attach: \"part\" is attached already (to tool0): release it with a "
                 "\"detach\" step");
    expect_error(
        R"([{"detach": "part"}, )" + home + "]",
        "steps[0].detach: \"part\" is not attached at this step (it is an obstacle of the scene)");
    expect_error(R"([{"detach": "bolt"}, )" + home + "]",
                 "steps[0].detach: nothing named \"bolt\" is attached at this step; nothing is "
                 "attached here");
    // Released by an earlier step: found only by following the steps, still before planning.
    expect_error(R"([{"attach": "part"}, )" + home + R"(, {"name": "drop", "detach": "part"}, )" +
                     home + R"(, {"name": "drop_again", "detach": {"object": "part"}}])",
                 "steps[4].detach.object: \"part\" is not attached at this step");
    expect_error(R"([{"attach": {"object": "part", "link": "tool9"}}, )" + home + "]",
                 "steps[0].attach.link: the robot has no link \"tool9\" (did you mean 'tool0'?); "
                 "its links are "
                 "'base_link', 'link1'");
    expect_error(
        R"([{"attach": {"object": "part", "touch_links": ["link6", "lnk5"]}}, )" + home + "]",
        "steps[0].attach.touch_links[1]: the robot has no link \"lnk5\" (did you mean 'link5'");
    const Run plane = run_text(
        ur5e_job(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "floor",
        "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": -0.01},
        "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}}]})",
                 R"([{"attach": "floor"}, )" + home + "]"),
        dir);
    QCOMPARE(plane.code, int(kExitBadJob));
    QVERIFY2(mentions(plane.err, "steps[0].attach: \"floor\" is a half-space"), plane.err.c_str());
  }

  // Attaching a part that rests on the table makes the pair count: exit 3 naming it and saying
  // how to allow it; allowed, the same job runs. Releasing a part into the robot's links: exit 3.
  void a_scene_step_that_leaves_the_robot_in_collision_fails_with_the_pair_and_the_remedy() {
    QTemporaryDir dir;
    const std::string steps =
        R"([{"name": "grasp", "attach": "part"}, {"goal": {"named": "home"}}])";
    const Run touching = run_text(ur5e_job(table_scene(), steps), dir);
    QCOMPARE(touching.code, int(kExitPlanningFailed));
    QVERIFY2(
        mentions(
            touching.err,
            "steps[0] (\"grasp\"): with \"part\" attached, the robot is in collision here: ") &&
            (mentions(touching.err, "part - table") || mentions(touching.err, "table - part")) &&
            mentions(touching.err,
                     "allow the pair in the scene's \"allowed\" list (\"allowed\": [[") &&
            mentions(touching.err, "move clear before attaching"),
        touching.err.c_str());
    const Run allowed =
        run_text(ur5e_job(table_scene(R"(, "allowed": [["part", "table"]])"), steps), dir);
    QVERIFY2(allowed.code == kExitOk, allowed.err.c_str());

    // Held inside the flange (link6 may touch it while attached), then let go there.
    const std::string held =
        R"({"format": "kinetic-scene", "version": 1, "attached": [{"name": "part", "link": "tool0",
        "shape": {"type": "cylinder", "radius": 0.025, "length": 0.08},
        "pose": {"position": [0, 0, 0.06], "orientation": [0, 0, 0, 1]}, "touch_links": ["link6"]}]})";
    const Run released = run_text(
        ur5e_job(held, R"([{"name": "let_go", "detach": "part"}, {"goal": {"named": "home"}}])"),
        dir);
    QCOMPARE(released.code, int(kExitPlanningFailed));
    QVERIFY2(
        mentions(
            released.err,
            "steps[0] (\"let_go\"): with \"part\" released, the robot is in collision here: ") &&
            mentions(released.err, "link6") &&
            mentions(released.err, "so the robot may leave the object"),
        released.err.c_str());
  }

  void a_trajectory_reference_to_a_scene_step_is_a_job_error() {
    QTemporaryDir dir;
    const std::string scene = table_scene(R"(, "allowed": [["part", "table"]])");
    const std::string steps =
        R"([{"name": "up", "planner": "cartesian", "goal": {"relative": {"xyz": [0, 0, 0.05], "frame": "base"}}},
        {"name": "grasp", "attach": "part"},
        {"name": "down", "planner": "cartesian", "goal": {"relative": {"xyz": [0, 0, -0.05], "frame": "base"}}}])";
    const auto refused = [&](const std::string& outputs, const std::string& message) {
      const Run run = run_text(ur5e_job(scene, steps, outputs), dir);
      QVERIFY2(run.code == kExitBadJob, (outputs + " gave " + std::to_string(run.code)).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
    };
    const std::string no_motion =
        "steps[1] (\"grasp\") attaches \"part\" and has no motion; refer to a step with a \"goal\"";
    refused(R"({"trajectories": [{"file": "g.csv", "trajectory": "grasp"}]})",
            "outputs.trajectories[0].trajectory: " + no_motion);
    refused(R"({"trajectories": [{"file": "g.csv", "trajectory": 1}]})",
            "outputs.trajectories[0].trajectory: " + no_motion);
    refused(R"({"screenshots": [{"file": "g.png", "trajectory": "grasp"}]})",
            "outputs.screenshots[0].trajectory: " + no_motion);
    // (A plain string: moc, which reads this file, takes a '#' in a raw string for a directive.)
    refused("{\"frames\": [{\"pattern\": \"f_#.png\", \"count\": 2, \"trajectory\": 1}]}",
            "outputs.frames[0].trajectory: " + no_motion);

    // Step indexes still count every step: index 2 is "down", planned with the part attached.
    const Run run =
        run_text(ur5e_job(scene, steps, R"({"trajectories": [{"file": "down.json", "trajectory": 2},
        {"file": "all.json"}]})"),
                 dir);
    QVERIFY2(run.code == kExitOk, run.err.c_str());
    const Trajectory down =
        kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "down.json");
    const Trajectory all =
        kinetic::load_trajectory(fs::path(dir.path().toStdString()) / "all.json");
    QVERIFY(down.duration() > 0.1 && all.duration() > down.duration());
    QVERIFY(down.samples().back().position.isApprox(all.samples().back().position, 1e-9));
  }

  // The UR5e has no gripper: an object at tool0 may touch link6, the body the flange is fixed to.
  // The real Panda's hand and fingers (moved by their own joints, not the arm's) may touch it too.
  void touch_links_default_to_what_moves_with_the_attach_link() {
    const RobotModelPtr ur5e = load_builtin_robot("ur5e");
    QCOMPARE(kinetic::default_touch_links(*ur5e, "tool0", ur5e->group_variables()),
             std::vector<std::string>{"link6"});
    QCOMPARE(kinetic::default_touch_links(*ur5e, "link3", ur5e->group_variables()),
             std::vector<std::string>{});
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    const std::string panda = kinetic::test::example_robot_data_dir() + "/robots/panda_description";
    LoadOptions options;
    options.package_paths = {kinetic::test::shared_robots_dir()};
    const RobotModelPtr robot =
        load_robot_file(panda + "/urdf/panda.urdf", panda + "/srdf/panda.srdf", "", options);
    Planner planner(robot);
    const std::vector<std::string> touch =
        kinetic::default_touch_links(*robot, planner.chain().tip_link(), planner.group_variables());
    // Its SRDF end effector names the arm as its group: that adds no arm links (panda_link6 and
    // down move with the arm's joints).
    QCOMPARE(touch, (std::vector<std::string>{"panda_link7", "panda_hand", "panda_leftfinger",
                                              "panda_rightfinger"}));
  }

  // Images show the scene at their instant: the part on the table before the grasp, under the TCP
  // in a screenshot of the carry (that step's scene), where it was put down at the end.
  void images_show_the_part_where_it_is_at_their_instant() {
    const Job example = example_job();
    JobResult result = planned(example);
    const Job& job = example;
    const int carry = step_index(result, "carry");
    const Trajectory& carry_motion = result.steps[size_t(carry)].trajectory;
    const double mid_carry = carry_motion.duration() / 2;

    ScreenshotSpec spec;
    spec.image.width = 480;
    spec.image.height = 270;
    spec.image.trail = false;
    spec.image.camera.eye = viewer::Vec3(1.7f, -0.4f, 1.3f);
    spec.image.camera.target = viewer::Vec3(0.45f, 0.0f, 0.1f);
    ScreenshotSpec before = spec, during = spec, after = spec;
    before.file = "before.png";
    before.at = 0.0;  // the start: the robot at home, the part on the table
    during.file = "during.png";
    during.trajectory = carry;
    during.at = mid_carry;
    after.file = "after.png";  // the end of the whole motion
    QTemporaryDir dir;
    {
      JobRenderer renderer;
      OutputSet outputs(dir.path().toStdString());
      for (const ScreenshotSpec* shot : {&before, &during, &after})
        renderer.screenshot(job, result, *shot, outputs);
      outputs.commit();
    }
    const fs::path d = dir.path().toStdString();
    const viewer::RgbaImage start_image = viewer::read_png(d / "before.png");
    const viewer::RgbaImage carry_image = viewer::read_png(d / "during.png");
    const viewer::RgbaImage end_image = viewer::read_png(d / "after.png");
    QCOMPARE(carry_image.width(), 480u);
    QCOMPARE(carry_image.height(), 270u);

    const viewer::Camera camera = make_camera(spec.image.camera, {}, 480.0f / 270.0f);
    const auto pixel = [&](const Vector3& p) { return project(camera, p, 480, 270); };
    const Vector3 on_table = result.scene.obstacle("part").pose.translation();
    const PlanningScene& carried_scene = result.steps[size_t(carry)].scene;
    const Vector3 held =
        object_pose(*result.robot, carried_scene, carry_motion.sample(mid_carry).position, "part")
            .translation();
    const Vector3 placed = result.steps.back().scene.obstacle("part").pose.translation();
    QVERIFY2((held - on_table).norm() > 0.2 && (placed - on_table).norm() > 0.2,
             "three different places");

    const auto shows_part_at = [&](const viewer::RgbaImage& image, const Vector3& where,
                                   const char* what) {
      const Purple all = purple_pixels(image);
      QVERIFY2(all.count > 30,
               (std::string(what) + ": " + std::to_string(all.count) + " part pixels").c_str());
      const double off = (all.centre - pixel(where)).norm();
      QVERIFY2(off < 12.0, (std::string(what) + ": the part is drawn " + std::to_string(off) +
                            " px from where it is")
                               .c_str());
    };
    shows_part_at(start_image, on_table, "before the grasp");
    shows_part_at(carry_image, held, "carried");
    shows_part_at(end_image, placed, "released");
    // And nowhere else: not left on the table while carried, not back there at the end.
    QCOMPARE(purple_pixels(carry_image, pixel(on_table), 10.0).count, 0);
    QCOMPARE(purple_pixels(end_image, pixel(on_table), 10.0).count, 0);
  }
};

QTEST_GUILESS_MAIN(JobAttachTest)
#include "job_attach_test.moc"
