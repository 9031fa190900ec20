#include "app/trajectories/trajectory_features.hpp"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>

#include "app/document/studio_document.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/robot_at_trajectory_time.hpp"
#include "app/trajectories/trajectory_check.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "engine/core/error.hpp"
#include "engine/trajectory/blending.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "panels/trajectory_panel.hpp"

namespace kinetic::app {

namespace {

QString error_text(const std::exception& error) {
  return QString::fromUtf8(error.what());
}

// A re-timed or blended trajectory, its corners kept clear of obstacles, with its validation:
// made on a worker thread, so it has a status the moment it is added.
struct CheckedTiming {
  TrajectoryOrError timed;
  std::string corners_note;  // narrowed_corners_note(): "" when the blends were not narrowed
  std::vector<SceneChange> scene_changes;  // the source's, moved onto the new clock
  TrajectoryValidationReport report;
  QString validation_error;
};

// Validates `checked.timed` (when made) in `scene` / its scene changes.
void validate_checked(CheckedTiming& checked, const RobotModelPtr& robot,
                      const PlanningScene& scene, const JointVector& base) {
  if (!checked.timed.error.isEmpty()) return;
  try {
    checked.report =
        validate_in_scenes(robot, checked.timed.trajectory, scene, checked.scene_changes, base);
  } catch (const std::exception& error) {
    checked.validation_error = QString::fromUtf8(error.what());
  }
}

// "Re-timed 'a': 1.2 s (was 2 s)." plus what validation found and the narrowed-corners note.
QString checked_suffix(const CheckedTiming& checked) {
  QString text;
  if (!checked.corners_note.empty())
    text +=
        QStringLiteral(" ") + QCoreApplication::translate("TrajectoryFeatures", "Time-optimal %1.")
                                  .arg(QString::fromStdString(checked.corners_note));
  if (!checked.validation_error.isEmpty())
    text +=
        QStringLiteral(" ") + QCoreApplication::translate("TrajectoryFeatures", "Not validated: %1")
                                  .arg(checked.validation_error);
  else if (!checked.report.ok())
    text += QStringLiteral(" ") +
            QCoreApplication::translate("TrajectoryFeatures", "%1 violation(s): see below.")
                .arg(checked.report.violations.size());
  return text;
}

// The TCP the Trajectories panel's speed plot follows: the one the TCP trail traces (the chosen
// planning group's tip and TCP offset, where the goal gizmo sits; group "": the first).
panels::TcpPlotSource tcp_plot_source(const RobotModelPtr& robot, const std::string& group) {
  if (!robot) return {};
  try {
    const TcpFrame tcp = resolve_tcp_frame(*robot, group);
    return {robot, tcp.link, tcp.offset};
  } catch (const std::exception&) {  // no TCP: the plot says so
    return {robot, -1, Pose::Identity()};
  }
}

}  // namespace

TrajectoryFeatures::TrajectoryFeatures(QMainWindow& window, StudioDocument& document)
    : QObject(&window), document_(document) {
  setObjectName(QStringLiteral("TrajectoryFeatures"));
  trajectory_panel_ = new panels::TrajectoryPanel;
  trajectory_panel_->setMinimumWidth(360);
  playback_ = new PlaybackController(document_, this);
  recorder_ = new TrajectoryRecorder(document_, this);
  connect_document();
  connect_trajectory_panel();
  if (document_.robot()) trajectory_panel_->set_limits(limits_for(*document_.robot()));
  refresh_trajectories();
}

void TrajectoryFeatures::add_dock(QMainWindow& window) {
  trajectories_dock_ = new QDockWidget(tr("Trajectories"), &window);
  trajectories_dock_->setObjectName(QStringLiteral("TrajectoriesDock"));
  trajectories_dock_->setWidget(trajectory_panel_);
  window.addDockWidget(Qt::RightDockWidgetArea, trajectories_dock_);
}

void TrajectoryFeatures::connect_document() {
  // Other work opened: Replace last starts over.
  connect(&document_, &StudioDocument::workReplaced, this, [this] { last_plan_.reset(); });
  // A report holds for the scene and robot it checked against: any edit makes every one stale.
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    ++scene_revision_;
    if (document_.robot()) trajectory_panel_->set_limits(limits_for(*document_.robot()));
    refresh_marks();
    show_validation();
  });
  connect(&document_, &StudioDocument::sceneChanged, this, [this] {
    ++scene_revision_;
    refresh_marks();
    show_validation();
  });
  connect(&document_, &StudioDocument::trajectoriesChanged, this,
          &TrajectoryFeatures::refresh_trajectories);
}

