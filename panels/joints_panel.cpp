#include "panels/joints_panel.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "panels/stored_states_panel.hpp"

namespace kinetic::panels {

namespace {
constexpr int kSliderSteps = 10000;  // slider resolution over the joint range
constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kMillimetre = 0.001;
const char* const kVariableProperty = "joint_variable";

double wrap_angle(double angle) {
  return std::remainder(angle, 2.0 * std::numbers::pi);
}
}  // namespace

JointsPanel::JointsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* options = new QHBoxLayout;
  target_ = new QComboBox(this);
  target_->addItem(tr("Sliders move the robot"), static_cast<int>(Target::Robot));
  target_->addItem(tr("Sliders move the goal"), static_cast<int>(Target::Goal));
  target_->setToolTip(
      tr("The goal: set a joint-space goal with the sliders, named poses, Zero, Mid or Random "
         "(the goal ghost moves, the robot stays)"));
  connect(target_, &QComboBox::currentIndexChanged, this, [this] { emit targetChanged(target()); });
  options->addWidget(target_, 1);
  degrees_ = new QCheckBox(tr("Degrees"), this);
  degrees_->setChecked(true);
  connect(degrees_, &QCheckBox::toggled, this, [this] { rebuild_rows(); });
  options->addWidget(degrees_);
  layout->addLayout(options);

  auto* poses = new QHBoxLayout;
  named_poses_ = new QComboBox(this);
  named_poses_->setToolTip(tr("Named poses of the robot (kinetic.toml, SRDF)"));
  poses->addWidget(named_poses_, 1);
  apply_pose_ = new QPushButton(tr("Apply"), this);
  connect(apply_pose_, &QPushButton::clicked, this,
          [this] { apply_named_pose(named_poses_->currentText()); });
  poses->addWidget(apply_pose_);
  layout->addLayout(poses);

  auto* presets = new QHBoxLayout;
  const auto add_button = [&](const QString& text, const QString& tip, auto slot) {
    auto* button = new QPushButton(text, this);
    button->setToolTip(tip);
    connect(button, &QPushButton::clicked, this, slot);
    presets->addWidget(button);
  };
  add_button(tr("Zero"), tr("All joints to zero (clamped into the limits)"),
             [this] { apply_zero(); });
  add_button(tr("Mid"), tr("All joints to the middle of their limits"), [this] { apply_mid(); });
  add_button(tr("Random"), tr("A random collision-free configuration within the limits"),
             [this] { apply_random_free(); });
  add_button(tr("Copy"), tr("Copy the configuration as text, in radians"),
             [this] { copy_to_clipboard(); });
  add_button(tr("Paste"), tr("Set the configuration from text such as [0.1, -1.2, ...] in radians"),
             [this] { paste_from_clipboard(); });
  layout->addLayout(presets);

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->hide();
  layout->addWidget(message_);

  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter joints by name"));
  filter_->setClearButtonEnabled(true);
  filter_->setToolTip(tr("Shows the joints whose names contain this text"));
  filter_->hide();
  connect(filter_, &QLineEdit::textChanged, this, [this] { show_rows(); });
  layout->addWidget(filter_);
  shown_note_ = new QLabel(this);
  shown_note_->setWordWrap(true);
  shown_note_->setEnabled(false);
  shown_note_->hide();
  layout->addWidget(shown_note_);

  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  rows_widget_ = new QWidget(scroll);
  rows_layout_ = new QVBoxLayout(rows_widget_);
  rows_layout_->addStretch();
  scroll->setWidget(rows_widget_);
  layout->addWidget(scroll, 1);

  stored_states_ = new StoredStatesPanel(this);
  stored_states_->set_current_source([this] { return values_; });
  layout->addWidget(stored_states_);
}

JointsPanel::Target JointsPanel::target() const {
  return static_cast<Target>(target_->currentData().toInt());
}

void JointsPanel::set_target(Target target) {
  const QSignalBlocker block(target_);
  target_->setCurrentIndex(target_->findData(static_cast<int>(target)));
}

bool JointsPanel::uses_degrees() const {
  return degrees_->isChecked();
}
void JointsPanel::set_uses_degrees(bool degrees) {
  degrees_->setChecked(degrees);
}

