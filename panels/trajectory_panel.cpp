#include "panels/trajectory_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QProxyStyle>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "panels/file_dialog_folders.hpp"
#include "panels/safe_file_name.hpp"
#include "panels/trajectory_plot.hpp"

namespace kinetic::panels {

namespace {
class JumpToClickStyle : public QProxyStyle {
 public:
  int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget,
                QStyleHintReturn* returned) const override {
    if (hint == QStyle::SH_Slider_AbsoluteSetButtons) return Qt::LeftButton;
    return QProxyStyle::styleHint(hint, option, widget, returned);
  }
};
}  // namespace

double trajectory_length(const Trajectory& trajectory) {
  double length = 0.0;
  const auto& s = trajectory.samples();
  for (std::size_t i = 1; i < s.size(); ++i) length += (s[i].position - s[i - 1].position).norm();
  return length;
}

QStringList importable_paths(const QList<QUrl>& urls) {
  QStringList paths;
  for (const QUrl& url : urls) {
    if (!url.isLocalFile()) continue;
    const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
    if (suffix == QStringLiteral("json") || suffix == QStringLiteral("csv"))
      paths << url.toLocalFile();
  }
  return paths;
}

QString export_file_filters() {
  return QObject::tr(
      "Trajectory JSON (*.json);;Trajectory CSV (*.csv);;ROS 2 JointTrajectory YAML (*.yaml);;"
      "URScript for Universal Robots (*.script)");
}

QString with_filter_extension(const QString& path, const QString& filter) {
  if (!QFileInfo(path).suffix().isEmpty()) return path;
  const QRegularExpressionMatch pattern =
      QRegularExpression(QStringLiteral("\\*(\\.[a-z]+)")).match(filter);
  return pattern.hasMatch() ? path + pattern.captured(1) : path;
}

namespace {

QPushButton* button(const QString& text, const QString& tip = {}) {
  auto* b = new QPushButton(text);
  b->setToolTip(tip);
  return b;
}

QDoubleSpinBox* scaling_box() {
  auto* box = new QDoubleSpinBox;
  box->setRange(0.01, 1.0);
  box->setDecimals(2);
  box->setSingleStep(0.05);
  box->setValue(1.0);
  return box;
}

// A list item's validation mark as an icon: green ✓, amber ⚠ (the glyph drawn in the list's font).
QIcon mark_icon(const QString& mark) {
  QPixmap pixmap(16, 16);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setPen(mark == QStringLiteral("✓") ? QColor(0x2e7d32) : QColor(0xc77700));
  painter.drawText(pixmap.rect(), Qt::AlignCenter, mark);
  painter.end();
  return QIcon(pixmap);
}

}  // namespace

TrajectoryPanel::TrajectoryPanel(QWidget* parent) : QWidget(parent) {
  setAcceptDrops(true);
  // Three columns, so the panel fits a bottom dock of modest height: the list (with validation
  // and recording), playback and timing, and the plot taking the remaining width.
  auto* columns = new QHBoxLayout(this);
  auto* layout = new QVBoxLayout;    // list column
  auto* controls = new QVBoxLayout;  // playback + timing column
  auto* plots = new QVBoxLayout;     // plot column
  columns->addLayout(layout, 2);
  columns->addLayout(controls, 2);
  columns->addLayout(plots, 4);

  build_list(*layout);
  // Playback and re-timing as two tabs: stacked, their height pushed the validation result and the
  // export confirmation in the list's column below a short bottom dock's fold.
  auto* control_tabs = new QTabWidget;
  build_playback_tab(*control_tabs);
  controls->addWidget(control_tabs);
  build_plots(*plots);
  build_retime_tab(*control_tabs);
  build_checks(*layout);
  connect_list();
  connect_playback();
  connect_checks();
  watch_retime_settings();
  on_selection_changed();
}