void TrajectoryFeatures::set_group(const QString& engine_group) {
  trajectory_panel_->set_tcp_source(tcp_plot_source(document_.robot(), engine_group.toStdString()));
}

void TrajectoryFeatures::refresh_trajectories() {
  std::vector<panels::TrajectoryEntry> entries;
  std::vector<const Trajectory*> listed;
  for (const NamedTrajectory& t : document_.trajectories()) {
    entries.push_back({t.name, t.trajectory});
    listed.push_back(&t.trajectory);
  }
  validations_.keep_only(listed);
  const int before = trajectory_panel_->current();
  trajectory_panel_->set_trajectories(entries);
  refresh_marks();
  // The list changed under the same row (replaced by re-timing, undo): show the new contents.
  if (trajectory_panel_->current() == before) show_current(before);
}

void TrajectoryFeatures::show_current(int index) {
  const auto& list = document_.trajectories();
  const bool valid = index >= 0 && index < static_cast<int>(list.size());
  const Trajectory shown = valid ? list[index].trajectory : Trajectory();
  std::vector<SceneChange> changes = valid ? list[index].scene_changes : std::vector<SceneChange>();
  if (!(shown == playback_->trajectory()))
    playback_->set_trajectory(shown, std::move(changes));
  else
    playback_->set_scene_changes(std::move(changes));
  update_shown();
  show_validation();
  // Trajectories stay when another robot is loaded: say when this one does not fit it.
  if (valid && document_.robot()) {
    const std::vector<std::string> missing = joints_missing_from(*document_.robot(), shown);
    if (!missing.empty())
      trajectory_panel_->show_message(
          tr("'%1' moves joint '%2', which '%3' does not have: it was made for another robot (its "
             "ghost "
             "shows only the joints this robot has). Load the robot it was made for to play it.")
              .arg(list[index].name, QString::fromStdString(missing.front()),
                   QString::fromStdString(document_.robot()->name())),
          true);
  }
}

ValidationStatus TrajectoryFeatures::validation_status(int index) const {
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size())) return {};
  const NamedTrajectory& t = list[static_cast<std::size_t>(index)];
  return validations_.status(t.trajectory, t.scene_changes, scene_revision_);
}

void TrajectoryFeatures::show_validation() {
  const int index = trajectory_panel_->current();
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size())) {
    trajectory_panel_->show_not_validated(QString());  // nothing shown: no report either
    return;
  }
  // Only the shown trajectory's own report: its violation rows seek the motion on screen.
  const ValidationStatus status = validation_status(index);
  if (status.report)
    trajectory_panel_->set_validation(*status.report);
  else
    trajectory_panel_->show_not_validated(not_validated_text(status.state));
}

void TrajectoryFeatures::refresh_marks() {
  const auto& list = document_.trajectories();
  for (int i = 0; i < static_cast<int>(list.size()); ++i) {
    const ValidationStatus status = validation_status(i);
    trajectory_panel_->set_mark(i, validation_mark(status.state), validation_mark_tip(status));
  }
}

void TrajectoryFeatures::record_validation(const Trajectory& trajectory,
                                           const std::vector<SceneChange>& scene_changes,
                                           const TrajectoryValidationReport& report,
                                           quint64 revision) {
  validations_.record(trajectory, scene_changes, report, revision);
  refresh_marks();
  show_validation();
}

void TrajectoryFeatures::show_and_play(int index) {
  if (index < 0 || index >= static_cast<int>(document_.trajectories().size())) return;
  trajectory_panel_->set_current(index);
  trajectory_panel_->select({index});
  trajectory_panel_->trail_box()->setChecked(true);
  show_current(index);
  playback_->seek(playback_->trajectory().start_time());
  playback_->play();
}

