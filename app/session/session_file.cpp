#include "app/session/session_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "app/document/file_kind.hpp"
#include "app/document/robot_reference.hpp"
#include "app/document/studio_document.hpp"
#include "app/session/save_leftovers.hpp"
#include "app/session/session_settings.hpp"
#include "app/session/session_stored_states.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/json_input.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/saved_rotation.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/scene/scene_meshes.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic::app {

namespace {

using nlohmann::json;

json vector_json(const Eigen::VectorXd& v) {
  json out = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

json named_values_json(const RobotModel& robot, const JointVector& q) {
  return {{"names", robot.variable_names()}, {"values", vector_json(q)}};
}

json pose_json(const Pose& pose) {
  const std::array<double, 4> q = saved_quaternion(pose.linear());
  return {{"position", vector_json(pose.translation())}, {"orientation", {q[0], q[1], q[2], q[3]}}};
}

json scene_changes_json(const std::vector<SceneChange>& changes) {
  json out = json::array();
  for (const SceneChange& change : changes)
    out.push_back({{"time", change.time}, {"scene", json::parse(scene_to_json(change.scene))}});
  return out;
}

// A validation failure: the message names the file and the JSON field.
struct SessionError {
  QString message;
};

class Reader {
 public:
  explicit Reader(QString source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& where, const QString& problem) const {
    throw SessionError{QStringLiteral("session file %1: %2: %3")
                           .arg(source_, QString::fromStdString(where), problem)};
  }
  const json* optional_field(const json& object, const char* name, const std::string& where) const {
    if (!object.is_object()) fail(where, QStringLiteral("expected an object"));
    const auto it = object.find(name);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }
  // Keys this build does not know are ignored with a warning naming them (a hand edit's typo
  // would otherwise drop what it meant to set); the session still opens.
  void note_unknown_keys(const json& object, const std::string& where,
                         const std::vector<std::string>& known, QStringList& warnings) const {
    if (!object.is_object()) return;
    for (const auto& item : object.items())
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        const std::string hint = suggestion_hint(item.key(), known, 1);
        warnings << QStringLiteral("%1: unknown key \"%2\" was ignored%3.")
                        .arg(QString::fromStdString(where.empty() ? "(top level)" : where),
                             QString::fromStdString(printable(item.key())),
                             QString::fromStdString(hint.empty() ? std::string()
                                                                 : " (" + hint + ")"));
      }
  }
  const json& field(const json& object, const char* name, const std::string& where) const {
    const json* value = optional_field(object, name, where);
    if (!value) fail(where.empty() ? name : where + "." + name, QStringLiteral("missing"));
    return *value;
  }
  static std::string path(const std::string& where, const char* name) {
    return where.empty() ? std::string(name) : where + "." + name;
  }
  QString string(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, QStringLiteral("expected a string"));
    return QString::fromStdString(value.get<std::string>());
  }
  double number(const json& value, const std::string& where) const {
    if (!value.is_number()) fail(where, QStringLiteral("expected a number"));
    const double x = value.get<double>();
    if (!std::isfinite(x)) fail(where, QStringLiteral("not a finite number"));
    return x;
  }
  Eigen::VectorXd numbers(const json& value, const std::string& where, int expected = -1) const {
    if (!value.is_array()) fail(where, QStringLiteral("expected an array of numbers"));
    if (expected >= 0 && static_cast<int>(value.size()) != expected)
      fail(where, QStringLiteral("expected %1 numbers, found %2").arg(expected).arg(value.size()));
    Eigen::VectorXd out(static_cast<Eigen::Index>(value.size()));
    for (std::size_t i = 0; i < value.size(); ++i)
      out[static_cast<Eigen::Index>(i)] = number(value[i], where + "[" + std::to_string(i) + "]");
    return out;
  }
  QStringList strings(const json& value, const std::string& where) const {
    if (!value.is_array()) fail(where, QStringLiteral("expected an array of strings"));
    QStringList out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out << string(value[i], where + "[" + std::to_string(i) + "]");
    return out;
  }
  Pose pose(const json& value, const std::string& where) const {
    const Eigen::VectorXd p = numbers(field(value, "position", where), path(where, "position"), 3);
    const Eigen::VectorXd o =
        numbers(field(value, "orientation", where), path(where, "orientation"), 4);
    if (o.norm() < 1e-9)
      fail(path(where, "orientation"), QStringLiteral("a zero quaternion is not a rotation"));
    Pose out = Pose::Identity();
    out.linear() = rotation_from_saved_quaternion(o[0], o[1], o[2], o[3]);
    out.translation() = p;
    return out;
  }