void TrajectoryPanel::build_list(QVBoxLayout& column) {
  list_ = new QListWidget;
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  list_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  list_->setToolTip(
      tr("Double-click to rename; select two to compare, several to blend. "
         "Drop .json / .csv files here to import."));
  column.addWidget(list_, 2);
  auto* list_buttons = new QHBoxLayout;
  duplicate_ = button(tr("Duplicate"));
  remove_ = button(tr("Delete"));
  blend_ = button(tr("Blend"),
                  tr("Join the selected trajectories (in list order) into one without stopping"));
  export_ =
      button(tr("Export…"),
             tr("Save the current trajectory as JSON or CSV, or for a controller: a ROS 2 "
                "JointTrajectory (.yaml) or a URScript program for Universal Robots (.script)"));
  import_ = button(tr("Import…"), tr("Load trajectories from JSON or CSV files"));
  for (QPushButton* b : {duplicate_, remove_, blend_, export_, import_}) list_buttons->addWidget(b);
  column.addLayout(list_buttons);
  compare_ = new QLabel;
  compare_->setWordWrap(true);
  column.addWidget(compare_);
}

void TrajectoryPanel::build_playback_tab(QTabWidget& tabs) {
  auto* playback = new QWidget;
  auto* playback_layout = new QVBoxLayout(playback);
  timeline_ = new QSlider(Qt::Horizontal);
  timeline_->setRange(0, kTimelineSteps);
  // A click on the track jumps there and a drag goes on from it, as a video player's; a plain
  // slider only stepped a page towards the click.
  auto* jump_style = new JumpToClickStyle;
  jump_style->setParent(timeline_);
  timeline_->setStyle(jump_style);
  timeline_->setToolTip(tr("Click or drag to go to a time of the trajectory"));
  playback_layout->addWidget(timeline_);
  auto* transport = new QHBoxLayout;
  // Style icons rather than symbol glyphs: not every font has the media-control characters.
  prev_ = button(QString(), tr("Previous waypoint"));
  prev_->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
  play_ = button(tr("Play"), tr("Play / pause (Space)"));
  next_ = button(QString(), tr("Next waypoint"));
  next_->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
  time_label_ = new QLabel(tr("0.000 / 0.000 s"));
  speed_ = new QDoubleSpinBox;
  speed_->setRange(0.1, 4.0);
  speed_->setSingleStep(0.1);
  speed_->setValue(1.0);
  speed_->setSuffix(QStringLiteral("×"));
  loop_ = new QCheckBox(tr("Loop"));
  for (QWidget* w :
       std::initializer_list<QWidget*>{prev_, play_, next_, time_label_, speed_, loop_})
    transport->addWidget(w);
  playback_layout->addLayout(transport);
  auto* robot_moves = new QHBoxLayout;
  robot_here_ =
      button(tr("Robot here"),
             tr("Move the robot to the pose shown at the playhead (and the world to the scene "
                "of that moment); one undo step"));
  robot_to_end_ =
      button(tr("Robot to end"),
             tr("Move the robot to where this trajectory ends, as executing it would, so the "
                "next plan starts there; one undo step"));
  robot_moves->addWidget(robot_here_);
  robot_moves->addWidget(robot_to_end_);
  robot_moves->addStretch(1);
  playback_layout->addLayout(robot_moves);
  auto* show = new QHBoxLayout;
  trail_ = new QCheckBox(tr("TCP trail"));
  strobe_ = new QCheckBox(tr("Stroboscope"));
  show->addWidget(trail_);
  show->addWidget(strobe_);
  show->addStretch(1);
  playback_layout->addLayout(show);
  playback_layout->addStretch(1);
  tabs.addTab(playback, tr("Playback"));
}

void TrajectoryPanel::build_plots(QVBoxLayout& column) {
  quantity_ = new QComboBox;
  quantity_->addItem(tr("Position q"), int(PlotQuantity::Position));
  quantity_->addItem(tr("Velocity q̇"), int(PlotQuantity::Velocity));
  quantity_->addItem(tr("Acceleration q̈"), int(PlotQuantity::Acceleration));
  quantity_->addItem(tr("Jerk"), int(PlotQuantity::Jerk));
  quantity_->addItem(tr("TCP speed"), int(PlotQuantity::TcpSpeed));
  column.addWidget(quantity_);
  plot_ = new TrajectoryPlot;
  column.addWidget(plot_, 1);
}