void TrajectoryFeatures::play_from_start(int index) {
  trajectory_panel_->set_current(index);
  trajectory_panel_->select({index});
  show_current(index);
  playback_->seek(playback_->trajectory().start_time());
  playback_->play();
}

int TrajectoryFeatures::add_plan(const QString& name, const Trajectory& trajectory,
                                 const TrajectoryValidationReport& report, quint64 revision,
                                 bool replace_last) {
  validations_.record(trajectory, {}, report, revision);
  const int index = add_or_replace_plan(name, trajectory, replace_last);
  play_from_start(index);
  return index;
}

void TrajectoryFeatures::update_shown() {
  const bool trail = trajectory_panel_->trail_box()->isChecked();
  const bool strobe = trajectory_panel_->strobe_box()->isChecked();
  document_.set_shown_trajectory(trail || strobe ? trajectory_panel_->current() : -1, strobe);
}

TimingSettings TrajectoryFeatures::panel_timing() const {
  TimingSettings timing;
  timing.method = timing_method_from_key(trajectory_panel_->timing_key());
  timing.velocity_scaling = trajectory_panel_->velocity_scaling();
  timing.acceleration_scaling = trajectory_panel_->acceleration_scaling();
  return timing;
}

int TrajectoryFeatures::add_or_replace_plan(const QString& name, const Trajectory& trajectory,
                                            bool replace_last) {
  const auto& list = document_.trajectories();
  const bool replace =
      replace_last && last_plan_ && last_plan_->index >= 0 &&
      last_plan_->index < static_cast<int>(list.size()) &&
      list[static_cast<std::size_t>(last_plan_->index)].name == last_plan_->name &&
      list[static_cast<std::size_t>(last_plan_->index)].trajectory == last_plan_->trajectory;
  int index = -1;
  if (replace) {
    index = last_plan_->index;
    std::vector<NamedTrajectory> next = list;
    next[static_cast<std::size_t>(index)] = NamedTrajectory{name, trajectory, {}};
    document_.edit_trajectories(next, tr("Replace %1 with %2").arg(last_plan_->name, name));
  } else {
    index = document_.add_trajectory(name, trajectory);
  }
  last_plan_ = AddedPlan{index, name, trajectory};
  return index;
}

void TrajectoryFeatures::toggle_play() {
  if (playback_->trajectory().empty()) show_current(trajectory_panel_->current());
  playback_->toggle_play();
}

void TrajectoryFeatures::set_recording(bool on) {
  recorder_->set_rate(trajectory_panel_->record_rate());
  recorder_->set_timing(panel_timing());
  on ? recorder_->start() : recorder_->stop();
}