 private:
  QString source_;
};

// A scene read from the session (the scene file's JSON), its attached objects checked against the
// robot.
PlanningScene read_scene(const Reader& reader, const json& value, const std::string& where,
                         const RobotModel& robot, const std::string& source,
                         const QString& base_dir) {
  PlanningScene scene;
  try {
    scene = scene_from_json(value.dump(), source + " (" + where + ")", base_dir.toStdString());
  } catch (const Error& error) {
    reader.fail(where, QString::fromStdString(error.what()));
  }
  for (std::size_t i = 0; i < scene.attached_objects().size(); ++i) {
    const AttachedObject& object = scene.attached_objects()[i];
    if (robot.find_link(object.link) < 0)
      reader.fail(
          where + ".attached[" + std::to_string(i) + "].link",
          QStringLiteral("robot '%1' has no link '%2'")
              .arg(QString::fromStdString(robot.name()), QString::fromStdString(object.link)));
  }
  return scene;
}

// A trajectory's optional scene changes: [{ "time", "scene" }], in time order.
std::vector<SceneChange> read_scene_changes(const Reader& reader, const json& list,
                                            const std::string& where, const RobotModel& robot,
                                            const std::string& source, const QString& base_dir,
                                            QStringList& warnings) {
  if (!list.is_array()) reader.fail(where, QStringLiteral("expected an array"));
  std::vector<SceneChange> changes;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    reader.note_unknown_keys(list[i], at, {"time", "scene"}, warnings);
    const double time = reader.number(reader.field(list[i], "time", at), at + ".time");
    if (!changes.empty() && time < changes.back().time)
      reader.fail(
          at + ".time",
          QStringLiteral("%1 s comes before the change above it (%2 s); changes are in time order")
              .arg(time)
              .arg(changes.back().time));
    changes.push_back({time, read_scene(reader, reader.field(list[i], "scene", at), at + ".scene",
                                        robot, source, base_dir)});
  }
  return changes;
}

// Joint values stored by name, matched against `robot`; names the robot lacks become warnings,
// joints the file lacks keep `fallback`.
JointVector match_joints(const Reader& reader, const json& object, const std::string& where,
                         const RobotModel& robot, const JointVector& fallback,
                         QStringList& warnings) {
  reader.note_unknown_keys(object, where, {"names", "values"}, warnings);
  const QStringList names =
      reader.strings(reader.field(object, "names", where), Reader::path(where, "names"));
  const Eigen::VectorXd values =
      reader.numbers(reader.field(object, "values", where), Reader::path(where, "values"),
                     static_cast<int>(names.size()));
  JointVector q = fallback;
  std::vector<bool> seen(static_cast<std::size_t>(robot.dof()), false);
  for (int i = 0; i < names.size(); ++i) {
    const int variable = robot.find_joint(names[i].toStdString()) >= 0
                             ? robot.variable_index(names[i].toStdString())
                             : -1;
    if (variable < 0) {
      warnings << QStringLiteral(
                      "%1: joint '%2' is not a joint of robot '%3'; its value was ignored.")
                      .arg(QString::fromStdString(where), names[i],
                           QString::fromStdString(robot.name()));
      continue;
    }
    // A name given twice: one value would be dropped without a word (the first, to the second).
    if (seen[static_cast<std::size_t>(variable)])
      warnings << QStringLiteral(
                      "%1: joint '%2' is given more than once; its last value (%3) was used.")
                      .arg(QString::fromStdString(where), names[i])
                      .arg(values[i]);
    q[variable] = values[i];
    seen[static_cast<std::size_t>(variable)] = true;
  }
  for (int v = 0; v < robot.dof(); ++v)
    if (!seen[static_cast<std::size_t>(v)])
      warnings << QStringLiteral("%1: no value for joint '%2'; it keeps %3.")
                      .arg(QString::fromStdString(where),
                           QString::fromStdString(robot.variable_joint(v).name))
                      .arg(q[v]);
  return q;
}

