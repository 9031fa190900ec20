#include "app/headless/headless_runner.hpp"

#include <unistd.h>

#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iomanip>

#include "app/document/robot_reference.hpp"
#include "app/headless/benchmark_command.hpp"
#include "app/headless/frame_disk_space.hpp"
#include "app/headless/interruption.hpp"
#include "app/headless/job_execution.hpp"
#include "app/headless/job_motion_settings.hpp"
#include "app/headless/job_rendering.hpp"
#include "app/headless/output_checks.hpp"
#include "app/headless/output_set.hpp"
#include "app/headless/read_files.hpp"
#include "app/headless/robot_files.hpp"
#include "app/headless/run_summary.hpp"
#include "app/headless/whole_motion.hpp"
#include "engine/core/duration_text.hpp"
#include "engine/core/error.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/scene/scene_meshes.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

std::string str(const QString& s) {
  return s.toStdString();
}

// Said after an unexpected error when the working directory was removed under the process
// (relative paths then cannot be resolved).
std::string working_directory_hint() {
  std::error_code ec;
  (void)fs::current_path(ec);
  return ec ? " (the working directory no longer exists: run from an existing folder)" : "";
}

// A name with a newline or an ESC would garble (or steer) the terminal it is printed on.
void refuse_control_characters(const QString& name, const char* flag) {
  const std::string text = str(name);
  if (has_control_character(text))
    throw JobError(flag,
                   "\"" + printable(text) + "\" has a control character; output names may not");
}

// An output reaching one of the run's own input files would replace it (a job writing "job.json"
// into its own folder, a screenshot named like the URDF's texture): refused before anything is
// planned or written. Compared by real path, so a symbolic link or ".." does not hide it.
void check_outputs_spare_inputs(const Job& job, const OutputSet& outputs) {
  std::vector<std::string> names;
  for (const ExportSpec& e : job.exports) names.push_back(e.file);
  for (const ScreenshotSpec& shot : job.screenshots) names.push_back(shot.file);
  for (const std::string& file : names)
    if (const std::string input = outputs.protected_input(job.output_directory / file);
        !input.empty())
      throw JobFailure(
          kExitBadJob,
          "outputs: \"" + file + "\" would overwrite " + input + " " +
              output_real_path(job.output_directory / file).string() +
              ", which the run reads; name the output differently or write it to another folder");
}

// Written to the output set's temporary; in place only when the whole job succeeds.
void export_trajectory(const Job& job, JobResult& result, const ExportSpec& spec,
                       OutputSet& outputs) {
  const Trajectory& trajectory = trajectory_for(job, result, spec.trajectory);
  const fs::path temporary = outputs.claim(spec.file, "trajectory \"" + spec.file + "\"");
  try {
    save_trajectory(trajectory, temporary);
  } catch (const Error& error) {
    throw JobFailure(kExitWriteFailed, "trajectory \"" + spec.file +
                                           "\": " + outputs.in_final_names(error.message()));
  }
}

// The Vulkan device and the first image's render target, made while the robot loads and the motion
// is planned (on lavapipe they take a good part of a screenshot's time). A target that fails here
// is made again, and its error reported, when the image is rendered.
std::unique_ptr<JobRenderer> start_renderer(const Job& job) {
  auto renderer = std::make_unique<JobRenderer>();
  try {
    if (!job.screenshots.empty())
      renderer->prepare_target(job.screenshots.front().image.width,
                               job.screenshots.front().image.height);
    else if (!job.frames.empty())
      renderer->prepare_target(job.frames.front().image.width, job.frames.front().image.height);
  } catch (const std::exception&) {
  }
  return renderer;
}

// Where the whole motion comes to rest besides its ends: " (at rest at each attach and detach)".
std::string rests_text(const Job& job) {
  const auto any = [&](auto&& test) {
    return std::any_of(job.steps.begin(), job.steps.end(), test);
  };
  const bool scene_steps = any([](const StepSpec& s) { return !s.moves(); });
  const bool tasks = any([](const StepSpec& s) { return s.pick_place.has_value(); });
  if (!scene_steps && !tasks) return "";
  return std::string(" (at rest ") + (scene_steps ? "at each attach and detach" : "") +
         (scene_steps && tasks ? ", and " : "") +
         (tasks ? "where each pick and place starts and ends" : "") + ")";
}