void TrajectoryFeatures::connect_trajectory_panel() {
  auto* panel = trajectory_panel_;
  // The re-time settings are kept in the document as the planner's are (PlanningFeatures).
  document_.set_retime_settings(panel->retime_settings());
  connect(panel, &panels::TrajectoryPanel::retimeSettingsEdited, this,
          [this] { document_.set_retime_settings(trajectory_panel_->retime_settings()); });
  connect(&document_, &StudioDocument::retimeSettingsLoaded, this, [this] {
    trajectory_panel_->set_retime_settings(*document_.retime_settings());
    document_.set_retime_settings(trajectory_panel_->retime_settings());
  });
  connect(panel, &panels::TrajectoryPanel::currentChanged, this, &TrajectoryFeatures::show_current);
  connect(panel, &panels::TrajectoryPanel::renameRequested, this,
          [this](int index, const QString& name) {
            auto list = document_.trajectories();
            if (index < 0 || index >= static_cast<int>(list.size())) return;
            list[index].name = document_.unique_trajectory_name(name);
            document_.edit_trajectories(list, tr("Rename trajectory"));
          });
  connect(panel, &panels::TrajectoryPanel::removeRequested, this,
          [this](const QList<int>& indices) {
            std::vector<NamedTrajectory> kept;
            const auto& list = document_.trajectories();
            for (int i = 0; i < static_cast<int>(list.size()); ++i)
              if (!indices.contains(i)) kept.push_back(list[i]);
            document_.edit_trajectories(
                kept, indices.size() > 1 ? tr("Delete trajectories") : tr("Delete trajectory"));
          });
  connect(panel, &panels::TrajectoryPanel::duplicateRequested, this, [this](int index) {
    const auto& list = document_.trajectories();
    if (index < 0 || index >= static_cast<int>(list.size())) return;
    const NamedTrajectory copy = list[index];
    trajectory_panel_->set_current(
        document_.add_trajectory(copy.name + tr(" copy"), copy.trajectory, copy.scene_changes));
  });
  connect(panel, &panels::TrajectoryPanel::moveRobotRequested, this,
          &TrajectoryFeatures::move_robot_to);
  connect(panel, &panels::TrajectoryPanel::playToggled, this, &TrajectoryFeatures::toggle_play);
  // Seeking does not stop the playback, but the end it then reaches is not the motion played.
  connect(panel, &panels::TrajectoryPanel::seekRequested, this, &TrajectoryFeatures::playheadMoved);
  connect(panel, &panels::TrajectoryPanel::seekRequested, playback_, &PlaybackController::seek);
  connect(panel, &panels::TrajectoryPanel::stepRequested, playback_, &PlaybackController::step);
  connect(panel, &panels::TrajectoryPanel::speedChanged, playback_, &PlaybackController::set_speed);
  connect(panel, &panels::TrajectoryPanel::loopChanged, playback_, &PlaybackController::set_loop);
  connect(panel, &panels::TrajectoryPanel::showOptionsChanged, this,
          &TrajectoryFeatures::update_shown);
  connect(playback_, &PlaybackController::timeChanged, panel, &panels::TrajectoryPanel::set_time);
  connect(playback_, &PlaybackController::playingChanged, panel,
          &panels::TrajectoryPanel::set_playing);
  connect(panel, &panels::TrajectoryPanel::retimeRequested, this, &TrajectoryFeatures::retime);
  connect(panel, &panels::TrajectoryPanel::blendRequested, this, &TrajectoryFeatures::blend);
  connect(panel, &panels::TrajectoryPanel::validateRequested, this, &TrajectoryFeatures::validate);
  connect(panel, &panels::TrajectoryPanel::exportRequested, this,
          [this](int index, const QString& path) { export_trajectory(index, path); });
  connect(panel, &panels::TrajectoryPanel::importRequested, this,
          [this](const QString& path) { import_trajectory(path); });
  connect(panel, &panels::TrajectoryPanel::recordToggled, this, &TrajectoryFeatures::set_recording);
  connect(panel, &panels::TrajectoryPanel::recordRateChanged, recorder_,
          &TrajectoryRecorder::set_rate);
  connect(recorder_, &TrajectoryRecorder::recordingChanged, panel,
          &panels::TrajectoryPanel::set_recording);
  connect(recorder_, &TrajectoryRecorder::finished, this, [this](int index, const QString& error) {
    if (index < 0) {
      trajectory_panel_->show_message(error, true);
      return;
    }
    trajectory_panel_->set_current(index);
    trajectory_panel_->show_message(tr("Recorded %1 samples into '%2'.")
                                        .arg(recorder_->samples().size())
                                        .arg(document_.trajectories()[index].name));
  });
}

bool TrajectoryFeatures::move_robot_to(int index, double t) {
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size()) || !document_.robot()) return false;
  const NamedTrajectory& source = list[static_cast<std::size_t>(index)];
  RobotAtTime at;
  try {
    at = robot_at_time(*document_.robot(), source.trajectory, source.scene_changes, t,
                       document_.joints());
  } catch (const std::exception& error) {
    trajectory_panel_->show_message(
        tr("Cannot move the robot to '%1': %2").arg(source.name, QString::fromUtf8(error.what())),
        true);
    return false;
  }
  const double from_start = at.time - source.trajectory.start_time();
  const QString what = tr("Robot to '%1' at %2 s").arg(source.name).arg(from_start, 0, 'f', 3);
  QUndoStack& stack = document_.undo_stack();
  stack.beginMacro(what);
  if (at.scene) document_.edit_scene(*at.scene, what);
  document_.edit_joints(at.joints, what);
  stack.endMacro();
  trajectory_panel_->show_message(
      tr("The robot is where '%1' has it at %2 s%3 (Edit → Undo takes it back).")
          .arg(source.name)
          .arg(from_start, 0, 'f', 3)
          .arg(at.scene ? tr(", with the scene of that moment") : QString()));
  return true;
}