QString resolved(const QString& path, const QString& base_dir) {
  if (path.isEmpty() || QFileInfo(path).isAbsolute() || base_dir.isEmpty()) return path;
  return QDir(base_dir).absoluteFilePath(path);
}

// Everything a session file holds, validated; the document is changed only once all of it is.
struct SessionContents {
  QString reference, srdf, config;  // the robot, its files resolved against the session's folder
  QStringList package_paths;
  RobotModelPtr robot;
  JointVector joints;
  PlanningScene scene;
  GoalState goal;
  std::vector<NamedTrajectory> trajectories;
  std::vector<panels::StoredState> stored_states;
  std::optional<panels::PlannerSettings> settings;
  std::optional<panels::RetimeSettings> retime_settings;
  std::optional<panels::TaskSettings> task_settings;  // none: the Task panel's defaults
};

// Step 1 of apply_session_json: reads and validates a session file, one member function per
// top-level field, in the order they are read; nothing here touches the document. Warnings and
// the camera go to `result`; a problem throws SessionError (or, from a reader below, another
// std::exception).
class SessionReader {
 public:
  SessionReader(const QString& source, const QString& base_dir, SessionLoadResult& result)
      : reader_(source),
        source_(source),
        source_name_(source.toStdString()),
        base_dir_(base_dir),
        result_(result) {}

  SessionContents read(const std::string& text) {
    const json doc = parse(text);
    check_header(doc);
    SessionContents c;
    read_robot(doc, c);
    read_joints(doc, c);
    read_scene_field(doc, c);
    read_goal(doc, c);
    read_trajectories(doc, c);
    // A state that does not fit the robot is dropped with a warning, not the session.
    if (const json* states_json = reader_.optional_field(doc, "stored_states", ""))
      c.stored_states = stored_states_from_json(*states_json, *c.robot, result_.warnings);
    read_camera(doc);
    read_settings(doc, c);
    return c;
  }

 private:
  // Checked before json::parse: syntax, numbers such as 1e400 (which must not escape: an
  // autosave holding one would abort every start-up), and nesting that would overflow the
  // stack when the scene is written out for scene_from_json.
  json parse(const std::string& text) {
    const JsonTextCheck check = check_json_text(text);
    if (!check.malformed.empty())
      throw SessionError{
          QStringLiteral("session file %1 is not valid JSON (%2). It may be truncated or "
                         "not a session file; nothing was loaded.")
              .arg(source_, QString::fromStdString(check.malformed))};
    json doc = json::parse(text);
    if (!doc.is_object()) reader_.fail("(top level)", QStringLiteral("expected a JSON object"));
    if (check.duplicate)
      result_.warnings << QStringLiteral("%1: key \"%2\" is given twice; the last one was used.")
                              .arg(QString::fromStdString(check.duplicate->path),
                                   QString::fromStdString(check.duplicate->key));
    return doc;
  }

  // "format", the top-level keys, then "version".
  void check_header(const json& doc) {
    const QString format = reader_.string(reader_.field(doc, "format", ""), "format");
    if (format != QStringLiteral("kinetic-session")) {
      // A job or a scene given as a session is said as what it is, with where it goes instead.
      const std::string other_kind =
          wrong_kind_message(kind_of_format(format.toStdString()), FileKind::Session, source_name_);
      reader_.fail("format",
                   other_kind.empty()
                       ? QStringLiteral("expected \"kinetic-session\" (is this a session file?)")
                       : QString::fromStdString(other_kind));
    }
    reader_.note_unknown_keys(doc, "",
                              {"format", "version", "robot", "joints", "scene", "goal",
                               "trajectories", "stored_states", "settings", "camera"},
                              result_.warnings);
    const double version = reader_.number(reader_.field(doc, "version", ""), "version");
    if (version != kSessionFormatVersion)
      reader_.fail("version",
                   QStringLiteral("version %1 is not supported (this build reads version %2)")
                       .arg(version, 0, 'g', QLocale::FloatingPointShortest)
                       .arg(kSessionFormatVersion));
  }

