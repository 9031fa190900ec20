#include "app/headless/job_file.hpp"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>

#include "app/document/file_kind.hpp"
#include "app/headless/job_json_fields.hpp"
#include "app/headless/job_motion_settings.hpp"
#include "app/headless/job_pick_place.hpp"
#include "app/headless/job_scene_steps.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/json_input.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

using namespace job_json;

fs::path resolve(const fs::path& base, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() || base.empty() ? p : (base / p).lexically_normal();
}

RobotSpec parse_robot(const QJsonValue& value, const fs::path& base) {
  RobotSpec robot;
  if (value.isString()) {
    robot.builtin = str(value.toString());
    if (robot.builtin.empty()) throw JobError("robot", "must not be empty");
    return robot;
  }
  const Fields f(value, "robot",
                 {"name", "urdf", "srdf", "config", "package_paths", "xacro_args", "group"});
  robot.builtin = f.text("name");
  robot.group = f.text("group");
  if (f.has("urdf")) robot.urdf = resolve(base, f.text("urdf"));
  // Left out: the file found beside the URDF; "": none.
  const auto companion = [&](const char* key) -> std::optional<fs::path> {
    if (!f.has(key)) return std::nullopt;
    if (f.value(key) == QJsonValue(QString())) return fs::path();
    return resolve(base, f.text(key));
  };
  robot.srdf = companion("srdf");
  robot.config = companion("config");
  if (robot.builtin.empty() == robot.urdf.empty())
    throw JobError("robot",
                   "give either \"name\" (a built-in robot) or \"urdf\" (a robot file), not both");
  if (!robot.builtin.empty() && (robot.srdf || robot.config))
    throw JobError("robot",
                   "\"srdf\" and \"config\" go with \"urdf\", not with a built-in \"name\"");
  if (f.has("package_paths")) {
    const QJsonValue v = f.value("package_paths");
    if (!v.isArray()) throw JobError(f.at("package_paths"), "expected an array of folders");
    const QJsonArray array = v.toArray();
    for (int i = 0; i < array.size(); ++i) {
      if (!array[i].isString())
        throw JobError(f.at("package_paths") + "[" + std::to_string(i) + "]",
                       "expected a folder name");
      robot.package_paths.push_back(resolve(base, str(array[i].toString())).string());
    }
  }
  if (f.has("xacro_args")) {
    const QJsonValue v = f.value("xacro_args");
    if (!v.isObject())
      throw JobError(f.at("xacro_args"),
                     "expected an object of xacro arguments, e.g. {\"ur_type\": \"ur10e\"}");
    if (robot.urdf.empty())
      throw JobError(f.at("xacro_args"), "goes with \"urdf\" (a xacro robot file)");
    const QJsonObject args = v.toObject();
    for (auto it = args.begin(); it != args.end(); ++it) {
      if (!it.value().isString() && !it.value().isDouble() && !it.value().isBool())
        throw JobError(f.at("xacro_args") + "." + str(it.key()),
                       "expected a text, a number or true/false");
      robot.xacro_args[str(it.key())] =
          str(it.value().isBool() ? QString::fromLatin1(it.value().toBool() ? "true" : "false")
                                  : it.value().toVariant().toString());
    }
  }
  return robot;
}

// A MoveIt motion plan request's start state or joint goal, by joint name (the robot resolves the
// names); its file relative to the job's folder.
JointValues request_joints(const std::string& file, const std::string& field,
                           const fs::path& base_dir, bool goal) {
  try {
    const MotionPlanRequest request = load_motion_plan_request(resolve(base_dir, file).string());
    return goal ? request.goal : request.start;
  } catch (const Error& error) {
    throw JobError(field,
                   error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")"));
  }
}