void TrajectoryPanel::build_retime_tab(QTabWidget& tabs) {
  auto* timing = new QWidget;
  auto* timing_form = new QFormLayout(timing);
  timing_ = new QComboBox;
  timing_->addItem(tr("Time-optimal"), QStringLiteral("time_optimal"));
  timing_->addItem(tr("Trapezoidal"), QStringLiteral("trapezoidal"));
  timing_->addItem(tr("S-curve"), QStringLiteral("scurve"));
  timing_->addItem(tr("Cubic spline"), QStringLiteral("cubic_spline"));
  timing_form->addRow(tr("Parameterization"), timing_);
  velocity_ = scaling_box();
  acceleration_ = scaling_box();
  timing_form->addRow(tr("Velocity scaling"), velocity_);
  timing_form->addRow(tr("Acceleration scaling"), acceleration_);
  replace_ = new QCheckBox(tr("Replace the selected trajectory"));
  retime_ = button(tr("Re-time"));
  timing_form->addRow(replace_, retime_);
  tabs.addTab(timing, tr("Re-time"));
}

void TrajectoryPanel::build_checks(QVBoxLayout& column) {
  auto* checks = new QHBoxLayout;
  validate_ =
      button(tr("Validate"), tr("Check limits and collisions along the current trajectory"));
  record_ =
      button(tr("Record"), tr("Record the robot's state while you move it; press again to stop"));
  record_->setCheckable(true);
  rate_ = new QDoubleSpinBox;
  rate_->setRange(1.0, 1000.0);
  rate_->setValue(50.0);
  rate_->setSuffix(tr(" Hz"));
  for (QWidget* w : std::initializer_list<QWidget*>{validate_, record_, rate_})
    checks->addWidget(w);
  column.addLayout(checks);
  // What an action said (validated, exported, …) right under its buttons, then the violations;
  // both lists give up height first, so neither result leaves a short dock.
  message_ = new ResultLabel;
  column.addWidget(message_);
  validation_ = new QListWidget;
  validation_->setMinimumHeight(2 * validation_->fontMetrics().height() + 8);
  validation_->setMaximumHeight(100);
  validation_->setToolTip(tr("Click a violation to go to its time"));
  column.addWidget(validation_, 1);
  list_->setMinimumHeight(3 * list_->fontMetrics().height() + 8);
}

void TrajectoryPanel::connect_list() {
  connect(list_, &QListWidget::itemSelectionChanged, this, &TrajectoryPanel::on_selection_changed);
  connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (updating_ || row == current_) return;
    current_ = row;
    // The selection signal may come first (a click) or not at all (set_current from code): the
    // buttons that act on the current trajectory follow it here too.
    on_selection_changed();
    update_plot();
    emit currentChanged(row);
  });
  connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    if (updating_) return;
    const int row = list_->row(item);
    const QString name = item->text().trimmed();
    if (row < 0 || row >= static_cast<int>(entries_.size()) || name == entries_[row].name) return;
    if (name.isEmpty()) {  // an empty name is not a name: put the old one back
      updating_ = true;
      item->setText(entries_[row].name);
      updating_ = false;
      return;
    }
    emit renameRequested(row, name);
  });
  connect(duplicate_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit duplicateRequested(current_);
  });
  connect(robot_here_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit moveRobotRequested(current_, time_);
  });
  connect(robot_to_end_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit moveRobotRequested(current_, current_start() + current_duration());
  });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const QList<int> rows = selected();
    if (!rows.isEmpty()) emit removeRequested(rows);
  });
  connect(blend_, &QPushButton::clicked, this, [this] {
    if (selected().size() >= 2) emit blendRequested(selected());
  });
  connect(export_, &QPushButton::clicked, this, &TrajectoryPanel::choose_export_file);
  connect(import_, &QPushButton::clicked, this, &TrajectoryPanel::choose_import_files);
}