  void read_robot(const json& doc, SessionContents& c) {
    const json& robot_json = reader_.field(doc, "robot", "");
    reader_.note_unknown_keys(robot_json, "robot", {"reference", "srdf", "config", "package_paths"},
                              result_.warnings);
    const bool is_file = read_robot_reference(robot_json, c.reference);
    read_robot_files(robot_json, is_file, c);
    LoadOptions options;
    for (const QString& path : c.package_paths) options.package_paths.push_back(path.toStdString());
    try {
      c.robot = is_file ? load_robot_file(c.reference.toStdString(), c.srdf.toStdString(),
                                          c.config.toStdString(), options)
                        : load_builtin_robot(c.reference.toStdString(), options);
    } catch (const Error& error) {
      reader_.fail("robot.reference", QString::fromStdString(error.what()));
    }
    // What the loader let pass (a mesh it could not find): the session opens, and says so.
    for (const std::string& warning : c.robot->load_warnings())
      result_.warnings << QStringLiteral("robot: %1").arg(QString::fromStdString(warning));
  }

  // robot.reference into `reference`; whether it names a file (else a built-in robot).
  bool read_robot_reference(const json& robot_json, QString& reference) const {
    reference = reader_.string(reader_.field(robot_json, "reference", "robot"), "robot.reference");
    // A built-in name stays a name; a relative file path is relative to the session file (and
    // so is the file a bare word may name: the current directory has nothing to do with it).
    const bool is_file = is_robot_file_reference(reference, base_dir_);
    if (is_file) reference = resolved(reference, base_dir_);
    if (reference.isEmpty())
      reader_.fail("robot.reference",
                   QStringLiteral("empty: name a built-in robot or a URDF file"));
    // No path or robot name is longer (PATH_MAX); a longer one is not quoted back whole (a 10 MB
    // one kept the studio busy for half a minute repeating it).
    if (reference.size() > 4096)
      reader_.fail("robot.reference",
                   QStringLiteral("%1 characters long, beginning \"%2…\"; no robot file or name is")
                       .arg(reference.size())
                       .arg(reference.left(40)));
    return is_file;
  }

  // robot.srdf, robot.config and robot.package_paths; then every file named must exist.
  void read_robot_files(const json& robot_json, bool is_file, SessionContents& c) const {
    const json* srdf_json = reader_.optional_field(robot_json, "srdf", "robot");
    const json* config_json = reader_.optional_field(robot_json, "config", "robot");
    const json* paths_json = reader_.optional_field(robot_json, "package_paths", "robot");
    c.srdf = srdf_json ? resolved(reader_.string(*srdf_json, "robot.srdf"), base_dir_) : QString();
    c.config =
        config_json ? resolved(reader_.string(*config_json, "robot.config"), base_dir_) : QString();
    if (paths_json)
      for (const QString& path : reader_.strings(*paths_json, "robot.package_paths"))
        c.package_paths << resolved(path, base_dir_);
    if (is_file && !QFileInfo(c.reference).isFile())
      reader_.fail("robot.reference",
                   QStringLiteral("the robot file %1 does not exist").arg(c.reference));
    for (const auto& [name, path] :
         {std::pair{"robot.srdf", c.srdf}, std::pair{"robot.config", c.config}})
      if (!path.isEmpty() && !QFileInfo(path).isFile())
        reader_.fail(name, QStringLiteral("the file %1 does not exist").arg(path));
  }

  void read_joints(const json& doc, SessionContents& c) {
    const RobotModel& robot = *c.robot;
    c.joints = robot.zero_configuration();
    if (const json* joints_json = reader_.optional_field(doc, "joints", ""))
      c.joints = match_joints(reader_, *joints_json, "joints", robot, c.joints, result_.warnings);
    if (!robot.within_limits(c.joints, 1e-6)) {
      result_.warnings << QStringLiteral(
          "joints: values outside the robot's limits were clamped into them.");
      c.joints = robot.clamp_to_limits(c.joints);
    }
  }