StateSpec parse_state(const QJsonValue& value, const std::string& path, const fs::path& base_dir) {
  StateSpec state;
  if (value.isObject() && value.toObject().contains(QStringLiteral("request"))) {
    const Fields f(value, path, {"request"});
    state.by_name = request_joints(f.text("request"), f.at("request"), base_dir, false);
    state.by_name_is_start = true;
    if (state.by_name.names.empty())
      throw JobError(f.at("request"), "the request has no start_state.joint_state");
    return state;
  }
  if (value.isString()) {
    state.named = str(value.toString());
    if (state.named.empty()) throw JobError(path, "must not be empty");
  } else if (value.isArray()) {
    state.joints = Fields::number_array(value, path, 0, "joint values");
  } else {
    const Fields f(value, path, {"named", "joints"});
    if (f.has("named") == f.has("joints"))
      throw JobError(path, "give either \"named\" or \"joints\"");
    state.named = f.text("named");
    if (f.has("joints"))
      state.joints = Fields::number_array(f.value("joints"), f.at("joints"), 0, "joint values");
  }
  return state;
}

void parse_goal(const QJsonValue& value, const std::string& path, StepSpec& step,
                const fs::path& base_dir) {
  const Fields f(value, path, {"joints", "named", "pose", "relative", "arc", "request"});
  const int given = f.has("joints") + f.has("named") + f.has("pose") + f.has("relative") +
                    f.has("arc") + f.has("request");
  if (given != 1)
    throw JobError(path,
                   "give exactly one of \"joints\", \"named\", \"pose\", \"relative\", \"arc\" or "
                   "\"request\"");
  if (f.has("request")) {
    step.goal_kind = StepSpec::GoalKind::Joints;
    step.goal_state.by_name = request_joints(f.text("request"), f.at("request"), base_dir, true);
  } else if (f.has("arc")) {
    parse_arc_goal(f, step);
  } else if (f.has("joints")) {
    step.goal_kind = StepSpec::GoalKind::Joints;
    step.goal_state.joints =
        Fields::number_array(f.value("joints"), f.at("joints"), 0, "joint values");
  } else if (f.has("named")) {
    step.goal_kind = StepSpec::GoalKind::Named;
    step.goal_state.named = f.text("named");
  } else if (f.has("pose")) {
    step.goal_kind = StepSpec::GoalKind::Pose;
    const Fields pose(f.value("pose"), f.at("pose"), {"xyz", "rpy", "quaternion", "end_effector"});
    if (!pose.has("xyz"))
      throw JobError(pose.at("xyz"), "missing (the TCP position in the base frame, metres)");
    step.goal_pose = parse_pose(pose);
    step.goal_end_effector = pose.text("end_effector", "");
  } else {
    step.goal_kind = StepSpec::GoalKind::Relative;
    const Fields offset(f.value("relative"), f.at("relative"),
                        {"xyz", "rpy", "quaternion", "frame"});
    step.goal_pose = parse_pose(offset);
    const std::string frame = offset.text("frame", "tool");
    if (frame == "tool")
      step.relative_frame = RelativeGoal::Frame::Tool;
    else if (frame == "base")
      step.relative_frame = RelativeGoal::Frame::Base;
    else
      throw JobError(offset.at("frame"), "expected \"tool\" or \"base\", got \"" + frame + "\"");
  }
}

// Settings a step may set and the job's "defaults" may provide for every step.
const std::vector<std::string> kStepSettings = {
    "planner",   "preset",     "options", "timing", "velocity_scaling", "acceleration_scaling",
    "cartesian", "constraints"};

void apply_options(const Fields& f, PlannerOptions& p);

// Applies the settings present in `f` on top of `step` (defaults first, then the step's own).
// A step's own preset picks the base values again: the defaults' options (`defaults`) still apply
// over it, then the step's own.
void apply_settings(const Fields& f, StepSpec& step, const Fields* defaults = nullptr) {
  try {
    if (f.has("preset")) {
      step.preset = f.text("preset");
      const PlannerType planner = step.options.planner;
      const std::uint64_t seed = step.options.seed;
      step.options = preset(step.preset);
      step.options.planner = planner;
      step.options.seed = seed;
      if (defaults && defaults->has("options")) apply_options(*defaults, step.options);
    }
  } catch (const Error& error) {
    throw JobError(f.at("preset"),
                   error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")"));
  }
  try {
    if (f.has("planner")) {
      step.cartesian = f.text("planner") == kCartesianPlanner;
      if (!step.cartesian) step.options.planner = planner_type_from_string(f.text("planner"));
    }
  } catch (const Error& error) {
    throw JobError(
        f.at("planner"),
        error.message() +
            (error.hint().empty() ? "" : " (" + error.hint() + ", or " + kCartesianPlanner + ")"));
  }
  parse_cartesian_settings(f, step);
  parse_constraints(f, step);
  if (f.has("options")) apply_options(f, step.options);
  if (f.has("timing")) step.timing = timing_from_string(f.text("timing"), f.at("timing"));
  if (f.has("velocity_scaling"))
    step.velocity_scaling = f.number("velocity_scaling", 1.0, kMinScaling, 1.0);
  if (f.has("acceleration_scaling"))
    step.acceleration_scaling = f.number("acceleration_scaling", 1.0, kMinScaling, 1.0);
}