void TrajectoryPanel::connect_playback() {
  connect(timeline_, &QSlider::valueChanged, this, [this](int value) {
    if (updating_ || current_ < 0) return;
    emit seekRequested(current_start() + current_duration() * value / kTimelineSteps);
  });
  connect(play_, &QPushButton::clicked, this, &TrajectoryPanel::playToggled);
  connect(prev_, &QPushButton::clicked, this, [this] { emit stepRequested(-1); });
  connect(next_, &QPushButton::clicked, this, [this] { emit stepRequested(+1); });
  connect(speed_, &QDoubleSpinBox::valueChanged, this, &TrajectoryPanel::speedChanged);
  connect(loop_, &QCheckBox::toggled, this, &TrajectoryPanel::loopChanged);
  auto show_changed = [this] {
    emit showOptionsChanged(trail_->isChecked(), strobe_->isChecked());
  };
  connect(trail_, &QCheckBox::toggled, this, show_changed);
  connect(strobe_, &QCheckBox::toggled, this, show_changed);
  connect(quantity_, &QComboBox::currentIndexChanged, this,
          [this] { plot_->set_quantity(PlotQuantity(quantity_->currentData().toInt())); });
  connect(plot_, &TrajectoryPlot::seekRequested, this, &TrajectoryPanel::seekRequested);
}

void TrajectoryPanel::connect_checks() {
  connect(retime_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit retimeRequested(current_);
  });
  connect(validate_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit validateRequested(current_);
  });
  connect(record_, &QPushButton::toggled, this, [this](bool on) {
    if (!updating_) emit recordToggled(on);
  });
  connect(rate_, &QDoubleSpinBox::valueChanged, this, &TrajectoryPanel::recordRateChanged);
  connect(validation_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    const QVariant t = item->data(Qt::UserRole);
    if (t.isValid()) emit seekRequested(t.toDouble());
  });
}

void TrajectoryPanel::watch_retime_settings() {
  const auto edited = [this] {
    if (!applying_retime_settings_) emit retimeSettingsEdited();
  };
  connect(timing_, &QComboBox::currentIndexChanged, this, edited);
  for (QDoubleSpinBox* box : {velocity_, acceleration_})
    connect(box, &QDoubleSpinBox::valueChanged, this, edited);
  connect(replace_, &QCheckBox::toggled, this, edited);
}

RetimeSettings TrajectoryPanel::retime_settings() const {
  return {timing_key(), velocity_scaling(), acceleration_scaling(), replace_when_retiming()};
}

void TrajectoryPanel::set_retime_settings(const RetimeSettings& settings) {
  applying_retime_settings_ = true;
  if (const int index = timing_->findData(settings.timing); index >= 0)
    timing_->setCurrentIndex(index);
  velocity_->setValue(settings.velocity_scaling);
  acceleration_->setValue(settings.acceleration_scaling);
  replace_->setChecked(settings.replace_selected);
  applying_retime_settings_ = false;
}

void TrajectoryPanel::set_trajectories(const std::vector<TrajectoryEntry>& entries) {
  const QList<int> was_selected = selected();
  entries_ = entries;
  marks_.assign(entries_.size(), Mark{});
  updating_ = true;
  list_->clear();
  for (const TrajectoryEntry& entry : entries_) {
    auto* item = new QListWidgetItem(entry.name);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    list_->addItem(item);
    show_mark(list_->count() - 1);
  }
  const int count = static_cast<int>(entries_.size());
  const int keep = std::min(current_, count - 1);
  current_ = -1;
  updating_ = false;
  if (keep >= 0) {
    updating_ = true;
    list_->setCurrentRow(keep);
    for (int row : was_selected)
      if (row < count) list_->item(row)->setSelected(true);
    updating_ = false;
  }
  const bool changed = keep != current_;
  current_ = keep;
  update_plot();
  on_selection_changed();
  if (changed) emit currentChanged(current_);
}

void TrajectoryPanel::show_mark(int row) {
  QListWidgetItem* item = list_->item(row);
  const TrajectoryEntry& entry = entries_[static_cast<std::size_t>(row)];
  const Mark& mark = marks_[static_cast<std::size_t>(row)];
  QString tip = tr("%1 s, %2 samples")
                    .arg(entry.trajectory.duration(), 0, 'f', 3)
                    .arg(entry.trajectory.samples().size());
  if (!mark.tip.isEmpty()) tip += QStringLiteral("\n") + mark.tip;
  item->setToolTip(tip);
  // An icon, not part of the text: renaming edits the name alone.
  item->setData(Qt::DecorationRole,
                mark.mark.isEmpty() ? QVariant() : QVariant(mark_icon(mark.mark)));
  item->setData(Qt::AccessibleDescriptionRole, mark.tip);
}