  void read_scene_field(const json& doc, SessionContents& c) {
    const json* scene_json = reader_.optional_field(doc, "scene", "");
    if (!scene_json) return;
    c.scene = read_scene(reader_, *scene_json, "scene", *c.robot, source_name_, base_dir_);
    // A mesh file that is gone or unreadable does not refuse the whole session (the object
    // keeps its path, so putting the file back heals it), but the user must know: planning
    // cannot check that object and fails until then.
    for (const SceneMeshProblem& problem : unreadable_scene_meshes(c.scene))
      result_.warnings
          << QStringLiteral(
                 "scene: object '%1': %2 It is shown as a placeholder box and planning fails "
                 "until the mesh is back at that path or the object is deleted.")
                 .arg(QString::fromStdString(problem.object),
                      QString::fromStdString(problem.message));
  }

  void read_goal(const json& doc, SessionContents& c) {
    const json* goal_json = reader_.optional_field(doc, "goal", "");
    if (!goal_json) return;
    reader_.note_unknown_keys(*goal_json, "goal", {"joints", "tcp_pose", "end_effector"},
                              result_.warnings);
    if (const json* goal_joints = reader_.optional_field(*goal_json, "joints", "goal")) {
      QStringList goal_warnings;
      c.goal.joints =
          match_joints(reader_, *goal_joints, "goal.joints", *c.robot, c.joints, goal_warnings);
      result_.warnings << goal_warnings;
    }
    if (const json* tcp = reader_.optional_field(*goal_json, "tcp_pose", "goal"))
      c.goal.tcp_pose = reader_.pose(*tcp, "goal.tcp_pose");
    if (const json* effector = reader_.optional_field(*goal_json, "end_effector", "goal"))
      c.goal.end_effector = reader_.string(*effector, "goal.end_effector").toStdString();
  }

  void read_trajectories(const json& doc, SessionContents& c) {
    const json* list = reader_.optional_field(doc, "trajectories", "");
    if (!list) return;
    if (!list->is_array()) reader_.fail("trajectories", QStringLiteral("expected an array"));
    for (std::size_t i = 0; i < list->size(); ++i)
      c.trajectories.push_back(
          read_trajectory((*list)[i], "trajectories[" + std::to_string(i) + "]", *c.robot));
  }

  NamedTrajectory read_trajectory(const json& entry, const std::string& where,
                                  const RobotModel& robot) {
    reader_.note_unknown_keys(entry, where, {"name", "trajectory", "scene_changes"},
                              result_.warnings);
    NamedTrajectory named;
    named.name = reader_.string(reader_.field(entry, "name", where), where + ".name");
    try {
      named.trajectory = trajectory_from_json(reader_.field(entry, "trajectory", where).dump(),
                                              source_name_ + " " + where);
    } catch (const Error& error) {
      reader_.fail(where + ".trajectory", QString::fromStdString(error.what()));
    }
    if (const json* changes = reader_.optional_field(entry, "scene_changes", where))
      named.scene_changes = read_scene_changes(reader_, *changes, where + ".scene_changes", robot,
                                               source_name_, base_dir_, result_.warnings);
    return named;
  }

  void read_camera(const json& doc) {
    const json* camera = reader_.optional_field(doc, "camera", "");
    if (!camera) return;
    reader_.note_unknown_keys(*camera, "camera", {"target", "distance", "azimuth", "elevation"},
                              result_.warnings);
    SessionCamera c;
    c.target = reader_.numbers(reader_.field(*camera, "target", "camera"), "camera.target", 3);
    c.distance = reader_.number(reader_.field(*camera, "distance", "camera"), "camera.distance");
    c.azimuth = reader_.number(reader_.field(*camera, "azimuth", "camera"), "camera.azimuth");
    c.elevation = reader_.number(reader_.field(*camera, "elevation", "camera"), "camera.elevation");
    // A view that cannot be shown is dropped, not the session: the viewport keeps its camera.
    const bool usable = c.distance > 0 && c.distance < 1e6 && std::abs(c.azimuth) < 1e3 &&
                        std::abs(c.elevation) < 1e3 && c.target.norm() < 1e6;
    if (usable)
      result_.camera = c;
    else
      result_.warnings
          << QStringLiteral(
                 "camera: the saved view (distance %1 m) cannot be shown; the viewport keeps its "
                 "own camera.")
                 .arg(c.distance);
  }