void TrajectoryFeatures::retime(int index) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || index < 0 || index >= static_cast<int>(list.size())) return;
  const NamedTrajectory source = list[index];
  const TimingSettings timing = panel_timing();
  const bool replace = trajectory_panel_->replace_when_retiming();
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  trajectory_panel_->show_message(tr("Re-timing '%1'…").arg(source.name));
  retiming_.submit(
      [source, robot, timing, scene, base] {
        CheckedTiming checked;
        checked.timed = make_trajectory([&] {
          // Time-optimal corners leave the path: narrowed where they would collide, as a
          // plan's are. A pick and place runs through several scenes, which one callback
          // cannot follow: its corners are left to the validation below.
          TrajectoryCollisionCheck check;
          if (source.scene_changes.empty())
            check = trajectory_collision_check(robot, scene, source.trajectory.joint_names(), base);
          return time_path(trajectory_waypoints(source.trajectory),
                           limits_for(*robot, source.trajectory.joint_names()), timing,
                           check.in_collision, check.collision_names, &checked.corners_note);
        });
        if (checked.timed.error.isEmpty())
          checked.scene_changes = retime_scene_changes(source.scene_changes, source.trajectory,
                                                       checked.timed.trajectory);
        validate_checked(checked, robot, scene, base);
        return checked;
      },
      [this, source, index, timing, replace, revision](CheckedTiming checked) {
        const TrajectoryOrError& result = checked.timed;
        if (!result.error.isEmpty()) {
          trajectory_panel_->show_message(
              tr("Could not re-time '%1': %2").arg(source.name, result.error), true);
          emit taskFinished(QStringLiteral("retime"), result.error);
          return;
        }
        if (checked.validation_error.isEmpty())
          validations_.record(result.trajectory, checked.scene_changes, checked.report, revision);
        auto updated = document_.trajectories();
        const QString label = source.name + QStringLiteral(" · ") + timing_key(timing.method);
        if (replace && index < static_cast<int>(updated.size()) &&
            updated[index].name == source.name) {
          // The grasp and the release move with the waypoints they happen at.
          updated[index].scene_changes = retime_scene_changes(
              updated[index].scene_changes, updated[index].trajectory, result.trajectory);
          updated[index].trajectory = result.trajectory;
          document_.edit_trajectories(updated, tr("Re-time trajectory"));
        } else {
          trajectory_panel_->set_current(
              document_.add_trajectory(label, result.trajectory, checked.scene_changes));
        }
        show_validation();
        trajectory_panel_->show_message(
            tr("Re-timed '%1': %2 s (was %3 s).")
                    .arg(source.name)
                    .arg(result.trajectory.duration(), 0, 'f', 3)
                    .arg(source.trajectory.duration(), 0, 'f', 3) +
                checked_suffix(checked),
            !checked.validation_error.isEmpty() || !checked.report.ok());
        emit taskFinished(QStringLiteral("retime"), {});
      });
}