void TrajectoryPanel::set_mark(int row, const QString& mark, const QString& tip) {
  if (row < 0 || row >= static_cast<int>(marks_.size()) || !list_->item(row)) return;
  Mark& kept = marks_[static_cast<std::size_t>(row)];
  if (kept.mark == mark && kept.tip == tip) return;
  kept = {mark, tip};
  const bool was_updating = updating_;
  updating_ = true;  // itemChanged is not a rename
  show_mark(row);
  updating_ = was_updating;
}

void TrajectoryPanel::set_limits(const TrajectoryLimits& limits) {
  limits_ = limits;
  update_plot();
}

void TrajectoryPanel::set_tcp_source(const TcpPlotSource& source) {
  plot_->set_tcp_source(source);
}

int TrajectoryPanel::current() const {
  return current_;
}

void TrajectoryPanel::set_current(int index) {
  if (index < -1 || index >= static_cast<int>(entries_.size())) return;
  list_->setCurrentRow(index);  // emits currentChanged through currentRowChanged
}

QList<int> TrajectoryPanel::selected() const {
  QList<int> rows;
  for (QListWidgetItem* item : list_->selectedItems()) rows << list_->row(item);
  std::sort(rows.begin(), rows.end());
  return rows;
}

void TrajectoryPanel::select(const QList<int>& rows) {
  list_->clearSelection();
  for (int row : rows)
    if (QListWidgetItem* item = list_->item(row)) item->setSelected(true);
}

double TrajectoryPanel::current_duration() const {
  return current_ >= 0 ? entries_[current_].trajectory.duration() : 0.0;
}

double TrajectoryPanel::current_start() const {
  return current_ >= 0 ? entries_[current_].trajectory.start_time() : 0.0;
}

void TrajectoryPanel::set_time(double t) {
  time_ = t;
  const double duration = current_duration();
  updating_ = true;
  timeline_->setValue(duration > 0 ? static_cast<int>(std::lround((t - current_start()) / duration *
                                                                  kTimelineSteps))
                                   : 0);
  updating_ = false;
  time_label_->setText(
      tr("%1 / %2 s").arg(t - current_start(), 0, 'f', 3).arg(duration, 0, 'f', 3));
  plot_->set_cursor(t);
}

void TrajectoryPanel::set_playing(bool playing) {
  play_->setText(playing ? tr("Pause") : tr("Play"));
}

void TrajectoryPanel::set_recording(bool recording) {
  updating_ = true;
  record_->setChecked(recording);
  record_->setText(recording ? tr("Stop recording") : tr("Record"));
  updating_ = false;
}

void TrajectoryPanel::set_validation(const TrajectoryValidationReport& report) {
  validation_->clear();
  if (report.ok()) {
    validation_->addItem(tr("✓ No violations (%1 states checked)").arg(report.states_checked));
    return;
  }
  for (const TrajectoryViolation& v : report.violations) {
    auto* item = new QListWidgetItem(QStringLiteral("t = %1 s: %2")
                                         .arg(v.time, 0, 'f', 3)
                                         .arg(QString::fromStdString(v.message)));
    item->setData(Qt::UserRole, v.time);
    item->setForeground(QColor(0xb00020));
    validation_->addItem(item);
  }
}

void TrajectoryPanel::show_not_validated(const QString& text) {
  validation_->clear();
  if (text.isEmpty()) return;
  auto* item = new QListWidgetItem(text);
  item->setForeground(validation_->palette().color(QPalette::Disabled, QPalette::Text));
  validation_->addItem(item);
}

void TrajectoryPanel::show_message(const QString& text, bool error) {
  message_->show_result(text, error ? ResultLabel::Tone::Error : ResultLabel::Tone::Normal);
}