  // Settings that cannot be used are dropped, not the session: the panel keeps its own.
  void read_settings(const json& doc, SessionContents& c) {
    const json* settings_json = reader_.optional_field(doc, "settings", "");
    if (!settings_json) return;
    try {
      c.settings = planner_settings_from_json(*settings_json, result_.warnings);
    } catch (const SessionSettingsError& error) {
      result_.warnings << QStringLiteral(
                              "%1; the planner and timing settings were left as they were.")
                              .arg(QString::fromStdString(error.what()));
    }
    // Read apart from the planner's: a bad field in one drops that one only.
    const json* retiming = settings_json->is_object()
                               ? reader_.optional_field(*settings_json, "retiming", "settings")
                               : nullptr;
    if (retiming) {
      try {
        c.retime_settings = retime_settings_from_json(*retiming, result_.warnings);
      } catch (const SessionSettingsError& error) {
        result_.warnings
            << QStringLiteral(
                   "%1; the Trajectories panel's re-time settings were left as they were.")
                   .arg(QString::fromStdString(error.what()));
      }
    }
    const json* task = settings_json->is_object()
                           ? reader_.optional_field(*settings_json, "task", "settings")
                           : nullptr;
    if (task) {
      try {
        c.task_settings = task_settings_from_json(*task, result_.warnings);
      } catch (const SessionSettingsError& error) {
        result_.warnings << QStringLiteral("%1; the Task panel's setup was reset to its defaults.")
                                .arg(QString::fromStdString(error.what()));
      }
    }
  }

  const Reader reader_;
  const QString source_;
  const std::string source_name_;
  const QString base_dir_;
  SessionLoadResult& result_;
};

// Step 2 of apply_session_json. load_robot re-reads the files validated in step 1 (the undo
// history is cleared below: a session of the same robot must not undo into the one open before).
void apply_session(StudioDocument& document, const SessionContents& c, const QString& source) {
  const QString load_error = document.load_robot(c.reference, c.srdf, c.config, c.package_paths);
  if (!load_error.isEmpty())
    throw SessionError{QStringLiteral("session file %1: robot: %2").arg(source, load_error)};
  document.set_joints(c.joints);
  document.set_scene(c.scene);
  document.set_selected_object({});
  document.set_goal(c.goal);
  document.set_shown_trajectory(-1);
  document.set_trajectories(c.trajectories);
  document.set_stored_states(c.stored_states);
  if (c.settings) document.load_planner_settings(*c.settings);
  if (c.retime_settings) document.load_retime_settings(*c.retime_settings);
  document.load_task_settings(
      c.task_settings);  // after the scene: the panel looks its object up there
  document.undo_stack().clear();
  document.start_new_work();  // a plan still running was asked for by the work open before
}

}  // namespace