void TrajectoryFeatures::blend(const QList<int>& indices) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || indices.size() < 2) return;
  std::vector<Trajectory> parts;
  QStringList names;
  for (int i : indices) {
    if (i < 0 || i >= static_cast<int>(list.size())) return;
    parts.push_back(list[i].trajectory);
    names << list[i].name;
  }
  const TimingSettings timing = panel_timing();
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  blending_.submit(
      [parts, robot, timing, scene, base] {
        CheckedTiming checked;
        checked.timed = make_trajectory([&] {
          const TrajectoryLimits limits = limits_for(*robot, parts.front().joint_names());
          // One time-optimal motion through every part's waypoints, its corners (the
          // junctions too) narrowed where they would collide, as a plan's are.
          const TrajectoryCollisionCheck check =
              trajectory_collision_check(robot, scene, parts.front().joint_names(), base);
          TimingSettings optimal = timing;
          optimal.method = TimingMethod::TimeOptimal;
          return time_path(join_trajectories(parts, limits, 1e-3), limits, optimal,
                           check.in_collision, check.collision_names, &checked.corners_note);
        });
        validate_checked(checked, robot, scene, base);
        return checked;
      },
      [this, names, revision](CheckedTiming checked) {
        const TrajectoryOrError& result = checked.timed;
        if (!result.error.isEmpty()) {
          trajectory_panel_->show_message(tr("Could not blend: %1").arg(result.error), true);
          emit taskFinished(QStringLiteral("blend"), result.error);
          return;
        }
        if (checked.validation_error.isEmpty())
          validations_.record(result.trajectory, {}, checked.report, revision);
        const int index = document_.add_trajectory(
            tr("blend of %1").arg(names.join(QStringLiteral(" + "))), result.trajectory);
        trajectory_panel_->set_current(index);
        show_validation();
        trajectory_panel_->show_message(
            tr("Blended %1 trajectories: %2 s.")
                    .arg(names.size())
                    .arg(result.trajectory.duration(), 0, 'f', 3) +
                checked_suffix(checked),
            !checked.validation_error.isEmpty() || !checked.report.ok());
        emit taskFinished(QStringLiteral("blend"), {});
      });
}

void TrajectoryFeatures::validate(int index) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || index < 0 || index >= static_cast<int>(list.size())) return;
  const NamedTrajectory source = list[index];
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  struct Result {
    TrajectoryValidationReport report;
    QString error;
  };
  trajectory_panel_->show_message(tr("Validating '%1'…").arg(source.name));
  validating_.submit(
      [source, robot, scene, base] {
        Result result;
        try {
          // A pick and place: each stretch in the scene in force then (the part held).
          result.report =
              validate_in_scenes(robot, source.trajectory, scene, source.scene_changes, base);
        } catch (const std::exception& error) {
          result.error = error_text(error);
        }
        return result;
      },
      [this, source, revision](Result result) {
        if (!result.error.isEmpty()) {
          trajectory_panel_->show_message(tr("Could not validate: %1").arg(result.error), true);
        } else {
          // Shown only if `source` is the trajectory on screen (record_validation decides).
          record_validation(source.trajectory, source.scene_changes, result.report, revision);
          trajectory_panel_->show_message(result.report.ok()
                                              ? tr("'%1' is valid.").arg(source.name)
                                              : tr("'%1': %2 violation(s).")
                                                    .arg(source.name)
                                                    .arg(result.report.violations.size()),
                                          !result.report.ok());
        }
        emit taskFinished(QStringLiteral("validate"), result.error);
      });
}

QString TrajectoryFeatures::export_trajectory(int index, const QString& path) {
  const auto& list = document_.trajectories();
  QString error;
  if (index < 0 || index >= static_cast<int>(list.size())) {
    error = tr("Nothing to export: select a trajectory first.");
  } else {
    try {
      save_trajectory(list[index].trajectory, std::filesystem::path(path.toStdString()));
    } catch (const std::exception& e) {
      error = error_text(e);
    }
  }
  trajectory_panel_->show_message(error.isEmpty()
                                      ? tr("Exported '%1' to %2.").arg(list[index].name, path)
                                      : tr("Export failed: %1").arg(error),
                                  !error.isEmpty());
  return error;
}

QString TrajectoryFeatures::import_trajectory(const QString& path) {
  QString error;
  try {
    const Trajectory trajectory = load_trajectory(std::filesystem::path(path.toStdString()));
    const RobotModelPtr robot = document_.robot();
    if (!robot)
      throw Error(ErrorCode::InvalidValue, "no robot is loaded",
                  "load the robot the trajectory is for");
    limits_for(*robot, trajectory.joint_names());  // throws naming a joint this robot lacks
    const int index = document_.add_trajectory(QFileInfo(path).completeBaseName(), trajectory);
    trajectory_panel_->set_current(index);
    trajectory_panel_->show_message(
        tr("Imported %1 (%2 s).").arg(path).arg(trajectory.duration(), 0, 'f', 3));
  } catch (const std::exception& e) {
    error = error_text(e);
    trajectory_panel_->show_message(tr("Import of %1 failed: %2").arg(path, error), true);
  }
  emit taskFinished(QStringLiteral("import"), error);
  return error;
}

}  // namespace kinetic::app