// The "options" object of `f` over `p`.
void apply_options(const Fields& f, PlannerOptions& p) {
  {
    const Fields o(f.value("options"), f.at("options"),
                   {"timeout_ms", "max_iterations", "margin", "shortcut_passes", "smoothing",
                    "smoothing_passes", "resolution", "range", "seed", "ik_attempts",
                    "prm_neighbors", "rrt_star_refine_factor", "workspace"});
    p.timeout_ms = o.number("timeout_ms", p.timeout_ms, 0.001, 3.6e6);
    p.max_iterations = o.integer("max_iterations", p.max_iterations, 1, 100000000);
    p.margin = o.number("margin", p.margin, 0.0, 1.0);
    p.shortcut_passes = o.integer("shortcut_passes", p.shortcut_passes, 0, 1000000);
    p.smoothing = o.flag("smoothing", p.smoothing);
    p.smoothing_passes = o.integer("smoothing_passes", p.smoothing_passes, 0, 100);
    p.resolution = o.number("resolution", p.resolution, 1e-6, 10.0);
    p.range = o.number("range", p.range, 0.0, 100.0);
    p.seed = static_cast<std::uint64_t>(
        o.number("seed", static_cast<double>(p.seed), 0, 9007199254740991.0));
    p.ik_attempts = o.integer("ik_attempts", p.ik_attempts, 1, 10000);
    p.prm_neighbors = o.integer("prm_neighbors", p.prm_neighbors, 1, 1000);
    p.rrt_star_refine_factor =
        o.number("rrt_star_refine_factor", p.rrt_star_refine_factor, 0.0, 1000.0);
    if (o.has("workspace")) {
      const Fields w(o.value("workspace"), o.at("workspace"), {"min", "max"});
      if (!w.has("min") || !w.has("max"))
        throw JobError(w.path(),
                       "needs \"min\" and \"max\": [x, y, z] in metres, robot root frame");
      const std::vector<double> lo = w.numbers("min", 3, "min"), hi = w.numbers("max", 3, "max");
      WorkspaceBounds bounds;
      for (int axis = 0; axis < 3; ++axis) {
        bounds.min[axis] = lo[axis];
        bounds.max[axis] = hi[axis];
      }
      p.workspace = bounds;
    }
    try {
      p.validate();
    } catch (const Error& error) {
      throw JobError(o.path(), error.message());
    }
  }
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A step that moves the robot, as a trajectory reference: a scene step has no motion of its own.
int motion_step_ref(const Fields& f, const std::string& key, const std::vector<StepSpec>& steps,
                    size_t index) {
  const StepSpec& step = steps[index];
  if (step.moves()) return static_cast<int>(index);
  throw JobError(f.at(key), step.field + " (\"" + step.name + "\") " +
                                to_string(step.scene_change->kind) + "es \"" +
                                step.scene_change->object +
                                "\" and has no motion; refer to a step with a \"goal\" or a "
                                "\"pick_place\", or to \"all\"");
}

// A trajectory reference: "all" (every step), a step index or a step name.
int parse_trajectory_ref(const Fields& f, const std::string& key,
                         const std::vector<StepSpec>& steps) {
  if (!f.has(key)) return kWholeMotion;
  const QJsonValue v = f.value(key);
  if (v.isDouble()) {
    const int index = f.integer(key, 0, 0, static_cast<int>(steps.size()) - 1);
    return motion_step_ref(f, key, steps, static_cast<size_t>(index));
  }
  const std::string name = f.text(key);
  if (name == "all") return kWholeMotion;
  std::vector<std::string> names{"all"};
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].name == name) return motion_step_ref(f, key, steps, i);
    if (steps[i].moves()) names.push_back(steps[i].name);
  }
  throw JobError(f.at(key), "no step named \"" + name + "\" (" + suggestion_hint(name, names) +
                                "); use \"all\", a step name or a step index");
}