std::string session_to_json(const StudioDocument& document,
                            const std::optional<SessionCamera>& camera) {
  json doc;
  doc["format"] = "kinetic-session";
  doc["version"] = kSessionFormatVersion;
  const auto absolute = [](const QString& path) {
    return path.isEmpty() ? std::string() : QFileInfo(path).absoluteFilePath().toStdString();
  };
  const QString reference = document.robot_reference();
  json robot{
      {"reference", document.robot_is_file() ? absolute(reference) : reference.toStdString()},
      {"srdf", absolute(document.robot_srdf())},
      {"config", absolute(document.robot_config())},
      {"package_paths", json::array()}};
  for (const QString& path : document.package_paths())
    robot["package_paths"].push_back(absolute(path));
  doc["robot"] = robot;
  if (document.robot()) doc["joints"] = named_values_json(*document.robot(), document.joints());
  doc["scene"] = json::parse(scene_to_json(document.scene()));
  json goal = json::object();
  if (document.goal().joints && document.robot() &&
      document.goal().joints->size() == document.robot()->dof())
    goal["joints"] = named_values_json(*document.robot(), *document.goal().joints);
  if (document.goal().tcp_pose) goal["tcp_pose"] = pose_json(*document.goal().tcp_pose);
  if (document.goal().tcp_pose && !document.goal().end_effector.empty())
    goal["end_effector"] = document.goal().end_effector;
  doc["goal"] = goal;
  json trajectories = json::array();
  for (const NamedTrajectory& named : document.trajectories()) {
    json entry{{"name", named.name.toStdString()},
               {"trajectory", json::parse(trajectory_to_json(named.trajectory))}};
    if (!named.scene_changes.empty())
      entry["scene_changes"] = scene_changes_json(named.scene_changes);
    trajectories.push_back(std::move(entry));
  }
  doc["trajectories"] = trajectories;
  // Left out when there are none: a session without stored states reads as one written before them.
  if (!document.stored_states().empty())
    doc["stored_states"] = stored_states_json(document.stored_states());
  json settings = document.planner_settings() ? planner_settings_json(*document.planner_settings())
                                              : json::object();
  if (document.retime_settings())
    settings["retiming"] = retime_settings_json(*document.retime_settings());
  if (document.task_settings()) settings["task"] = task_settings_json(*document.task_settings());
  if (!settings.empty()) doc["settings"] = settings;
  if (camera)
    doc["camera"] = {{"target", vector_json(camera->target)},
                     {"distance", camera->distance},
                     {"azimuth", camera->azimuth},
                     {"elevation", camera->elevation}};
  return doc.dump(1) + "\n";
}

QString save_session(const StudioDocument& document, const QString& path,
                     const std::optional<SessionCamera>& camera) {
  try {
    write_file_atomically(path.toStdString(), session_to_json(document, camera));
    remove_save_leftovers(path);  // after the save: a failing one removes nothing
    return {};
  } catch (const std::exception& error) {
    return QStringLiteral("Could not save the session to %1: %2")
        .arg(path, QString::fromUtf8(error.what()));
  }
}

SessionLoadResult apply_session_json(StudioDocument& document, const std::string& text,
                                     const QString& source, const QString& base_dir) {
  SessionLoadResult result;
  try {
    // 1. Validate everything; nothing in SessionReader touches the document.
    const SessionContents contents = SessionReader(source, base_dir, result).read(text);
    // 2. Apply.
    apply_session(document, contents, source);
  } catch (const SessionError& error) {
    result.error = error.message;
    result.warnings.clear();
    result.camera.reset();
  } catch (const std::exception& error) {
    // Anything else a reader below throws: still an error for the user, never an abort. Only the
    // validation step can throw, so the document is unchanged.
    result.error = QStringLiteral("session file %1 could not be read: %2; nothing was loaded.")
                       .arg(source, QString::fromStdString(plain_json_message(error.what())));
    result.warnings.clear();
    result.camera.reset();
  }
  // Warnings quote names from the file (a joint's): control characters are escaped, as keys are,
  // so a NUL or an escape sequence cannot garble them. (The error quotes the engine's messages,
  // which Error escapes, and may hold a line break of its own.)
  for (QString& warning : result.warnings)
    warning = QString::fromStdString(printable(warning.toStdString()));
  return result;
}

SessionLoadResult load_session(StudioDocument& document, const QString& path) {
  std::string text;
  try {
    text = read_input_file(path.toStdString(), kSessionInput);
  } catch (const Error& error) {
    // Said under the caller's "Could not open the session": the file and why, without saying that
    // again.
    SessionLoadResult result;
    const QFileInfo file(path);
    result.error =
        !file.exists() ? QStringLiteral("session file %1 does not exist").arg(path)
        : file.isDir()
            ? QStringLiteral("%1 is a folder, not a session file").arg(path)
            : QString::fromStdString(error.message() +
                                     (error.hint().empty() ? "" : " (" + error.hint() + ")"));
    return result;
  }
  return apply_session_json(document, text, path, QFileInfo(path).absolutePath());
}

}  // namespace kinetic::app