std::string trajectory_name(const Job& job, int reference) {
  return reference == kWholeMotion ? std::string("all")
                                   : job.steps[static_cast<size_t>(reference)].name;
}

}  // namespace

RobotSpec robot_from_flags(const CommandLine& line) {
  RobotSpec robot;
  if (is_robot_file_reference(line.robot)) {
    robot.urdf = fs::absolute(str(line.robot));
    // Not given: the file found beside the URDF; "none": no file.
    const auto companion = [](const QString& option) -> std::optional<fs::path> {
      const std::optional<QString> choice = companion_choice(option);
      if (!choice) return std::nullopt;
      return choice->isEmpty() ? fs::path() : fs::absolute(str(*choice));
    };
    robot.srdf = companion(line.srdf);
    robot.config = companion(line.config);
  } else {
    robot.builtin = str(line.robot);
  }
  for (const QString& p : line.package_paths)
    robot.package_paths.push_back(fs::absolute(str(p)).string());
  for (const QString& argument : line.xacro_args)
    if (const auto arg = xacro_argument(argument)) robot.xacro_args[arg->first] = arg->second;
  return robot;
}

Job job_from_flags(const CommandLine& line) {
  Job job;
  if (const std::string problem = companions_without_urdf(line); !problem.empty())
    throw JobError("", problem);
  if (line.screenshot.isEmpty() && (!line.size.isEmpty() || !line.view.isEmpty()))
    throw JobError(line.size.isEmpty() ? "--view" : "--size",
                   "sets the image of --screenshot, which is not given");
  job.robot = robot_from_flags(line);
  if (!line.scene.isEmpty()) job.scene.file = fs::absolute(str(line.scene));

  // Joint values when it is more than one word or a number ("nan" and "inf" included, so they are
  // refused as values, not looked up as pose names); otherwise a named pose.
  const QString start = line.start.trimmed();
  bool single_number = false;
  (void)start.toDouble(&single_number);
  if (start.isEmpty())
    job.start.robot_default = true;
  else if (single_number || start.contains(QRegularExpression(QStringLiteral("[,\\s]"))))
    job.start.joints = parse_number_list(str(start), "--start");
  else
    job.start.named = str(start);

  StepSpec step;
  step.name = "goal";
  step.field = "the goal";
  step.from_command_line = true;
  const int goals = !line.goal_joints.isEmpty() + !line.goal_named.isEmpty() +
                    !line.goal_pose.isEmpty() + !line.goal_relative.isEmpty();
  if (goals != 1)
    throw JobError("--goal-joints / --goal-named / --goal-pose / --goal-relative",
                   "give exactly one goal");
  if (!line.goal_joints.isEmpty()) {
    step.goal_kind = StepSpec::GoalKind::Joints;
    step.goal_state.joints = parse_number_list(str(line.goal_joints), "--goal-joints");
  } else if (!line.goal_named.isEmpty()) {
    step.goal_kind = StepSpec::GoalKind::Named;
    step.goal_state.named = str(line.goal_named);
  } else if (!line.goal_relative.isEmpty()) {
    const auto v = parse_number_list(str(line.goal_relative), "--goal-relative");
    if (v.size() != 3 && v.size() != 6)
      throw JobError("--goal-relative",
                     "expected 3 numbers (x y z) or 6 (x y z roll pitch yaw), in the tool frame");
    step.goal_kind = StepSpec::GoalKind::Relative;
    const Vector3 rpy = v.size() == 6 ? Vector3(v[3], v[4], v[5]) : Vector3::Zero();
    step.goal_pose = pose_from_xyz_rpy(Vector3(v[0], v[1], v[2]), rpy);
  } else {
    const auto v = parse_number_list(str(line.goal_pose), "--goal-pose");
    if (v.size() != 6) throw JobError("--goal-pose", "expected 6 numbers: x y z roll pitch yaw");
    step.goal_kind = StepSpec::GoalKind::Pose;
    step.goal_pose = pose_from_xyz_rpy(Vector3(v[0], v[1], v[2]), Vector3(v[3], v[4], v[5]));
  }
  try {
    if (!line.preset.isEmpty()) {
      step.preset = str(line.preset);
      step.options = preset(step.preset);
    }
  } catch (const Error& error) {
    throw JobError("--preset", describe(error));  // its hint lists the presets
  }
  try {
    step.cartesian = str(line.planner) == kCartesianPlanner;
    if (!line.planner.isEmpty() && !step.cartesian)
      step.options.planner = planner_type_from_string(str(line.planner));
  } catch (const Error& error) {
    throw JobError(
        "--planner",
        error.message() +
            (error.hint().empty() ? "" : " (" + error.hint() + ", or " + kCartesianPlanner + ")"));
  }
  if (!line.keep_orientation.isEmpty()) {
    bool ok = false;
    const double tolerance = line.keep_orientation.toDouble(&ok);
    if (!ok || !(tolerance >= 1e-4 && tolerance <= 3.14159))
      throw JobError("--keep-orientation",
                     "expected an angle in radians in [0.0001, 3.14159], got \"" +
                         str(line.keep_orientation) + "\"");
    step.constraints.orientation = OrientationConstraint{Quaternion::Identity(), tolerance};
    step.orientation_from_start = true;
  }
  if (!line.seed.isEmpty()) {
    bool ok = false;
    step.options.seed = line.seed.toULongLong(&ok);
    if (!ok)
      throw JobError("--seed",
                     "expected a non-negative whole number, got \"" + str(line.seed) + "\"");
  }
  if (!line.timing.isEmpty()) step.timing = timing_from_string(str(line.timing), "--timing");
  if (step.cartesian && step.goal_kind != StepSpec::GoalKind::Pose &&
      step.goal_kind != StepSpec::GoalKind::Relative)
    throw JobError("--planner cartesian",
                   "moves the TCP along a straight line: give --goal-pose or --goal-relative");
  if (step.cartesian && !step.constraints.empty())
    throw JobError(
        "--keep-orientation",
        "goes with free-space planners (a straight line keeps its own orientation path)");
  if (!step.constraints.empty() && step.options.planner != PlannerType::RrtConnect)
    throw JobError("--keep-orientation",
                   "is kept by RRT-Connect with projection: drop --planner or give rrt_connect");
  job.steps.push_back(step);

  refuse_control_characters(line.output_dir, "--output-dir");
  job.output_directory = line.output_dir.isEmpty() ? fs::path() : fs::path(str(line.output_dir));
  for (const QString& file : line.exports) {
    refuse_control_characters(file, "--export");
    const std::string ext = fs::path(str(file)).extension().string();
    const std::vector<std::string>& known = trajectory_save_extensions();
    if (std::find(known.begin(), known.end(), ext) == known.end())
      throw JobError("--export",
                     "\"" + str(file) +
                         "\" needs the extension .json, .csv, .yaml (ROS) or .script (URScript)");
    if (line.exports.count(file) > 1)
      throw JobError("--export", "\"" + str(file) + "\" is given twice");
    job.exports.push_back({str(file), kWholeMotion});
  }
  if (!line.screenshot.isEmpty()) {
    ScreenshotSpec shot;
    refuse_control_characters(line.screenshot, "--screenshot");
    shot.file = str(line.screenshot);
    if (fs::path(shot.file).extension() != ".png")
      throw JobError("--screenshot",
                     "\"" + shot.file + "\" needs the extension .png (images are written as PNG)");
    if (!line.size.isEmpty()) {
      const QRegularExpressionMatch m =
          QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(line.size);
      if (!m.hasMatch() || m.captured(1).toUInt() < 16 || m.captured(2).toUInt() < 16 ||
          m.captured(1).toUInt() > 8192 || m.captured(2).toUInt() > 8192)
        throw JobError("--size", "expected WIDTHxHEIGHT between 16 and 8192, e.g. 1280x720");
      shot.image.width = m.captured(1).toUInt();
      shot.image.height = m.captured(2).toUInt();
    }
    if (!line.view.isEmpty()) {
      shot.image.camera.view = standard_view_from_string(str(line.view), "--view");
      shot.image.camera.has_view = true;
    }
    shot.image.ghost_start = true;
    job.screenshots.push_back(shot);
  }
  return job;
}