void JointsPanel::set_robot(RobotModelPtr robot) {
  robot_ = std::move(robot);
  values_ = robot_ ? robot_->zero_configuration() : JointVector();
  named_poses_->clear();
  if (robot_)
    for (const std::string& name : robot_->named_pose_names())
      named_poses_->addItem(QString::fromStdString(name));
  named_poses_->setEnabled(named_poses_->count() > 0);
  apply_pose_->setEnabled(named_poses_->count() > 0);
  message_->hide();
  rebuild_rows();
  stored_states_->set_robot(robot_);
}

void JointsPanel::set_values(const JointVector& q) {
  if (!robot_ || q.size() != robot_->dof()) return;
  values_ = q;
  refresh_all();
}

double JointsPanel::to_shown(const Row& row, double value) const {
  return row.angular && uses_degrees() ? value * 180.0 / std::numbers::pi : value;
}
double JointsPanel::from_shown(const Row& row, double shown) const {
  return row.angular && uses_degrees() ? shown * std::numbers::pi / 180.0 : shown;
}

namespace {
// Deletes the editors of every row (a template: the panel's Row is private); the rows stay.
template <class Rows>
void remove_editors(Rows& rows) {
  for (auto& row : rows) {
    if (row.slider) delete row.slider->parentWidget();
    row.slider = nullptr;
    row.spin = nullptr;
    row.limits = nullptr;
  }
}
}  // namespace

void JointsPanel::rebuild_rows() {
  remove_editors(rows_);
  rows_.clear();
  const bool many = robot_ && robot_->dof() > kRowsShownAtMost;
  filter_->setVisible(many);
  shown_note_->setVisible(many);
  if (!robot_) return;
  const JointVector lower = robot_->lower_limits();
  const JointVector upper = robot_->upper_limits();
  for (int v = 0; v < robot_->dof(); ++v) {
    const Joint& joint = robot_->variable_joint(v);
    Row row;
    row.lower = lower[v];
    row.upper = upper[v];
    row.angular = joint.type != JointType::Prismatic;
    row.continuous = joint.type == JointType::Continuous;
    rows_.push_back(row);
  }
  show_rows();
}

void JointsPanel::show_rows() {
  remove_editors(rows_);
  if (!robot_) return;
  const int dof = robot_->dof();
  const QString filter = dof > kRowsShownAtMost ? filter_->text().trimmed() : QString();
  int matching = 0;
  for (int v = 0; v < dof; ++v) {
    if (!filter.isEmpty() && !QString::fromStdString(robot_->variable_joint(v).name)
                                  .contains(filter, Qt::CaseInsensitive))
      continue;
    if (++matching <= kRowsShownAtMost) add_editors(v);
  }
  const int shown = std::min(matching, kRowsShownAtMost);
  if (filter.isEmpty())
    shown_note_->setText(tr("%1 joints: the first %2 are shown. Type part of a joint name above "
                            "to find others.")
                             .arg(dof)
                             .arg(shown));
  else if (matching == 0)
    shown_note_->setText(tr("No joint name contains “%1”.").arg(filter));
  else if (matching > shown)
    shown_note_->setText(tr("%1 of %2 joints match “%3”: the first %4 are shown.")
                             .arg(matching)
                             .arg(dof)
                             .arg(filter)
                             .arg(shown));
  else
    shown_note_->setText(tr("%1 of %2 joints match “%3”.").arg(matching).arg(dof).arg(filter));
}

QString JointsPanel::shown_rows_note() const {
  return shown_note_->isHidden() ? QString() : shown_note_->text();
}