CameraSpec parse_camera(const QJsonValue& value, const std::string& path) {
  CameraSpec camera;
  if (value.isString()) {
    camera.view = standard_view_from_string(str(value.toString()), path);
    camera.has_view = true;
    return camera;
  }
  const Fields f(value, path, {"view", "eye", "target", "up", "orthographic", "zoom"});
  if (f.has("view")) {
    camera.view = standard_view_from_string(f.text("view"), f.at("view"));
    camera.has_view = true;
  }
  if (f.has("eye")) camera.eye = vec3(f.numbers("eye", 3, "eye")).cast<float>();
  if (f.has("target")) camera.target = vec3(f.numbers("target", 3, "target")).cast<float>();
  if (camera.eye && camera.has_view) throw JobError(path, "give \"view\" or \"eye\", not both");
  if (camera.eye && !camera.target) throw JobError(f.at("target"), "missing (needed with \"eye\")");
  if (camera.eye && (*camera.eye - *camera.target).norm() < 1e-4f)
    throw JobError(f.at("eye"), "must differ from target");
  if (f.has("up")) {
    const Vector3 up = vec3(f.numbers("up", 3, "up"));
    if (up.norm() < 1e-9 || up.normalized().dot(Vector3::UnitZ()) < 0.999)
      throw JobError(f.at("up"), "the studio camera keeps z up: use [0, 0, 1] (or leave it out)");
  }
  camera.orthographic = f.flag("orthographic", false);
  camera.zoom = static_cast<float>(f.number("zoom", 1.0, 0.05, 50.0));
  return camera;
}

ImageSpec parse_image(const Fields& f) {
  ImageSpec image;
  image.width = static_cast<uint32_t>(f.integer("width", 1280, 16, 8192));
  image.height = static_cast<uint32_t>(f.integer("height", 720, 16, 8192));
  if (f.has("camera")) image.camera = parse_camera(f.value("camera"), f.at("camera"));
  image.trail = f.flag("trail", true);
  if (f.has("ghosts")) {
    const QJsonValue v = f.value("ghosts");
    if (!v.isArray())
      throw JobError(f.at("ghosts"), "expected an array of \"start\" and/or \"goals\"");
    const QJsonArray array = v.toArray();
    for (int i = 0; i < array.size(); ++i) {
      const std::string which = str(array[i].toString());
      if (which == "start")
        image.ghost_start = true;
      else if (which == "goals")
        image.ghost_goals = true;
      else
        throw JobError(f.at("ghosts") + "[" + std::to_string(i) + "]",
                       "expected \"start\" or \"goals\"");
    }
  }
  return image;
}

const std::vector<std::string> kImageFields = {"width", "height", "camera",
                                               "trail", "ghosts", "trajectory"};

// A path a job file names for writing stays inside its folder: relative, and no ".." above it.
// (Writing elsewhere is the command line's to say: --output-dir.)
void check_stays_inside(const std::string& path, const std::string& field,
                        const std::string& folder) {
  if (has_control_character(path))
    throw JobError(field,
                   "\"" + printable(path) + "\" has a control character; output names may not");
  const fs::path p(path);
  if (p.is_absolute())
    throw JobError(field, "\"" + path + "\" is absolute; a job file writes inside " + folder +
                              " only (give another output folder with --output-dir)");
  const fs::path normal = p.lexically_normal();
  if (!normal.empty() && *normal.begin() == "..")
    throw JobError(field, "\"" + path + "\" leaves " + folder +
                              "; a job file writes inside it only (give another "
                              "output folder with --output-dir)");
}

void check_output_name(const std::string& file, const std::string& field,
                       const std::vector<std::string>& extensions) {
  check_stays_inside(file, field, "the output folder");
  const std::string ext = fs::path(file).extension().string();
  if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end())
    throw JobError(field, "\"" + file + "\" needs the extension " + quoted_list(extensions));
}

