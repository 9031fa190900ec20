// Qt Test: whole pick and place tasks in headless jobs ("pick_place" steps), with the real engine
// on the real UR5e. Every field parses (and what is left out takes the engine's defaults), every
// mistake names its JSON path, names are checked before anything is planned, the example job picks
// the part and the steps after it find the part at its place, the whole motion rests around the
// task and takes its motion as it is, an unreachable place fails with the engine's reason, and the
// images show the part on the table, on the flange, then at its place.
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_rendering.hpp"
#include "app/headless/output_set.hpp"
#include "app/headless/whole_motion.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "headless_job_run.hpp"
#include "job_image_check.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using Run = kinetic::test::HeadlessRun;
using kinetic::test::object_pose;
using kinetic::test::planned;
using kinetic::test::project;
using kinetic::test::purple_pixels;

using kinetic::test::examples_dir;
using kinetic::test::mentions;

Job example_job() {
  return load_job(examples_dir() / "ur5e_task_pick_and_place.json");
}

// The example's scene (a table, a box, the part standing on the table), as a job's "scene" value.
std::string example_scene() {
  return "\"" + (examples_dir() / "pick_and_place_scene.json").string() + "\"";
}

const std::string kDefaults = R"({"options": {"seed": 7, "timeout_ms": 2000}})";

// A UR5e job from "ready" with these steps (JSON array text).
std::string ur5e_job(const std::string& steps, const std::string& outputs = "{}",
                     const std::string& defaults = kDefaults,
                     const std::string& scene = example_scene()) {
  return R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "ready", "scene": )" +
         scene + R"(, "defaults": )" + defaults + R"(, "steps": )" + steps + R"(, "outputs": )" +
         outputs + "}";
}

// The example's pick and place with a suction gripper; `extra`: more "pick_place" keys,
// `step_extra`: more keys of the step ("planner", "cartesian", ...).
std::string pick_step(const std::string& extra = "", const std::string& object = "part",
                      const std::string& step_extra = "") {
  return R"({"name": "pick", "pick_place": {"object": ")" + object +
         R"(", "place": {"xyz": [0.45, 0.35, 0.035]}, "gripper": {"type": "suction"})" + extra +
         "}" + step_extra + "}";
}

// The pick step with more keys of its own.
std::string pick_step_with(const std::string& step_extra) {
  return pick_step("", "part", step_extra);
}

// The "N waypoints" of a pick and place step's summary line (-1 when there is none).
int summary_waypoints(const std::string& summary) {
  const size_t end = summary.find(" waypoints");
  const size_t begin = end == std::string::npos ? end : summary.rfind(", ", end);
  return begin == std::string::npos ? -1 : std::stoi(summary.substr(begin + 2, end - begin - 2));
}

// A pose out of the UR5e's reach: planning a step to it fails (exit 3).
const std::string kFarStep = R"({"name": "far", "goal": {"pose": {"xyz": [3.0, 0.0, 0.5]}}})";

std::vector<StepSpec> parsed_steps(const std::string& steps,
                                   const std::string& defaults = kDefaults) {
  return parse_job(ur5e_job(steps, "{}", defaults), "job.json", fs::temp_directory_path()).steps;
}

Run run_text(const std::string& text, const QTemporaryDir& dir) {
  return kinetic::test::run_job_text(text, dir.path().toStdString());
}

double yaw(const Pose& pose) {
  return std::atan2(pose.linear()(1, 0), pose.linear()(0, 0));
}

// The instant (whole motion's clock) the pick step `index` begins: its grasp there, less the
// grasp's time into the step.
double task_start_in_whole(const JobResult& result, size_t index) {
  const StepResult& pick = result.steps[index];
  for (const SceneSpan& span : result.whole_scenes)
    if (span.scene.has_attached("part"))
      return span.from - (pick.scenes[1].from - pick.trajectory.start_time());
  qFatal("the whole motion never holds the part");
}

}  // namespace