int run_job(const Job& job, std::ostream& out, std::ostream& err) {
  const auto started = std::chrono::steady_clock::now();
  std::future<std::unique_ptr<JobRenderer>> renderer_ready;
  if (!job.screenshots.empty() || !job.frames.empty())
    renderer_ready = std::async(std::launch::async, [&job] { return start_renderer(job); });
  try {
    // The folder is made up front, so an unwritable one fails before any planning; the set
    // removes it again if the job fails.
    OutputSet outputs(job.output_directory);
    outputs.create_directory();
    for (const auto& [file, what] : files_the_job_names(job)) outputs.protect(file, what);
    check_outputs_spare_inputs(job, outputs);
    check_output_places(job);
    check_counted_frames(job, err);
    JobResult result;
    load_robot_and_scene(job, result);
    for (const auto& [file, what] : files_the_robot_and_scene_read(result))
      outputs.protect(file, what);
    check_outputs_spare_inputs(job, outputs);  // meshes and textures now known too
    check_exports_suit_the_robot(job, result);
    // What the loader and the planner let pass but a user should know (an unknown kinetic.toml
    // key, a planning margin reduced): on stderr, the job goes on.
    for (const std::string& warning : result.robot->load_warnings())
      err << "warning: robot: " << terminal_safe(warning) << "\n";
    for (const SceneMeshProblem& note : oversized_scene_meshes(result.scene))
      err << "warning: scene: " << note.message << "\n";
    // Printed as the run gets there: a step that fails leaves the lines before it said.
    RunSummary summary(job, out, err);
    summary.print_new(result);
    plan_steps(job, result, [&] { summary.print_new(result); });
    if (!job.steps.empty() && (job.steps.size() > 1)) {
      bool whole_used = false;
      for (const auto& e : job.exports) whole_used |= e.trajectory == kWholeMotion;
      for (const auto& s : job.screenshots) whole_used |= s.trajectory == kWholeMotion;
      for (const auto& f : job.frames) whole_used |= f.trajectory == kWholeMotion;
      if (whole_used)
        out << "all steps blended: " << std::setprecision(2)
            << trajectory_for(job, result, kWholeMotion).duration() << " s" << rests_text(job)
            << "\n";
    }
    check_all_frames(job, result, err);  // now that the motions' durations are known
    // Every output is staged first and moved into place together: a job that fails part way
    // (no Vulkan device, a full disk, Ctrl-C) leaves no partial set behind.
    std::vector<std::string> written;
    for (const ExportSpec& spec : job.exports) {
      stop_if_interrupted();
      export_trajectory(job, result, spec, outputs);
      written.push_back("wrote " + outputs.files().back().string());
    }
    if (!job.screenshots.empty() || !job.frames.empty()) {
      const std::unique_ptr<JobRenderer> renderer = renderer_ready.get();
      for (const ScreenshotSpec& spec : job.screenshots) {
        stop_if_interrupted();
        renderer->screenshot(job, result, spec, outputs);
        written.push_back("wrote " + outputs.files().back().string());
      }
      for (const FramesSpec& spec : job.frames) {
        const size_t first = outputs.files().size();
        renderer->frames(job, result, spec, outputs);
        const auto& files = outputs.files();
        const size_t count = files.size() - first;
        written.push_back("wrote " + std::to_string(count) + " frames of \"" +
                          trajectory_name(job, spec.trajectory) + "\": " + files[first].string() +
                          (count > 1 ? " ... " + files.back().filename().string() : std::string()));
      }
      for (const std::string& warning : renderer->warnings(*result.robot))
        err << "warning: robot: " << terminal_safe(warning) << "\n";
    }
    stop_if_interrupted();
    outputs.commit();
    for (const std::string& line : written) out << line << "\n";
  } catch (const JobFailure& failure) {
    err << "kinetic-studio --headless: " << failure.what() << "\n";
    return failure.code();
  } catch (const JobError& error) {
    err << "kinetic-studio --headless: " << error.what() << "\n";
    return kExitBadJob;
  } catch (const Error& error) {  // an engine error no step above anticipated
    err << "kinetic-studio --headless: " << error.message()
        << (error.hint().empty() ? "" : " (" + error.hint() + ")") << "\n";
    return kExitPlanningFailed;
  } catch (const std::exception& error) {  // not an engine error: a library's (file system, memory)
    err << "kinetic-studio --headless: unexpected error: " << error.what()
        << working_directory_hint() << "\n";
    return kExitPlanningFailed;
  }
  out << "done in "
      << duration_text(
             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                 .count())
      << "\n";
  return kExitOk;
}

