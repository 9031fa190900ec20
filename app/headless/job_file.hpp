#pragma once
// Headless job files (JSON, "format": "kinetic-job", version 1; documented in
// docs/headless-jobs.md, "Job file"): which robot and scene, the start state, a list of planning
// steps and what to write (trajectories, screenshots, frame sequences). A step either moves the
// robot (a "goal"), changes the scene ("attach" / "detach"), or does a whole pick and place
// ("pick_place": the engine's task planner). parse_job() validates everything that can be checked
// without loading the robot, and every error names the JSON field at fault.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/printable_text.hpp"
#include "engine/core/types.hpp"
#include "engine/planning/cartesian_planner.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/planning/path_constraints.hpp"
#include "engine/planning/planner_options.hpp"
#include "engine/planning/planning_goal.hpp"
#include "engine/task/pick_place.hpp"
#include "viewer/camera.hpp"

namespace kinetic::app::headless {

inline constexpr int kJobFormatVersion = 1;

// A job file that cannot be used; what() is "FIELD: problem" (or "file:line:column: problem").
// Values quoted from the job are made printable: what() is a C string, and a NUL in a quoted value
// ended the message there.
class JobError : public std::runtime_error {
 public:
  JobError(const std::string& field, const std::string& problem)
      : std::runtime_error(printable(field.empty() ? problem : field + ": " + problem)),
        field_(field) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

struct RobotSpec {
  std::string builtin;  // built-in library name; or a URDF file with optional SRDF / kinetic.toml:
  std::filesystem::path urdf;
  // The URDF's SRDF / kinetic.toml: std::nullopt takes the one found beside it (robot_files.hpp),
  // an empty path none ("srdf": "", --srdf none), else that file.
  std::optional<std::filesystem::path> srdf, config;
  std::vector<std::string> package_paths;
  std::map<std::string, std::string> xacro_args;  // a xacro URDF's xacro:arg values
  std::string group;                              // planning group ("" = the robot's first)
};

struct SceneSpec {
  std::filesystem::path file;  // a kinetic-scene file, or
  std::string inline_json;     // the same JSON given inline in the job
  bool empty() const { return file.empty() && inline_json.empty(); }
};

// A joint state: a named pose of the robot, or joint values (model or planning-group order).
struct StateSpec {
  std::string named;
  std::vector<double> joints;
  // Or joint values by name: a MoveIt motion plan request's start state or joint goal
  // ({"request": "request.yaml"}); joints the robot has as no variable are skipped in a start.
  JointValues by_name;
  bool by_name_is_start = false;
  // Neither given: the robot's rest pose (engine rest_pose; a headless run without --start).
  bool robot_default = false;
};

enum class Timing { TimeOptimal, Trapezoidal, SCurve, CubicSpline };
const char* to_string(Timing timing);

// A scene step: an obstacle attached to a robot link (it then moves with the link), or an
// attached object released where it is (an obstacle again). The robot does not move.
struct SceneChangeSpec {
  enum class Kind { Attach, Detach } kind = Kind::Attach;
  std::string object;
  std::string link;  // Attach: "" = the planning group's tip link (the TCP's)
  // Attach: links allowed to touch the object besides `link`; nullopt = the default
  // (docs/headless-jobs.md: the links that move with `link` without the planning group moving
  // them).
  std::optional<std::vector<std::string>> touch_links;
  // The JSON fields, for messages: "steps[2].attach" or "steps[2].attach.object", ".link", ...
  std::string object_field, link_field, touch_links_field;
};
const char* to_string(SceneChangeSpec::Kind kind);  // "attach" | "detach"

// A whole pick and place (engine/task/pick_place.hpp): the robot moves the object from where it
// stands to its place pose, changing the scene along the way.
struct PickPlaceSpec {
  // Everything but the free-space stages' planner options (the step's `options`, planner
  // included) and the straight stages' line (the step's `cartesian_options`). touch_links nullopt:
  // the engine's default (task_touch_links); empty: only the attach link touches the object.
  PickPlaceRequest request;
  std::string field;  // "steps[2].pick_place", for messages
};

struct StepSpec {
  std::string name;
  std::string field;  // "steps[i]", for messages
  // The step is the command line's goal: its fields are the flags that gave them.
  bool from_command_line = false;
  // One of the step's fields, for messages: `field` + path ("steps[2].goal.joints") in a job
  // file, the flag on the command line ("--goal-joints" for ".goal.joints").
  std::string field_of(const std::string& path) const;
  // Set: a scene step, and none of the motion fields below apply.
  std::optional<SceneChangeSpec> scene_change;
  // Set: a pick and place step; of the motion fields below only options (planner included),
  // preset, cartesian_options and the scalings apply (it is timed time-optimally, stage by stage).
  std::optional<PickPlaceSpec> pick_place;
  bool moves() const { return !scene_change; }
  // Joint and named goals are kept as specs (the robot resolves them); pose goals are final.
  enum class GoalKind { Joints, Named, Pose, Relative, Arc } goal_kind = GoalKind::Joints;
  StateSpec goal_state;               // Joints / Named
  Pose goal_pose = Pose::Identity();  // Pose: TCP in the group's base link; Relative: the offset
  // Pose: the SRDF end effector it is for, in a group of several arms ("" = the group's chain);
  // the pose is then in that end effector's arm's base link.
  std::string goal_end_effector{};
  RelativeGoal::Frame relative_frame = RelativeGoal::Frame::Tool;
  CartesianSegment arc = CartesianSegment::arc(Vector3::Zero(), Vector3::UnitZ(), 0.0);  // Arc
  PlannerOptions options;  // preset + overrides, validated
  // "planner": "cartesian": the TCP moves along a straight line (or the arc) by dense IK.
  bool cartesian = false;
  CartesianOptions cartesian_options;
  double min_fraction = 1.0;  // of the line a Cartesian step must achieve
  // "constraints": kept at every waypoint of a free-space step. An orientation constraint given
  // without an orientation keeps the TCP's orientation where the step starts.
  PathConstraints constraints;
  bool orientation_from_start = false;
  std::string preset = "default";
  Timing timing = Timing::TimeOptimal;
  // Unset: the robot's default (a MoveIt config's joint_limits.yaml), else 1.
  std::optional<double> velocity_scaling, acceleration_scaling;
};

// A trajectory reference meaning "all steps": the runs of motion steps between scene steps and
// pick and place steps, each blended into one motion, and the pick and place steps' own motions,
// joined end to end (the robot rests at every scene step and where a pick and place starts and
// ends).
inline constexpr int kWholeMotion = -1;

struct CameraSpec {
  viewer::StandardView view = viewer::StandardView::Iso;
  bool has_view = false;                    // otherwise the studio's default 3/4 view
  std::optional<viewer::Vec3> eye, target;  // explicit placement (z up)
  bool orthographic = false;
  float zoom = 1.0f;  // > 1 moves closer than the automatic framing
};

struct ImageSpec {
  uint32_t width = 1280, height = 720;
  CameraSpec camera;
  bool trail = true;         // the TCP path of the motion
  bool ghost_start = false;  // the job's start state, translucent
  bool ghost_goals = false;  // every step's end state, translucent
};

struct ScreenshotSpec {
  std::string file;  // relative to the output directory
  ImageSpec image;
  int trajectory = kWholeMotion;  // whose motion the trail shows / `at` refers to
  double at = -1.0;               // s into that trajectory; < 0 = its end
};

struct FramesSpec {
  std::string pattern;  // "frames/frame_####.png": the run of '#' becomes the zero-padded index
  ImageSpec image;
  int trajectory = kWholeMotion;
  int count = 0;     // frames evenly spread over the motion, both ends included, or
  double fps = 0.0;  // frames every 1/fps seconds (plus the last instant)
};

struct ExportSpec {
  std::string file;  // .json or .csv, relative to the output directory
  int trajectory = kWholeMotion;
};

struct Job {
  std::filesystem::path source;  // the job file ("" for a job built from command-line flags)
  RobotSpec robot;
  SceneSpec scene;
  StateSpec start;
  std::vector<StepSpec> steps;
  std::filesystem::path output_directory;  // absolute or relative to the working directory
  // The job's folder and the output folder its outputs.directory named: while output_directory is
  // that one (not --output-dir's), it stays inside the job's folder, through symbolic links too.
  std::filesystem::path output_directory_base, output_directory_named;
  std::vector<ExportSpec> exports;
  std::vector<ScreenshotSpec> screenshots;
  std::vector<FramesSpec> frames;
};

// Parses and validates a job. Relative input paths are resolved against base_dir (the job file's
// folder); so is outputs.directory (default: base_dir). Throws JobError.
Job parse_job(const std::string& text, const std::string& source_name,
              const std::filesystem::path& base_dir);
// Reads the file (JobError naming it when unreadable), then parse_job.
Job load_job(const std::filesystem::path& path);

// "file.json:3:14" for a byte offset into text (1-based line and column).
std::string line_column(const std::string& text, int offset);

// Parsers shared with the command-line flags; `field` names the value in errors.
std::vector<double> parse_number_list(const std::string& text, const std::string& field);
viewer::StandardView standard_view_from_string(const std::string& name, const std::string& field);
Timing timing_from_string(const std::string& name, const std::string& field);

}  // namespace kinetic::app::headless