class JobPickPlaceTest : public QObject {
  Q_OBJECT
 private slots:
  void every_field_of_a_pick_place_step_parses() {
    const std::vector<StepSpec> steps = parsed_steps(R"([{"name": "pick", "pick_place": {
        "object": "part", "place": {"xyz": [0.45, 0.35, 0.035], "rpy": [0, 0, 1.5707963267948966]},
        "place_yaw_steps": 2,
        "gripper": {"type": "parallel", "max_opening": 0.06, "min_opening": 0.01, "finger_depth": 0.02, "yaw_steps": 4},
        "approach_distance": 0.08, "lift_distance": 0.12, "place_distance": 0.07, "retreat_distance": 0.05,
        "attach_link": "tool0", "touch_links": ["link6", "link5"], "max_grasps": 5},
      "preset": "offline", "options": {"seed": 11, "timeout_ms": 900}, "velocity_scaling": 0.4,
      "acceleration_scaling": 0.3, "timing": "time_optimal"},
      {"name": "turned", "pick_place": {"object": "part", "place": {"xyz": [0.4, 0.3, 0.035],
        "quaternion": [0, 0, 0.7071067811865476, 0.7071067811865476]}, "gripper": {"type": "suction", "yaw_steps": 2}}}])");
    QCOMPARE(int(steps.size()), 2);
    const StepSpec& step = steps[0];
    QVERIFY(step.pick_place && step.moves() && !step.scene_change);
    QCOMPARE(step.pick_place->field, std::string("steps[0].pick_place"));
    const PickPlaceRequest& r = step.pick_place->request;
    QCOMPARE(r.object, std::string("part"));
    QVERIFY(r.place_pose.translation().isApprox(Vector3(0.45, 0.35, 0.035), 1e-12));
    QVERIFY(std::abs(yaw(r.place_pose) - 1.5707963267948966) < 1e-9);
    QCOMPARE(r.place_yaw_steps, 2);
    QVERIFY(r.gripper.kind == GripperSpec::Kind::Parallel);
    QCOMPARE(r.gripper.max_opening, 0.06);
    QCOMPARE(r.gripper.min_opening, 0.01);
    QCOMPARE(r.gripper.finger_depth, 0.02);
    QCOMPARE(r.gripper.yaw_steps, 4);
    QCOMPARE(r.approach_distance, 0.08);
    QCOMPARE(r.lift_distance, 0.12);
    QCOMPARE(r.place_distance, 0.07);
    QCOMPARE(r.retreat_distance, 0.05);
    QCOMPARE(r.attach_link, std::string("tool0"));
    QVERIFY(r.touch_links.has_value());
    QCOMPARE(*r.touch_links, (std::vector<std::string>{"link6", "link5"}));
    QCOMPARE(r.max_grasps, 5);
    // The step's settings: the offline preset under its own options, its scalings.
    QCOMPARE(step.preset, std::string("offline"));
    QCOMPARE(step.options.seed, std::uint64_t(11));
    QCOMPARE(step.options.timeout_ms, 900.0);
    QCOMPARE(step.options.max_iterations, offline_preset().max_iterations);
    QCOMPARE(step.velocity_scaling.value_or(0.0), 0.4);
    QCOMPARE(step.acceleration_scaling.value_or(0.0), 0.3);
    QVERIFY(step.timing == Timing::TimeOptimal);

    const PickPlaceRequest& turned = steps[1].pick_place->request;
    QVERIFY(std::abs(yaw(turned.place_pose) - 1.5707963267948966) < 1e-9);
    QVERIFY(turned.gripper.kind == GripperSpec::Kind::Suction);
    QCOMPARE(turned.gripper.yaw_steps, 2);
    QCOMPARE(steps[1].pick_place->field, std::string("steps[1].pick_place"));
  }

  // Left out: the engine's PickPlaceRequest defaults. Of "defaults", a pick and place step takes
  // the planner, preset, options, Cartesian settings (but min_fraction) and scalings; the motion
  // steps' timing is not its (a motion step beside it still takes it).
  void what_a_pick_place_step_leaves_out_takes_the_defaults() {
    const std::vector<StepSpec> steps = parsed_steps(
        "[" + pick_step() +
            R"(, {"name": "pick2", "pick_place": {"object": "part", "place": {"xyz": [0.45, 0.35, 0.035]}}},
        {"name": "home", "goal": {"named": "home"}}])",
        R"({"planner": "rrt_star", "timing": "scurve", "cartesian": {"margin": 0.01, "min_fraction": 0.5,
            "translation_step": 0.004}, "preset": "realtime",
            "options": {"seed": 5}, "velocity_scaling": 0.5, "acceleration_scaling": 0.25})");
    const StepSpec& pick = steps[1];
    const PickPlaceRequest& r = pick.pick_place->request;
    const PickPlaceRequest engine;
    QVERIFY(r.place_pose.linear().isApprox(Eigen::Matrix3d::Identity(), 1e-12));
    QCOMPARE(r.place_yaw_steps, engine.place_yaw_steps);
    QVERIFY(r.gripper.kind == GripperSpec::Kind::Parallel);
    QCOMPARE(r.gripper.max_opening, engine.gripper.max_opening);
    QCOMPARE(r.gripper.min_opening, engine.gripper.min_opening);
    QCOMPARE(r.gripper.finger_depth, engine.gripper.finger_depth);
    QCOMPARE(r.gripper.yaw_steps, engine.gripper.yaw_steps);
    QCOMPARE(r.approach_distance, engine.approach_distance);
    QCOMPARE(r.lift_distance, engine.lift_distance);
    QCOMPARE(r.place_distance, engine.place_distance);
    QCOMPARE(r.retreat_distance, engine.retreat_distance);
    QVERIFY(r.attach_link.empty() && !r.touch_links.has_value());
    QCOMPARE(r.max_grasps, engine.max_grasps);
    QVERIFY(steps[0].pick_place->request.gripper.kind == GripperSpec::Kind::Suction);

    QCOMPARE(pick.options.seed, std::uint64_t(5));
    QCOMPARE(pick.options.timeout_ms, realtime_preset().timeout_ms);
    QVERIFY(pick.options.planner == PlannerType::RrtStar && !pick.cartesian);
    QVERIFY(pick.timing == Timing::TimeOptimal);
    QCOMPARE(pick.cartesian_options.margin, 0.01);
    QCOMPARE(pick.cartesian_options.max_translation_step, 0.004);
    QCOMPARE(pick.min_fraction, 1.0);  // the straight stages are completed whole
    QCOMPARE(pick.velocity_scaling.value_or(0.0), 0.5);
    QCOMPARE(pick.acceleration_scaling.value_or(0.0), 0.25);
    const StepSpec& home = steps[2];
    QVERIFY(home.timing == Timing::SCurve && home.options.planner == PlannerType::RrtStar);
    QCOMPARE(home.min_fraction, 0.5);
  }

  void mistakes_in_a_pick_place_step_name_their_field() {
    const auto expect_error = [](const std::string& steps, const std::string& message) {
      try {
        parse_job(ur5e_job(steps), "job.json", fs::temp_directory_path());
        QFAIL(("no error for " + steps).c_str());
      } catch (const JobError& error) {
        QVERIFY2(mentions(error.what(), message),
                 (std::string(error.what()) + "\n  expected: " + message).c_str());
      }
    };
    const auto pick = [](const std::string& body, const std::string& step_extra = "") {
      return R"([{"pick_place": {)" + body + "}" + step_extra + "}]";
    };
    const std::string object = R"("object": "part", )";
    const std::string place = R"("place": {"xyz": [0.45, 0.35, 0.035]})";
    const std::string own_moves = "a pick_place step plans its own moves";
    expect_error(pick(object + place, R"(, "goal": {"named": "home"})"),
                 "steps[0].goal: " + own_moves);
    // The free-space stages need a free-space planner; the straight ones are completed whole
    // and avoid collisions.
    expect_error(pick(object + place, R"(, "planner": "cartesian")"),
                 "steps[0].planner: a pick_place step plans its free-space stages with a "
                 "free-space planner; \"cartesian\" moves are its straight stages already");
    expect_error(pick(object + place, R"(, "planner": "rrt_konnect")"),
                 "steps[0].planner: unknown planner");
    expect_error(pick(object + place, R"(, "cartesian": {"avoid_collisions": false})"),
                 "steps[0].cartesian.avoid_collisions: a pick_place step's straight stages always "
                 "avoid collisions");
    expect_error(pick(object + place, R"(, "cartesian": {"min_fraction": 0.5})"),
                 "steps[0].cartesian.min_fraction: a pick_place step completes its straight "
                 "stages whole");
    expect_error(pick(object + place, R"(, "cartesian": {"translation_step": 0})"),
                 "steps[0].cartesian.translation_step: must be in [1e-05, 0.1]");
    expect_error(pick(object + place, R"(, "cartesian": {"jump_threshold": -1})"),
                 "steps[0].cartesian.jump_threshold: must be in [");
    expect_error(pick(object + place, R"(, "cartesian": {"closed_form_ik": "yes"})"),
                 "steps[0].cartesian.closed_form_ik: expected true or false");
    expect_error(
        pick(object + place, R"(, "cartesian": {"translation_stp": 0.01})"),
        "steps[0].cartesian.translation_stp: unknown field (did you mean 'translation_step'");
    expect_error(pick(object + place, R"(, "constraints": {"orientation": {"tolerance": 0.1}})"),
                 "steps[0].constraints: " + own_moves);
    expect_error(pick(object + place, R"(, "timing": "scurve")"),
                 "steps[0].timing: a pick_place step is timed time_optimal, stage by stage");
    expect_error(pick(object + place, R"(, "attach": "part")"),
                 "steps[0].pick_place: a scene step (\"attach\") does not move the robot");
    expect_error(R"([{"pick_place": "part"}])",
                 "steps[0].pick_place: expected an object, got a string");
    expect_error(pick(object + place + R"(, "objet": "part")"),
                 "steps[0].pick_place.objet: unknown field (did you mean 'object'");
    expect_error(pick(place), "steps[0].pick_place.object: missing");
    expect_error(pick(R"("object": "", )" + place),
                 "steps[0].pick_place.object: must not be empty");
    expect_error(pick(R"("object": "part")"), "steps[0].pick_place.place: missing");
    expect_error(pick(object + R"("place": {"rpy": [0, 0, 0]})"),
                 "steps[0].pick_place.place.xyz: missing");
    expect_error(pick(object + R"("place": {"xyz": [0.4, 0.3]})"),
                 "steps[0].pick_place.place.xyz: expected 3 numbers");
    expect_error(
        pick(object +
             R"("place": {"xyz": [0.4, 0.3, 0.0], "rpy": [0, 0, 0], "quaternion": [0, 0, 0, 1]})"),
        "steps[0].pick_place.place: give \"rpy\" or \"quaternion\", not both");
    expect_error(pick(object + R"("place": {"xyz": [0.4, 0.3, 0.0], "yaw": 1})"),
                 "steps[0].pick_place.place.yaw: unknown field");
    expect_error(pick(object + place + R"(, "place_yaw_steps": 1.5)"),
                 "steps[0].pick_place.place_yaw_steps: expected a whole number");
    expect_error(pick(object + place + R"(, "place_yaw_steps": -1)"),
                 "steps[0].pick_place.place_yaw_steps: must be in [0, 360]");
    expect_error(
        pick(object + place + R"(, "gripper": {"type": "magnet"})"),
        "steps[0].pick_place.gripper.type: expected \"parallel\" or \"suction\", got \"magnet\"");
    expect_error(
        pick(object + place + R"(, "gripper": {"max_openning": 0.05})"),
        "steps[0].pick_place.gripper.max_openning: unknown field (did you mean 'max_opening'");
    expect_error(pick(object + place + R"(, "gripper": {"max_opening": 0})"),
                 "steps[0].pick_place.gripper.max_opening: must be in [");
    expect_error(
        pick(object + place + R"(, "gripper": {"max_opening": 0.05, "min_opening": 0.06})"),
        "steps[0].pick_place.gripper.min_opening: must not exceed \"max_opening\" (0.05 m)");
    expect_error(pick(object + place + R"(, "gripper": {"finger_depth": -0.01})"),
                 "steps[0].pick_place.gripper.finger_depth: must be in [0, 1]");
    expect_error(pick(object + place + R"(, "gripper": {"yaw_steps": 0})"),
                 "steps[0].pick_place.gripper.yaw_steps: must be in [1, 360]");
    expect_error(pick(object + place + R"(, "gripper": {"type": "suction", "finger_depth": 0})"),
                 "steps[0].pick_place.gripper.finger_depth: a suction gripper has no fingers");
    expect_error(pick(object + place + R"(, "gripper": "suction")"),
                 "steps[0].pick_place.gripper: expected an object, got a string");
    for (const char* distance :
         {"approach_distance", "lift_distance", "place_distance", "retreat_distance"})
      expect_error(pick(object + place + ", \"" + distance + "\": -0.1"),
                   "steps[0].pick_place." + std::string(distance) + ": must be in [0, 5]");
    expect_error(pick(object + place + R"(, "attach_link": "")"),
                 "steps[0].pick_place.attach_link: must not be empty");
    expect_error(pick(object + place + R"(, "touch_links": "link6")"),
                 "steps[0].pick_place.touch_links: expected an array of link names");
    expect_error(pick(object + place + R"(, "touch_links": ["link6", 3])"),
                 "steps[0].pick_place.touch_links[1]: expected a link name");
    expect_error(pick(object + place + R"(, "max_grasps": 0)"),
                 "steps[0].pick_place.max_grasps: must be in [1, ");
    // A trajectory reference to a pick and place step is one to a motion.
    const Job job =
        parse_job(ur5e_job("[" + pick_step() + "]",
                           R"({"trajectories": [{"file": "p.csv", "trajectory": "pick"}]})"),
                  "job.json", fs::temp_directory_path());
    QCOMPARE(job.exports.front().trajectory, 0);
  }

  // "touch_links": [] is no longer refused: it reaches the engine as an empty list (only the
  // attach link may touch the part), where the bare flange's body is then in the way of every
  // grasp and the engine says which link should be a touch link (exit 3).
  void an_empty_touch_links_list_reaches_the_engine_as_none() {
    const std::vector<StepSpec> steps =
        parsed_steps("[" + pick_step(R"(, "touch_links": [])") + "]");
    const PickPlaceRequest& r = steps[0].pick_place->request;
    QVERIFY(r.touch_links.has_value() && r.touch_links->empty());
    QTemporaryDir dir;
    const Run run =
        run_text(ur5e_job("[" + pick_step(R"(, "touch_links": [], "max_grasps": 2)") + "]"), dir);
    QCOMPARE(run.code, int(kExitPlanningFailed));
    QVERIFY2(
        (mentions(run.err, "'link6' with 'part'") || mentions(run.err, "'link5' with 'part'")) &&
            mentions(run.err, "PickPlaceRequest::touch_links"),
        run.err.c_str());
  }

  // The free-space stages plan with the step's "planner", else the defaults' (the summary names
  // it), else RRT-Connect.
  void the_free_space_planner_comes_from_the_step_or_the_defaults() {
    const auto summary_of = [](const std::string& step_extra, const std::string& defaults) {
      const std::string steps = "[" + pick_step_with(step_extra) + "]";
      return planned(
                 parse_job(ur5e_job(steps, "{}", defaults), "job.json", fs::temp_directory_path()))
          .steps[0]
          .task;
    };
    const std::string defaults_est =
        R"({"planner": "est", "options": {"seed": 7, "timeout_ms": 2000}})";
    const std::string plain = summary_of("", kDefaults);
    QVERIFY2(mentions(plain, ", 8 stages (free space: rrt_connect), "), plain.c_str());
    const std::string from_defaults = summary_of("", defaults_est);
    QVERIFY2(mentions(from_defaults, ", 8 stages (free space: est), "), from_defaults.c_str());
    const std::string own = summary_of(R"(, "planner": "bitrrt")", defaults_est);
    QVERIFY2(mentions(own, ", 8 stages (free space: bitrrt), "), own.c_str());
  }

  // "cartesian" sets the straight stages' line, from the step or the defaults: 10 mm steps give
  // the approach, lift, place and retreat (0.1 m each) about 10 waypoints instead of 100.
  void a_cartesian_object_sets_the_straight_stages() {
    const auto waypoints_of = [](const std::string& step_extra, const std::string& defaults) {
      const std::string steps = "[" + pick_step_with(step_extra) + "]";
      return summary_waypoints(
          planned(parse_job(ur5e_job(steps, "{}", defaults), "job.json", fs::temp_directory_path()))
              .steps[0]
              .task);
    };
    const int fine = waypoints_of("", kDefaults);
    const int coarse = waypoints_of(R"(, "cartesian": {"translation_step": 0.01})", kDefaults);
    const int coarse_by_default = waypoints_of(
        "",
        R"({"cartesian": {"translation_step": 0.01}, "options": {"seed": 7, "timeout_ms": 2000}})");
    const std::string counts = std::to_string(fine) + " vs " + std::to_string(coarse) + " / " +
                               std::to_string(coarse_by_default);
    QVERIFY2(coarse > 0 && fine > coarse + 300, counts.c_str());  // 4 stages, 90 fewer each
    QVERIFY2(coarse_by_default == coarse, counts.c_str());
  }

  // Settings the step cannot use stop the run before anything is planned (exit 2), naming the
  // field; a "cartesian" planner from the defaults names "defaults.planner" and what to do.
  void bad_planner_and_cartesian_settings_exit_2_naming_the_field() {
    QTemporaryDir dir;
    const auto expect_exit_2 = [&](const std::string& step_extra, const std::string& defaults,
                                   const std::string& message) {
      const Run run =
          run_text(ur5e_job("[" + pick_step_with(step_extra) + "]", "{}", defaults), dir);
      QVERIFY2(run.code == kExitBadJob,
               (step_extra + " gave " + std::to_string(run.code) + ": " + run.err).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
    };
    expect_exit_2(R"(, "cartesian": {"translation_step": 0})", kDefaults,
                  "steps[0].cartesian.translation_step: must be in [1e-05, 0.1], got 0");
    expect_exit_2(R"(, "cartesian": {"avoid_collisions": false})", kDefaults,
                  "steps[0].cartesian.avoid_collisions: a pick_place step's straight stages always "
                  "avoid collisions");
    expect_exit_2(R"(, "planner": "cartesian")", kDefaults,
                  "steps[0].planner: a pick_place step plans its free-space");
    expect_exit_2(
        "", R"({"planner": "cartesian"})",
        "defaults.planner: a pick_place step plans its free-space stages with a free-space "
        "planner; "
        "\"cartesian\" moves are its straight stages already (set them with \"cartesian\"): give "
        "steps[0] its own \"planner\", e.g. \"rrt_connect\"");
    // Its own free-space planner over the defaults' "cartesian" is fine.
    const Job job = parse_job(ur5e_job("[" + pick_step_with(R"(, "planner": "rrt_connect")") + "]",
                                       "{}", R"({"planner": "cartesian"})"),
                              "job.json", fs::temp_directory_path());
    QVERIFY(!job.steps[0].cartesian && job.steps[0].options.planner == PlannerType::RrtConnect);
  }

  // Wrong where their step runs: exit 2 before anything is planned (the unreachable first step
  // would fail with exit 3), naming the field and the names there are.
  void names_are_checked_against_the_scene_at_their_step_before_planning() {
    QTemporaryDir dir;
    const Run far = run_text(ur5e_job("[" + kFarStep + "]"), dir);
    QCOMPARE(far.code, int(kExitPlanningFailed));  // planned: the step fails
    const auto expect_error = [&](const std::string& steps, const std::string& message,
                                  const std::string& scene = example_scene()) {
      const Run run = run_text(ur5e_job(steps, "{}", kDefaults, scene), dir);
      QVERIFY2(run.code == kExitBadJob,
               (steps + " gave " + std::to_string(run.code) + ": " + run.err).c_str());
      QVERIFY2(mentions(run.err, message), (run.err + "\n  expected: " + message).c_str());
    };
    expect_error(
        "[" + kFarStep + ", " + pick_step("", "prat") + "]",
        "steps[1].pick_place.object: the scene has no obstacle \"prat\" at this step (did you mean "
        "'part'?); its obstacles here are 'table', 'box' and 'part'");
    expect_error("[" + kFarStep + R"(, {"attach": "part"}, )" + pick_step() + "]",
                 "steps[2].pick_place.object: \"part\" is attached already (to tool0): a pick and "
                 "place starts "
                 "with it standing in the scene: release it with a \"detach\" step first");
    expect_error("[" + kFarStep + ", " + pick_step(R"(, "attach_link": "tool9")") + "]",
                 "steps[1].pick_place.attach_link: the robot has no link \"tool9\" (did you mean "
                 "'tool0'?); its "
                 "links are 'base_link'");
    expect_error(
        "[" + kFarStep + ", " + pick_step(R"(, "touch_links": ["link6", "lnk5"])") + "]",
        "steps[1].pick_place.touch_links[1]: the robot has no link \"lnk5\" (did you mean 'link5'");
    expect_error("[" + kFarStep + R"(, {"name": "pick", "pick_place": {"object": "part",
                 "place": {"xyz": [0.45, 0.35, 0.035]}, "gripper": {"max_opening": 0.03}}}])",
                 "steps[1].pick_place.gripper: cannot hold \"part\": the object is 0.05 m across "
                 "at its narrowest; "
                 "the gripper opens 0.03 m");
    // After the pick the part stands at its place: an obstacle, not held.
    expect_error(
        "[" + kFarStep + ", " + pick_step() + R"(, {"name": "drop", "detach": "part"}])",
        "steps[2].detach: \"part\" is not attached at this step (it is an obstacle of the scene)");
    expect_error("[" + pick_step("", "floor") + "]",
                 "steps[0].pick_place.object: \"floor\" is a half-space: pick and place grasps "
                 "boxes, cylinders "
                 "and spheres",
                 R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "floor",
                    "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": -0.01},
                    "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}}]})");
  }

  // The example job: its exported pick trajectory is the engine's timed task (same request, same
  // seed), the summary says what happened, and the next step plans with the part at its place.
  void the_example_picks_the_part_and_later_steps_find_it_at_its_place() {
    Job job = example_job();
    QTemporaryDir dir;
    job.output_directory = dir.path().toStdString();
    job.screenshots.clear();
    job.exports = {{"pick.json", 0}, {"all.json", kWholeMotion}};
    std::ostringstream out, err;
    QVERIFY2(run_job(job, out, err) == kExitOk, err.str().c_str());

    const RobotModelPtr robot = load_builtin_robot("ur5e");
    const PlanningScene scene = load_scene((examples_dir() / "pick_and_place_scene.json").string());
    Planner planner(robot, scene);
    PickPlaceRequest request = job.steps[0].pick_place->request;
    request.options = job.steps[0].options;
    const PickPlaceResult task = plan_pick_and_place(planner, robot->named_pose("ready"), request);
    TrajectoryLimits limits = TrajectoryLimits::from_model(*robot);
    limits.velocity_scaling = limits.acceleration_scaling = 0.5;  // as the job's defaults say
    const TimedPickPlace timed = time_pick_and_place(task, limits);
    const Trajectory pick = load_trajectory(fs::path(dir.path().toStdString()) / "pick.json");
    QVERIFY2(
        std::abs(pick.duration() - timed.trajectory.duration()) < 1e-9,
        (std::to_string(pick.duration()) + " s vs " + std::to_string(timed.trajectory.duration()))
            .c_str());
    QVERIFY(pick.samples().front().position.isApprox(robot->named_pose("ready"), 1e-12));
    QVERIFY(pick.samples().back().position.isApprox(task.final_state, 1e-9));

    char placed[64], seconds[32];
    std::snprintf(placed, sizeof placed, "placed at (%.3f, %.3f, %.3f) m",
                  task.place_pose.translation().x(), task.place_pose.translation().y(),
                  task.place_pose.translation().z());
    std::snprintf(seconds, sizeof seconds, " planning, %.2f s\n", timed.trajectory.duration());
    size_t waypoints = 0;
    for (const TaskStage& stage : task.stages) waypoints += stage.path.size();
    const std::string text = out.str();
    QVERIFY2(mentions(text, "step 1/2 \"pick\": picked \"part\" (grasp " +
                                std::to_string(task.grasps_tried) + "/") &&
                 mentions(text, ": " + task.grasp.description + "), " + placed) &&
                 mentions(text, ", 8 stages (free space: rrt_connect), " +
                                    std::to_string(waypoints) + " waypoints, ") &&
                 mentions(text, seconds) && mentions(text, "step 2/2 \"home\": rrt_connect") &&
                 mentions(text, "all steps blended: ") &&
                 mentions(text, "(at rest where each pick and place starts and ends)"),
             text.c_str());

    const JobResult result = planned(job);
    const StepResult& home = result.steps[1];
    QVERIFY(home.scene.has_obstacle("part") && !home.scene.has_attached("part"));
    QVERIFY(home.scene.obstacle("part").pose.isApprox(task.place_pose, 1e-9));
    QVERIFY((task.place_pose.translation() - scene.obstacle("part").pose.translation()).norm() >
            0.5);
    QVERIFY(result.steps[0].scene.obstacle("part").pose.isApprox(task.place_pose, 1e-9));
    QVERIFY(home.trajectory.samples().front().position.isApprox(task.final_state, 1e-9));
  }

  // After a pick and place the part is an obstacle again, where it was put: a later step may take
  // it with an "attach" (no "detach" needed) and carry it on, planned and validated with it.
  void a_later_step_takes_the_placed_part_again() {
    QTemporaryDir dir;
    const Run run = run_text(ur5e_job("[" + pick_step() + R"(, {"name": "again", "attach": "part"},
        {"name": "up", "planner": "cartesian", "goal": {"relative": {"xyz": [0, 0, 0.05], "frame": "base"}}}])"),
                             dir);
    QVERIFY2(run.code == kExitOk, run.err.c_str());
    QVERIFY2(mentions(run.out, "step 2/3 \"again\": attached \"part\" to tool0") &&
                 mentions(run.out, "step 3/3 \"up\": cartesian"),
             run.out.c_str());
  }

  // "all": the runs of motion steps before and after the task are blended, the task's own motion
  // goes in between as it is, at rest where it starts and ends; the scene follows the task.
  void the_whole_motion_rests_around_the_pick_step_and_takes_its_motion_as_it_is() {
    QTemporaryDir dir;
    const std::string text =
        ur5e_job(R"([{"name": "a", "goal": {"relative": {"xyz": [0, 0, 0.05], "frame": "base"}}},
        {"name": "b", "goal": {"relative": {"xyz": [0, 0.05, 0], "frame": "base"}}}, )" +
                 pick_step() + R"(, {"name": "c", "goal": {"named": "home"}},
        {"name": "d", "goal": {"named": "ready"}}])");
    const Job job = parse_job(text, "job.json", dir.path().toStdString());
    JobResult result = planned(job);
    const Trajectory& whole = trajectory_for(job, result, kWholeMotion);
    const Trajectory& pick = result.steps[2].trajectory;
    double steps_alone = 0.0;
    for (const StepResult& step : result.steps) steps_alone += step.trajectory.duration();
    QVERIFY2(whole.duration() < steps_alone - 0.01, "the runs around the task are blended");

    const double begins = task_start_in_whole(result, 2), ends = begins + pick.duration();
    QVERIFY(begins > whole.start_time() + 0.1 && ends < whole.end_time() - 0.1);
    for (const double at : {begins, ends}) {
      QVERIFY2(whole.sample(at).velocity.norm() < 1e-9, std::to_string(at).c_str());
      QVERIFY(whole.sample(at - 1e-9).velocity.norm() < 1e-6);
      QVERIFY(whole.sample(at + 1e-9).velocity.norm() < 1e-6);
    }
    for (int i = 0; i <= 50; ++i) {
      const double into = pick.duration() * i / 50;
      QVERIFY2(whole.sample(begins + into)
                   .position.isApprox(pick.sample(pick.start_time() + into).position, 1e-9),
               std::to_string(into).c_str());
    }
    // The part: on the table until the grasp, held until the release, at its place from then on.
    const Pose on_table = result.scene.obstacle("part").pose;
    const Pose placed = result.steps[2].scene.obstacle("part").pose;
    QVERIFY(scene_at(job, result, kWholeMotion, begins + 0.01)
                .obstacle("part")
                .pose.isApprox(on_table, 1e-12));
    const double grasp = begins + result.steps[2].scenes[1].from - pick.start_time();
    const double release = begins + result.steps[2].scenes[2].from - pick.start_time();
    QVERIFY(scene_at(job, result, kWholeMotion, (grasp + release) / 2).has_attached("part"));
    QVERIFY(scene_at(job, result, kWholeMotion, ends + 0.5)
                .obstacle("part")
                .pose.isApprox(placed, 1e-12));
    QVERIFY(scene_at(job, result, kWholeMotion, whole.end_time())
                .obstacle("part")
                .pose.isApprox(placed, 1e-12));
  }

  // A place the arm cannot reach: exit 3 with the engine's account of what failed and its hint; a
  // place inside the box: exit 3 naming it. Nothing is written.
  void a_place_the_engine_cannot_use_fails_with_its_message() {
    QTemporaryDir dir;
    const std::string outputs = R"({"trajectories": [{"file": "pick.json"}]})";
    const Run far = run_text(ur5e_job(R"([{"name": "pick", "pick_place": {"object": "part",
        "place": {"xyz": [0.9, 0.65, 0.035]}, "gripper": {"type": "suction"}, "place_yaw_steps": 0,
        "max_grasps": 2}}])",
                                      outputs),
                             dir);
    QCOMPARE(far.code, int(kExitPlanningFailed));
    QVERIFY2(mentions(far.err,
                      "steps[0] (\"pick\"): pick and place failed: no pick and place of \"part\" "
                      "succeeded: ") &&
                 mentions(far.err, "candidates tried") && mentions(far.err, "place pose"),
             far.err.c_str());
    const Run inside = run_text(ur5e_job(R"([{"name": "pick", "pick_place": {"object": "part",
        "place": {"xyz": [0.5, 0.0, 0.15]}, "gripper": {"type": "suction"}}}])",
                                         outputs),
                                dir);
    QCOMPARE(inside.code, int(kExitPlanningFailed));
    QVERIFY2(
        mentions(inside.err,
                 "steps[0] (\"pick\"): pick and place failed: at the place pose (0.500, 0.000, "
                 "0.150) m \"part\" overlaps \"box\""),
        inside.err.c_str());
    QVERIFY(!fs::exists(fs::path(dir.path().toStdString()) / "pick.json"));
  }

  // Images of the task: the part on the table before the grasp, on the flange while carried (in a
  // screenshot of the pick step and of the whole motion alike), at its place at the end.
  void images_show_the_part_on_the_table_on_the_flange_then_at_its_place() {
    const Job job = example_job();
    JobResult result = planned(job);
    const StepResult& pick = result.steps[0];
    const double mid_carry =
        (pick.scenes[1].from + pick.scenes[2].from) / 2 - pick.trajectory.start_time();

    ScreenshotSpec spec;
    spec.image.width = 480;
    spec.image.height = 270;
    spec.image.trail = false;
    spec.image.camera.eye = viewer::Vec3(1.7f, -0.4f, 1.3f);
    spec.image.camera.target = viewer::Vec3(0.45f, 0.0f, 0.1f);
    ScreenshotSpec before = spec, during = spec, during_all = spec, after = spec;
    before.file = "before.png";
    before.at = 0.0;
    during.file = "during.png";
    during.trajectory = 0;
    during.at = mid_carry;
    during_all.file = "during_all.png";  // the task is the first step: the same instant of "all"
    during_all.at = mid_carry;
    after.file = "after.png";
    QTemporaryDir dir;
    {
      JobRenderer renderer;
      OutputSet outputs(dir.path().toStdString());
      for (const ScreenshotSpec* shot : {&before, &during, &during_all, &after})
        renderer.screenshot(job, result, *shot, outputs);
      outputs.commit();
    }
    const fs::path d = dir.path().toStdString();
    const viewer::RgbaImage start_image = viewer::read_png(d / "before.png");
    const viewer::RgbaImage carry_image = viewer::read_png(d / "during.png");
    const viewer::RgbaImage carry_all_image = viewer::read_png(d / "during_all.png");
    const viewer::RgbaImage end_image = viewer::read_png(d / "after.png");

    const viewer::Camera camera = make_camera(spec.image.camera, {}, 480.0f / 270.0f);
    const auto pixel = [&](const Vector3& p) { return project(camera, p, 480, 270); };
    const RobotModel& robot = *result.robot;
    const Vector3 on_table = result.scene.obstacle("part").pose.translation();
    const double t = pick.trajectory.start_time() + mid_carry;
    const JointVector q = pick.trajectory.sample(t).position;
    const PlanningScene& carried = scene_at(job, result, 0, t);
    QVERIFY(carried.has_attached("part"));
    const Vector3 held = object_pose(robot, carried, q, "part").translation();
    const Vector3 flange = compute_link_pose(robot, q, "tool0").translation();
    QVERIFY2((held - flange).norm() < 0.06, "held on the flange");
    const Vector3 placed = pick.scene.obstacle("part").pose.translation();
    QVERIFY2((held - on_table).norm() > 0.2 && (placed - on_table).norm() > 0.2,
             "three different places");

    const auto shows_part_at = [&](const viewer::RgbaImage& image, const Vector3& where,
                                   const char* what) {
      const kinetic::test::Purple all = purple_pixels(image);
      QVERIFY2(all.count > 30,
               (std::string(what) + ": " + std::to_string(all.count) + " part pixels").c_str());
      const double off = (all.centre - pixel(where)).norm();
      QVERIFY2(off < 12.0, (std::string(what) + ": the part is drawn " + std::to_string(off) +
                            " px from where it is")
                               .c_str());
    };
    shows_part_at(start_image, on_table, "before the grasp");
    shows_part_at(carry_image, held, "carried (the pick step)");
    shows_part_at(carry_all_image, held, "carried (the whole motion)");
    shows_part_at(end_image, placed, "placed");
    QVERIFY(purple_pixels(start_image, pixel(on_table), 10.0).count > 0);
    QCOMPARE(purple_pixels(carry_image, pixel(on_table), 10.0).count, 0);
    QCOMPARE(purple_pixels(end_image, pixel(on_table), 10.0).count, 0);
  }
};

QTEST_GUILESS_MAIN(JobPickPlaceTest)
#include "job_pick_place_test.moc"
