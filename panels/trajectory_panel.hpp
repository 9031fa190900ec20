#pragma once
// Trajectory panel: the named trajectories (rename inline, delete, duplicate, compare two side by
// side), playback controls (timeline scrubbing, play/pause, previous/next waypoint, speed, loop),
// what the viewport shows (TCP trail, stroboscope), plots, re-timing, blending, the validation
// report (click a violation to go to its time) and each item's validation mark, recording, and
// JSON / CSV export and import (file dialogs and drag-and-drop). It shows what it is given and
// reports the user's requests.
#include <QList>
#include <QString>
#include <QWidget>
#include <vector>

#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"
#include "engine/trajectory/validation.hpp"
#include "panels/result_label.hpp"
#include "panels/retime_settings.hpp"
#include "panels/tcp_speed.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QTabWidget;
class QVBoxLayout;

namespace kinetic::panels {

class TrajectoryPlot;

struct TrajectoryEntry {
  QString name;
  Trajectory trajectory;
};

// Joint-space length of the motion (sum of the position steps between samples).
double trajectory_length(const Trajectory& trajectory);

class TrajectoryPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kTimelineSteps = 10000;

  explicit TrajectoryPanel(QWidget* parent = nullptr);

  void set_trajectories(const std::vector<TrajectoryEntry>& entries);
  // Item `row`'s validation mark ("✓", "⚠" or "" for none, an icon beside the name) and its
  // tooltip line. set_trajectories() clears the marks. Only that item changes (a scene edit makes
  // every mark stale): the list is not rebuilt, so a rename in progress goes on.
  void set_mark(int row, const QString& mark, const QString& tip);
  void set_limits(const TrajectoryLimits& limits);   // for the plots
  void set_tcp_source(const TcpPlotSource& source);  // for the TCP speed plot
  int current() const;
  void set_current(int index);  // emits currentChanged when it changes
  QList<int> selected() const;  // sorted rows
  void select(const QList<int>& rows);

  void set_time(double t);  // playback time: timeline, label, plot cursor
  void set_playing(bool playing);
  void set_recording(bool recording);
  void set_validation(const TrajectoryValidationReport& report);
  // No report to show for the current trajectory: `text` says why (nothing to click; empty: an
  // empty list).
  void show_not_validated(const QString& text);
  void show_message(const QString& text, bool error = false);

  double speed() const;
  bool loop() const;
  QString timing_key() const;
  double velocity_scaling() const;
  double acceleration_scaling() const;
  bool replace_when_retiming() const;
  double record_rate() const;

  // The re-time settings at once (what a session keeps); set_retime_settings() does not emit
  // retimeSettingsEdited. Scalings outside the boxes' range are clamped; an unknown timing keeps
  // the current one.
  RetimeSettings retime_settings() const;
  void set_retime_settings(const RetimeSettings& settings);

  // Test access.
  QListWidget* list() const { return list_; }
  QSlider* timeline() const { return timeline_; }
  QPushButton* play_button() const { return play_; }
  QPushButton* retime_button() const { return retime_; }
  QPushButton* blend_button() const { return blend_; }
  QPushButton* record_button() const { return record_; }
  QPushButton* robot_here_button() const { return robot_here_; }
  QPushButton* robot_to_end_button() const { return robot_to_end_; }
  QCheckBox* trail_box() const { return trail_; }
  QCheckBox* strobe_box() const { return strobe_; }
  QComboBox* timing_combo() const { return timing_; }
  QDoubleSpinBox* velocity_box() const { return velocity_; }
  QDoubleSpinBox* acceleration_box() const { return acceleration_; }
  QCheckBox* replace_box() const { return replace_; }
  QComboBox* quantity_combo() const { return quantity_; }
  QListWidget* validation_list() const { return validation_; }
  QLabel* compare_label() const { return compare_; }
  ResultLabel* message_label() const { return message_; }
  TrajectoryPlot* plot() const { return plot_; }

 signals:
  void currentChanged(int index);
  void renameRequested(int index, const QString& name);
  void removeRequested(const QList<int>& indices);
  void duplicateRequested(int index);
  // Move the robot (the current state, not the playback ghost) to trajectory `index` at time `t`
  // (absolute): MoveIt's Execute, so the next plan starts where this one leaves the arm.
  void moveRobotRequested(int index, double t);
  void playToggled();
  void seekRequested(double t);
  void stepRequested(int direction);
  void speedChanged(double speed);
  void loopChanged(bool loop);
  void showOptionsChanged(bool trail, bool stroboscope);
  void retimeRequested(int index);
  void blendRequested(const QList<int>& indices);
  void validateRequested(int index);
  void recordToggled(bool record);
  void recordRateChanged(double hz);
  void exportRequested(int index, const QString& path);
  void importRequested(const QString& path);
  // A re-time setting was changed in the panel (not by set_retime_settings).
  void retimeSettingsEdited();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // The constructor's sections, in order (the focus chain follows the order widgets are made).
  void build_list(QVBoxLayout& column);       // the list, its buttons, the comparison line
  void build_playback_tab(QTabWidget& tabs);  // timeline, transport, robot moves, trail / strobe
  void build_plots(QVBoxLayout& column);      // the quantity and its plot
  void build_retime_tab(QTabWidget& tabs);    // parameterization and scaling, Re-time
  void build_checks(QVBoxLayout& column);     // Validate, Record, the message and the violations
  void connect_list();
  void connect_playback();
  void connect_checks();
  void on_selection_changed();
  void show_mark(int row);
  void update_compare();
  void update_plot();
  void choose_export_file();
  void choose_import_files();
  double current_duration() const;
  double current_start() const;
  void watch_retime_settings();

  std::vector<TrajectoryEntry> entries_;
  struct Mark {
    QString mark, tip;
  };
  std::vector<Mark> marks_;  // one per entry
  TrajectoryLimits limits_;
  int current_ = -1;
  bool updating_ = false;
  bool applying_retime_settings_ = false;  // set_retime_settings() is filling the boxes: no signal

  QListWidget* list_;
  QLabel *compare_, *time_label_;
  ResultLabel* message_ = nullptr;
  QSlider* timeline_;
  QPushButton *play_, *prev_, *next_, *duplicate_, *remove_, *retime_, *blend_, *validate_,
      *record_, *export_, *import_, *robot_here_, *robot_to_end_;
  double time_ = 0.0;  // the playhead (absolute), as set_time() last showed it
  QDoubleSpinBox *speed_, *velocity_, *acceleration_, *rate_;
  QCheckBox *loop_, *trail_, *strobe_, *replace_;
  QComboBox *timing_, *quantity_;
  QListWidget* validation_;
  TrajectoryPlot* plot_;
};

// Paths of dropped files the panel imports (.json / .csv), in order.
QStringList importable_paths(const QList<QUrl>& urls);

// The export dialog's file types: JSON and CSV (read back by Import), and the controller exports
// ROS 2 JointTrajectory YAML and URScript (engine/trajectory/controller_export.hpp).
QString export_file_filters();
// A name typed without an extension takes the chosen filter's ("pick" + "... (*.script)" ->
// "pick.script").
QString with_filter_extension(const QString& path, const QString& filter);

}  // namespace kinetic::panels