double TrajectoryPanel::speed() const {
  return speed_->value();
}
bool TrajectoryPanel::loop() const {
  return loop_->isChecked();
}
QString TrajectoryPanel::timing_key() const {
  return timing_->currentData().toString();
}
double TrajectoryPanel::velocity_scaling() const {
  return velocity_->value();
}
double TrajectoryPanel::acceleration_scaling() const {
  return acceleration_->value();
}
bool TrajectoryPanel::replace_when_retiming() const {
  return replace_->isChecked();
}
double TrajectoryPanel::record_rate() const {
  return rate_->value();
}

void TrajectoryPanel::on_selection_changed() {
  const bool has = current_ >= 0;
  for (QPushButton* b :
       {duplicate_, export_, retime_, validate_, play_, prev_, next_, robot_here_, robot_to_end_})
    b->setEnabled(has);
  remove_->setEnabled(!selected().isEmpty());
  blend_->setEnabled(selected().size() >= 2);
  timeline_->setEnabled(has);
  update_compare();
}

void TrajectoryPanel::update_compare() {
  const QList<int> rows = selected();
  if (rows.size() != 2) {
    compare_->setText(rows.size() > 2 ? tr("Select two trajectories to compare them.") : QString());
    return;
  }
  auto stats = [this](int row) {
    const Trajectory& t = entries_[row].trajectory;
    return std::tuple(entries_[row].name, t.duration(), trajectory_length(t), t.samples().size(),
                      t.waypoint_times().size());
  };
  const auto [name_a, duration_a, length_a, samples_a, waypoints_a] = stats(rows[0]);
  const auto [name_b, duration_b, length_b, samples_b, waypoints_b] = stats(rows[1]);
  compare_->setText(tr("<table cellspacing=4><tr><th></th><th>%1</th><th>%2</th></tr>"
                       "<tr><td>duration</td><td>%3 s</td><td>%4 s</td></tr>"
                       "<tr><td>length</td><td>%5 rad</td><td>%6 rad</td></tr>"
                       "<tr><td>waypoints</td><td>%7</td><td>%8</td></tr>"
                       "<tr><td>samples</td><td>%9</td><td>%10</td></tr></table>")
                        .arg(name_a.toHtmlEscaped(), name_b.toHtmlEscaped())
                        .arg(duration_a, 0, 'f', 3)
                        .arg(duration_b, 0, 'f', 3)
                        .arg(length_a, 0, 'f', 3)
                        .arg(length_b, 0, 'f', 3)
                        .arg(waypoints_a)
                        .arg(waypoints_b)
                        .arg(samples_a)
                        .arg(samples_b));
}

void TrajectoryPanel::update_plot() {
  plot_->set_trajectory(current_ >= 0 ? entries_[current_].trajectory : Trajectory(), limits_);
  set_time(current_start());
}

void TrajectoryPanel::choose_export_file() {
  if (current_ < 0) return;
  // Suggested: "plan-3-rrt-connect.json" for "plan 3 · RRT-Connect", with the extension of the
  // format the dialog starts on, in the folder trajectories were last exported or imported in.
  QString filter = export_file_filters().section(QStringLiteral(";;"), 0, 0);
  const QString name = with_filter_extension(
      safe_file_name(entries_[current_].name, QStringLiteral("trajectory")), filter);
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export trajectory"), in_last_dialog_folder(FileDialogKind::Trajectory, name),
      export_file_filters(), &filter);
  if (path.isEmpty()) return;
  remember_dialog_folder(FileDialogKind::Trajectory, path);
  emit exportRequested(current_, with_filter_extension(path, filter));
}

void TrajectoryPanel::choose_import_files() {
  const QStringList paths = QFileDialog::getOpenFileNames(
      this, tr("Import trajectories"), last_dialog_folder(FileDialogKind::Trajectory),
      tr("Trajectories (*.json *.csv)"));
  if (!paths.isEmpty()) remember_dialog_folder(FileDialogKind::Trajectory, paths.first());
  for (const QString& path : paths) emit importRequested(path);
}

void TrajectoryPanel::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && !importable_paths(event->mimeData()->urls()).isEmpty())
    event->acceptProposedAction();
}

void TrajectoryPanel::dropEvent(QDropEvent* event) {
  const QStringList paths = importable_paths(event->mimeData()->urls());
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  for (const QString& path : paths) emit importRequested(path);
}

}  // namespace kinetic::panels