int run_headless(const CommandLine& line, std::ostream& out, std::ostream& err) {
  install_interrupt_handlers();
  interrupt_requested() = false;
  if (!line.benchmark.isEmpty()) return run_benchmark_command(line, out, err);
  Job job;
  try {
    if (!line.job.isEmpty()) {
      // The job file says all of these: a flag beside it would be ignored, so it is an error.
      QStringList ignored;
      const auto given = [&](bool set, const char* flag) {
        if (set) ignored << QString::fromLatin1(flag);
      };
      given(line.robot_given, "--robot");
      given(!line.srdf.isEmpty(), "--srdf");
      given(!line.config.isEmpty(), "--config");
      given(!line.package_paths.isEmpty(), "--package-path");
      given(!line.xacro_args.isEmpty(), "--xacro-arg");
      given(!line.scene.isEmpty(), "--scene");
      given(!line.start.isEmpty(), "--start");
      given(!line.goal_joints.isEmpty(), "--goal-joints");
      given(!line.goal_named.isEmpty(), "--goal-named");
      given(!line.goal_pose.isEmpty(), "--goal-pose");
      given(!line.goal_relative.isEmpty(), "--goal-relative");
      given(!line.keep_orientation.isEmpty(), "--keep-orientation");
      given(!line.planner.isEmpty(), "--planner");
      given(!line.preset.isEmpty(), "--preset");
      given(!line.seed.isEmpty(), "--seed");
      given(!line.timing.isEmpty(), "--timing");
      given(!line.exports.isEmpty(), "--export");
      given(!line.screenshot.isEmpty(), "--screenshot");
      given(!line.size.isEmpty(), "--size");
      given(!line.view.isEmpty(), "--view");
      if (!ignored.isEmpty())
        throw JobError(
            "",
            "a job file says the robot, scene, steps and outputs itself: " +
                str(ignored.join(", ")) +
                " would be ignored (only --output-dir goes with a job file); put them in the job, "
                "or drop the job file");
      refuse_control_characters(line.output_dir, "--output-dir");
      job = load_job(str(line.job));
      if (!line.output_dir.isEmpty()) job.output_directory = fs::absolute(str(line.output_dir));
    } else {
      job = job_from_flags(line);
    }
  } catch (const JobError& error) {
    err << "kinetic-studio --headless: " << error.what() << working_directory_hint() << "\n";
    return kExitBadJob;
  } catch (const std::exception& error) {  // resolving the paths given (the file system's errors)
    err << "kinetic-studio --headless: " << error.what() << working_directory_hint() << "\n";
    return kExitBadJob;
  }
  return run_job(job, out, err);
}

}  // namespace kinetic::app::headless