void JointsPanel::add_editors(int v) {
  const Joint& joint = robot_->variable_joint(v);
  Row& row = rows_[v];
  auto* box = new QWidget(rows_widget_);
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 2, 0, 2);
  grid->addWidget(new QLabel(QString::fromStdString(joint.name), box), 0, 0);
  row.spin = new QDoubleSpinBox(box);
  row.spin->setDecimals(row.angular && uses_degrees() ? 2 : 4);
  row.spin->setRange(to_shown(row, row.lower), to_shown(row, row.upper));
  row.spin->setSingleStep(row.angular && uses_degrees() ? 1.0 : 0.01);
  row.spin->setSuffix(row.angular ? (uses_degrees() ? QStringLiteral("°") : QStringLiteral(" rad"))
                                  : QStringLiteral(" m"));
  row.spin->setWrapping(row.continuous);
  // A typed value is one edit, made when committed (Enter, leaving the field): "30" moved the
  // robot to 3° on the way and made two undo steps. The arrows and the panel's keys act at once.
  row.spin->setKeyboardTracking(false);
  grid->addWidget(row.spin, 0, 1);
  row.slider = new QSlider(Qt::Horizontal, box);
  row.slider->setRange(0, kSliderSteps);
  grid->addWidget(row.slider, 1, 0, 1, 2);
  row.limits = new QLabel(box);
  row.limits->setText(tr("%1 … %2")
                          .arg(to_shown(row, row.lower), 0, 'f', 1)
                          .arg(to_shown(row, row.upper), 0, 'f', 1));
  row.limits->setEnabled(false);
  grid->addWidget(row.limits, 2, 0, 1, 2);
  rows_layout_->insertWidget(rows_layout_->count() - 1, box);
  connect(row.slider, &QSlider::valueChanged, this, [this, v](int p) { on_slider(v, p); });
  connect(row.spin, &QDoubleSpinBox::valueChanged, this, [this, v](double s) { on_spin(v, s); });
  // The panel's own keyboard steps (1° / 10°) replace the editors' unit-dependent ones.
  for (QWidget* editor : {static_cast<QWidget*>(row.spin), static_cast<QWidget*>(row.slider)}) {
    editor->setProperty(kVariableProperty, v);
    editor->installEventFilter(this);
  }
  refresh_row(v);
}

void JointsPanel::refresh_row(int variable) {
  Row& row = rows_[variable];
  if (!row.slider) return;  // left out by the filter
  const double value = values_[variable];
  const QSignalBlocker block_slider(row.slider);
  const QSignalBlocker block_spin(row.spin);
  const double span = row.upper - row.lower;
  row.slider->setValue(
      span > 0 ? static_cast<int>(std::lround((value - row.lower) / span * kSliderSteps)) : 0);
  // Leave a spin box that already shows the value alone: rewriting it would reformat its text.
  const double shown = to_shown(row, value);
  if (row.spin->value() != QString::number(shown, 'f', row.spin->decimals()).toDouble())
    row.spin->setValue(shown);
}

void JointsPanel::refresh_all() {
  for (int i = 0; i < static_cast<int>(rows_.size()); ++i) refresh_row(i);
}

void JointsPanel::on_slider(int variable, int position) {
  const Row& row = rows_[variable];
  values_[variable] = row.lower + (row.upper - row.lower) * position / kSliderSteps;
  refresh_row(variable);
  emit valuesEdited(values_);
}

void JointsPanel::on_spin(int variable, double shown_value) {
  values_[variable] = from_shown(rows_[variable], shown_value);
  refresh_row(variable);
  emit valuesEdited(values_);
}

void JointsPanel::show_message(const QString& message, bool error) {
  last_message_ = message;
  message_->setText(message);
  message_->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
  message_->setVisible(!message.isEmpty());
}

void JointsPanel::edit_all(const JointVector& q) {
  values_ = q;
  refresh_all();
  emit valuesEdited(values_);
}

bool JointsPanel::apply_named_pose(const QString& name) {
  if (!robot_) return false;
  try {
    edit_all(robot_->clamp_to_limits(robot_->named_pose(name.toStdString())));
  } catch (const std::exception& error) {
    show_message(QString::fromUtf8(error.what()), true);
    return false;
  }
  show_message({}, false);
  return true;
}

void JointsPanel::apply_zero() {
  if (robot_) edit_all(robot_->zero_configuration());
}

void JointsPanel::apply_mid() {
  if (robot_) edit_all(robot_->mid_configuration());
}

bool JointsPanel::apply_random_free() {
  if (!robot_) return false;
  const JointVector lower = robot_->lower_limits();
  const JointVector upper = robot_->upper_limits();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto scene_skipped = [this] {
    return state_check_ && scene_skipped_ ? scene_skipped_() : QString();
  };
  for (int attempt = 0; attempt < kRandomFreeAttempts; ++attempt) {
    JointVector q(robot_->dof());
    for (int v = 0; v < robot_->dof(); ++v) q[v] = lower[v] + (upper[v] - lower[v]) * unit(random_);
    if (state_check_ && !state_check_(q)) continue;
    const QString skipped = scene_skipped();
    show_message(skipped.isEmpty()
                     ? QString()
                     : tr("The scene was not checked: %1. This pose is free of self-collision only "
                          "and may be inside an obstacle.")
                           .arg(skipped),
                 !skipped.isEmpty());
    edit_all(q);
    return true;
  }
  const QString skipped = scene_skipped();
  show_message(skipped.isEmpty()
                   ? tr("No collision-free configuration found in %1 random samples; the scene may "
                        "leave little free space. The joints were not changed.")
                         .arg(kRandomFreeAttempts)
                   : tr("No configuration free of self-collision found in %1 random samples; the "
                        "scene was not checked: %2. The joints were not changed.")
                         .arg(kRandomFreeAttempts)
                         .arg(skipped),
               true);
  return false;
}