// Whether frames of `spec` may be written to `file` (both relative to the output folder): its name
// is the pattern's with a frame number. With a "count" the names are known (the number padded to
// the width the last one needs); with "fps" the count follows the motion's duration, so any number
// may come.
bool frames_may_write(const FramesSpec& spec, const std::string& file) {
  const fs::path pattern = fs::path(spec.pattern).lexically_normal(),
                 path = fs::path(file).lexically_normal();
  if (pattern.parent_path() != path.parent_path()) return false;
  const std::string name = pattern.filename().string(), candidate = path.filename().string();
  const size_t first = name.find('#'), last = name.find_first_not_of('#', first);
  const std::string prefix = name.substr(0, first), suffix = name.substr(last);
  if (candidate.size() < prefix.size() + suffix.size() + (last - first) ||
      candidate.rfind(prefix, 0) != 0 ||
      candidate.compare(candidate.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const std::string number =
      candidate.substr(prefix.size(), candidate.size() - prefix.size() - suffix.size());
  if (number.find_first_not_of("0123456789") != std::string::npos) return false;
  if (spec.count <= 0) return true;
  const size_t width = std::max(last - first, std::to_string(spec.count - 1).size());
  const std::string value = number.substr(std::min(number.find_first_not_of('0'), number.size()));
  return number.size() == width && value.size() <= 6 &&
         (value.empty() ? 0 : std::stoi(value)) < spec.count;
}

void parse_outputs(const QJsonValue& value, Job& job, const fs::path& base) {
  const Fields f(value, "outputs", {"directory", "trajectories", "screenshots", "frames"});
  if (f.has("directory"))
    check_stays_inside(f.text("directory"), f.at("directory"), "the job's folder");
  job.output_directory = f.has("directory") ? resolve(base, f.text("directory")) : base;
  if (f.has("directory")) {
    job.output_directory_base = base;
    job.output_directory_named = job.output_directory;
  }
  const auto list = [&](const std::string& key) {
    if (!f.has(key)) return QJsonArray();
    if (!f.value(key).isArray())
      throw JobError(f.at(key), std::string("expected an array, got ") + type_name(f.value(key)));
    return f.value(key).toArray();
  };
  std::set<std::string> files;  // two outputs writing one file is a mistake
  const auto unique = [&](const std::string& file, const std::string& field) {
    if (!files.insert(fs::path(file).lexically_normal().string()).second)
      throw JobError(field, "\"" + file + "\" is written by another output too");
  };
  const QJsonArray exports = list("trajectories");
  for (int i = 0; i < exports.size(); ++i) {
    const Fields e(exports[i], f.at("trajectories") + "[" + std::to_string(i) + "]",
                   {"file", "trajectory"});
    ExportSpec spec;
    spec.file = e.required_text("file");
    check_output_name(spec.file, e.at("file"), trajectory_save_extensions());
    unique(spec.file, e.at("file"));
    spec.trajectory = parse_trajectory_ref(e, "trajectory", job.steps);
    job.exports.push_back(spec);
  }
  const QJsonArray shots = list("screenshots");
  for (int i = 0; i < shots.size(); ++i) {
    const Fields s(shots[i], f.at("screenshots") + "[" + std::to_string(i) + "]",
                   with(kImageFields, {"file", "at"}));
    ScreenshotSpec spec;
    spec.file = s.required_text("file");
    check_output_name(spec.file, s.at("file"), {".png"});
    unique(spec.file, s.at("file"));
    spec.image = parse_image(s);
    spec.trajectory = parse_trajectory_ref(s, "trajectory", job.steps);
    if (s.has("at")) {
      const QJsonValue at = s.value("at");
      if (at.isString() && at.toString() == QStringLiteral("start"))
        spec.at = 0.0;
      else if (at.isString() && at.toString() == QStringLiteral("end"))
        spec.at = -1.0;
      else if (at.isDouble())
        spec.at = s.number("at", 0, 0, 1e6);
      else
        throw JobError(s.at("at"), "expected \"start\", \"end\" or seconds into the motion");
    }
    job.screenshots.push_back(spec);
  }
  const QJsonArray frames = list("frames");
  for (int i = 0; i < frames.size(); ++i) {
    const Fields s(frames[i], f.at("frames") + "[" + std::to_string(i) + "]",
                   with(kImageFields, {"pattern", "count", "fps"}));
    FramesSpec spec;
    spec.pattern = s.required_text("pattern");
    check_output_name(spec.pattern, s.at("pattern"), {".png"});
    const std::string name = fs::path(spec.pattern).filename().string();
    const size_t first_hash = name.find('#');
    if (first_hash == std::string::npos)
      throw JobError(s.at("pattern"),
                     "needs a run of '#' in the file name for the frame number, e.g. "
                     "\"frames/frame_###.png\"");
    if (name.find('#', name.find_first_not_of('#', first_hash)) != std::string::npos)
      throw JobError(s.at("pattern"),
                     "has more than one run of '#'; the frame number takes one, e.g. "
                     "\"frames/frame_###.png\"");
    if (fs::path(spec.pattern).parent_path().string().find('#') != std::string::npos)
      throw JobError(s.at("pattern"),
                     "has '#' in a folder name; only the file name is numbered, e.g. "
                     "\"frames/frame_###.png\"");
    unique(spec.pattern, s.at("pattern"));
    spec.image = parse_image(s);
    spec.trajectory = parse_trajectory_ref(s, "trajectory", job.steps);
    if (s.has("count") == s.has("fps"))
      throw JobError(s.path(), "give either \"count\" or \"fps\"");
    spec.count = s.integer("count", 0, 1, 100000);
    spec.fps = s.number("fps", 0, 0.01, 1000);
    // A screenshot named like one of the frames would be written twice: said now, not after the
    // planning.
    for (size_t k = 0; k < job.screenshots.size(); ++k)
      if (frames_may_write(spec, job.screenshots[k].file))
        throw JobError(
            s.at("pattern"),
            "\"" + spec.pattern + "\" " + (spec.count > 0 ? "writes" : "may write") +
                " the file of outputs.screenshots[" + std::to_string(k) + "] (\"" +
                job.screenshots[k].file + "\")" +
                (spec.count > 0 ? "" : ", as its number of frames follows the motion's duration") +
                "; give the outputs different names");
    job.frames.push_back(spec);
  }
}

}  // namespace

const char* to_string(Timing timing) {
  switch (timing) {
    case Timing::TimeOptimal:
      return "time_optimal";
    case Timing::Trapezoidal:
      return "trapezoidal";
    case Timing::SCurve:
      return "scurve";
    case Timing::CubicSpline:
      return "cubic_spline";
  }
  return "?";
}

Timing timing_from_string(const std::string& name, const std::string& field) {
  for (Timing t : {Timing::TimeOptimal, Timing::Trapezoidal, Timing::SCurve, Timing::CubicSpline})
    if (name == to_string(t)) return t;
  throw JobError(field, "unknown time parameterization \"" + name +
                            "\"; expected time_optimal, trapezoidal, scurve or cubic_spline");
}

viewer::StandardView standard_view_from_string(const std::string& name, const std::string& field) {
  using V = viewer::StandardView;
  const std::vector<std::pair<std::string, V>> views = {
      {"front", V::Front}, {"back", V::Back},     {"left", V::Left}, {"right", V::Right},
      {"top", V::Top},     {"bottom", V::Bottom}, {"iso", V::Iso}};
  for (const auto& [n, v] : views)
    if (n == name) return v;
  throw JobError(field, "unknown view \"" + name +
                            "\"; expected front, back, left, right, top, bottom or iso");
}

std::string StepSpec::field_of(const std::string& path) const {
  if (from_command_line) {
    static const std::pair<const char*, const char*> kFlags[] = {
        {".goal.joints", "--goal-joints"},
        {".goal.named", "--goal-named"},
        {".goal", "--goal-pose / --goal-relative"},
        {".constraints", "--keep-orientation"}};
    for (const auto& [json, flag] : kFlags)
      if (path == json) return flag;
  }
  return field + path;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& field) {
  std::vector<double> out;
  const QStringList parts = QString::fromStdString(text).split(
      QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
  for (const QString& part : parts) {
    bool ok = false;
    const double x = part.toDouble(&ok);
    if (!ok || !std::isfinite(x)) throw JobError(field, "\"" + str(part) + "\" is not a number");
    out.push_back(x);
  }
  if (out.empty()) throw JobError(field, "expected numbers separated by spaces or commas");
  return out;
}

std::string line_column(const std::string& text, int offset) {
  int line = 1, column = 1;
  for (int i = 0; i < offset && i < static_cast<int>(text.size()); ++i) {
    if (text[static_cast<size_t>(i)] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

Job parse_job(const std::string& text, const std::string& source_name, const fs::path& base_dir) {
  // Another kind of file (a session, a scene, a URDF) is said as what it is, before its syntax
  // or its fields are found wanting as a job's.
  const std::string other_kind =
      wrong_kind_message(file_kind(text, source_name), FileKind::Job, source_name);
  if (!other_kind.empty()) throw JobError("", source_name + ": " + other_kind);
  QJsonParseError parse_error;
  const QJsonDocument document =
      QJsonDocument::fromJson(QByteArray::fromStdString(text), &parse_error);
  if (parse_error.error != QJsonParseError::NoError)
    throw JobError("", source_name + ":" + line_column(text, parse_error.offset) +
                           ": malformed JSON: " + str(parse_error.errorString()));
  if (!document.isObject()) throw JobError("", source_name + ": the job must be a JSON object");
  // Qt takes what RFC 8259 refuses (a raw tab in a string), and keeps one of two equal keys
  // silently (two "steps" would run half the job).
  const JsonTextCheck check = check_json_text(text);
  if (!check.malformed.empty())
    throw JobError("", source_name + ": malformed JSON: " + check.malformed);
  if (check.duplicate)
    throw JobError(
        check.duplicate->path == "top level" ? "" : check.duplicate->path,
        "\"" + check.duplicate->key + "\" is given twice; a key may appear only once in an object");

  const QJsonValue root(document.object());
  // The format before the other keys: a JSON file of another kind fails on it, not on its first
  // key.
  const QJsonValue format = document.object().value(QStringLiteral("format"));
  if (format.isUndefined())
    throw JobError("format",
                   "missing: a job file starts with \"format\": \"kinetic-job\", \"version\": 1");
  if (format != QJsonValue(QStringLiteral("kinetic-job")))
    throw JobError("format", "expected \"kinetic-job\", got " +
                                 (format.isString() ? "\"" + str(format.toString()) + "\""
                                                    : std::string(type_name(format))) +
                                 " (is this a job file?)");
  const Fields f(
      root, "",
      {"format", "version", "robot", "scene", "start", "defaults", "steps", "outputs", "comment"});
  const int version = f.integer("version", -1, -1, 1000000);
  if (version < 0)
    throw JobError("version", "missing (this reader supports version " +
                                  std::to_string(kJobFormatVersion) + ")");
  if (version == 0)
    throw JobError(
        "version",
        "0 is no version of the job format; versions start at 1 (this reader supports version " +
            std::to_string(kJobFormatVersion) + ")");
  if (version > kJobFormatVersion)
    throw JobError("version", "version " + std::to_string(version) +
                                  " is newer than this studio reads (" +
                                  std::to_string(kJobFormatVersion) + "); update Kinetic Studio");

  Job job;
  job.source = source_name;
  if (!f.has("robot"))
    throw JobError("robot", "missing (a built-in name like \"ur5e\" or {\"urdf\": ...})");
  job.robot = parse_robot(f.value("robot"), base_dir);
  if (f.has("scene")) {
    const QJsonValue scene = f.value("scene");
    if (scene.isString())
      job.scene.file = resolve(base_dir, f.text("scene"));
    else if (scene.isObject())
      job.scene.inline_json = QJsonDocument(scene.toObject()).toJson().toStdString();
    else
      throw JobError("scene",
                     std::string("expected a scene file name or an inline scene object, got ") +
                         type_name(scene));
  }
  if (f.has("start"))
    job.start = parse_state(f.value("start"), "start", base_dir);
  else
    job.start.robot_default = true;

  StepSpec defaults, pick_defaults;
  std::optional<Fields> default_fields, pick_default_fields;
  if (f.has("defaults")) {
    default_fields.emplace(f.value("defaults"), "defaults", kStepSettings);
    apply_settings(*default_fields, defaults);
    pick_default_fields.emplace(pick_place_defaults(f.value("defaults")), "defaults",
                                kPickPlaceDefaults);
    apply_settings(*pick_default_fields, pick_defaults);
  }

  if (!f.has("steps")) throw JobError("steps", "missing (a list of planning steps)");
  if (!f.value("steps").isArray() || f.value("steps").toArray().isEmpty())
    throw JobError("steps", "expected a non-empty array of steps");
  const QJsonArray steps = f.value("steps").toArray();
  std::set<std::string> names;
  for (int i = 0; i < steps.size(); ++i) {
    const std::string path = "steps[" + std::to_string(i) + "]";
    const Fields s(steps[i], path,
                   with(kStepSettings, {"name", "goal", "attach", "detach", "pick_place"}));
    const bool pick_place = is_pick_place_step(s) && !is_scene_step(s);
    StepSpec step = pick_place ? pick_defaults : defaults;
    step.field = path;
    step.name = s.text("name", "step" + std::to_string(i + 1));
    if (step.name == "all")
      throw JobError(s.at("name"), "\"all\" is reserved for the whole motion");
    if (!names.insert(step.name).second)
      throw JobError(s.at("name"), "\"" + step.name + "\" names an earlier step too");
    if (is_scene_step(s)) {
      parse_scene_step(s, with(kStepSettings, {"goal", "pick_place"}), step);
      job.steps.push_back(step);
      continue;
    }
    if (pick_place) {
      parse_pick_place_step(s, step);
      apply_settings(s, step, pick_default_fields ? &*pick_default_fields : nullptr);
      check_pick_place_settings(s, step);
      job.steps.push_back(step);
      continue;
    }
    if (!s.has("goal"))
      throw JobError(
          s.at("goal"),
          "missing (joints, named, pose, relative or arc; or \"attach\" / \"detach\" for a "
          "step that changes the scene, \"pick_place\" for a whole pick and place)");
    parse_goal(s.value("goal"), s.at("goal"), step, base_dir);
    apply_settings(s, step, default_fields ? &*default_fields : nullptr);
    check_motion_settings(step);
    job.steps.push_back(step);
  }
  if (std::none_of(job.steps.begin(), job.steps.end(),
                   [](const StepSpec& step) { return step.moves(); }))
    throw JobError("steps",
                   "has no step with a \"goal\" or a \"pick_place\": there is no motion to plan");
  // Defaults only a "goal" step takes: with none, they were dropped without a word (a pick_place
  // step refuses its own "timing" other than time_optimal and any "constraints").
  if (default_fields && std::none_of(job.steps.begin(), job.steps.end(), [](const StepSpec& step) {
        return step.moves() && !step.pick_place;
      }))
    for (const char* key : {"timing", "constraints"})
      if (default_fields->has(key))
        throw JobError(default_fields->at(key),
                       "no step takes it: the job has no step with a \"goal\" (a pick_place "
                       "step is timed time_optimal and takes no constraints)");
  job.output_directory = base_dir;
  if (f.has("outputs")) parse_outputs(f.value("outputs"), job, base_dir);
  return job;
}

Job load_job(const fs::path& path) {
  // A path that leads nowhere is said so, with where a relative one was looked for (as a missing
  // URDF is), rather than as a file that cannot be read.
  std::error_code ec;
  if (!fs::exists(path, ec) && !ec) {
    const fs::path here = fs::current_path(ec);
    const std::string where =
        path.is_relative() && !ec
            ? ": relative paths are taken from the current directory, " + here.string()
            : std::string();
    throw JobError("",
                   "job file '" + path.string() + "' does not exist (check the path" + where + ")");
  }
  std::string text;
  try {
    text = read_input_file(path, kJobInput);
  } catch (const Error& error) {
    throw JobError("", error.message());
  }
  const fs::path absolute = fs::absolute(path);
  return parse_job(text, path.string(), absolute.parent_path());
}

}  // namespace kinetic::app::headless