QString JointsPanel::format_configuration(const JointVector& q) {
  QStringList numbers;
  for (Eigen::Index i = 0; i < q.size(); ++i)
    numbers << QString::number(q[i], 'g', QLocale::FloatingPointShortest);
  return QStringLiteral("[%1]").arg(numbers.join(QStringLiteral(", ")));
}

std::optional<JointVector> JointsPanel::parse_configuration(const QString& text, int dof,
                                                            QString* error) {
  QString body = text.trimmed();
  if (body.startsWith(QLatin1Char('['))) body.remove(0, 1);
  if (body.endsWith(QLatin1Char(']'))) body.chop(1);
  const QStringList parts =
      body.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
  if (parts.size() != dof) {
    if (error)
      *error = tr("The text has %1 values but the robot has %2 joints; expected e.g. [0.1, -1.2, "
                  "...] in radians.")
                   .arg(parts.size())
                   .arg(dof);
    return std::nullopt;
  }
  JointVector q(dof);
  for (int i = 0; i < dof; ++i) {
    bool ok = false;
    q[i] = parts[i].toDouble(&ok);
    if (!ok || !std::isfinite(q[i])) {
      if (error) *error = tr("Value %1 ('%2') is not a finite number.").arg(i + 1).arg(parts[i]);
      return std::nullopt;
    }
  }
  return q;
}

void JointsPanel::copy_to_clipboard() const {
  if (robot_) QApplication::clipboard()->setText(format_configuration(values_));
}

bool JointsPanel::paste_from_clipboard() {
  return paste_text(QApplication::clipboard()->text());
}

bool JointsPanel::paste_text(const QString& text) {
  if (!robot_) return false;
  QString error;
  std::optional<JointVector> q = parse_configuration(text, robot_->dof(), &error);
  if (!q) {
    show_message(tr("Cannot paste: %1").arg(error), true);
    return false;
  }
  for (int v = 0; v < robot_->dof(); ++v) {
    if (rows_[v].continuous) {
      (*q)[v] = wrap_angle((*q)[v]);
    } else if ((*q)[v] < rows_[v].lower - 1e-9 || (*q)[v] > rows_[v].upper + 1e-9) {
      show_message(tr("Cannot paste: %1 = %2 is outside its limits [%3, %4].")
                       .arg(QString::fromStdString(robot_->variable_joint(v).name))
                       .arg((*q)[v])
                       .arg(rows_[v].lower)
                       .arg(rows_[v].upper),
                   true);
      return false;
    }
  }
  show_message({}, false);
  edit_all(robot_->clamp_to_limits(*q));
  return true;
}

void JointsPanel::step_variable(int variable, double step) {
  if (!robot_ || variable < 0 || variable >= robot_->dof()) return;
  const Row& row = rows_[variable];
  const double next = values_[variable] + step;
  values_[variable] = row.continuous ? wrap_angle(next) : std::clamp(next, row.lower, row.upper);
  refresh_row(variable);
  emit valuesEdited(values_);
}

bool JointsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::KeyPress) {
    const QVariant variable = watched->property(kVariableProperty);
    if (variable.isValid()) {
      const int v = variable.toInt();
      const double unit = rows_.at(v).angular ? kDegree : kMillimetre;
      switch (static_cast<QKeyEvent*>(event)->key()) {
        case Qt::Key_Up:
          step_variable(v, unit);
          return true;
        case Qt::Key_Down:
          step_variable(v, -unit);
          return true;
        case Qt::Key_PageUp:
          step_variable(v, 10.0 * unit);
          return true;
        case Qt::Key_PageDown:
          step_variable(v, -10.0 * unit);
          return true;
        default:
          break;
      }
    }
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace kinetic::panels
