#include "panels/servo_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <numbers>

namespace kinetic::panels {

namespace {

QString tone_style(TeleopTone tone) {
  switch (tone) {
    case TeleopTone::Off:
      return QStringLiteral("color: #777777;");
    case TeleopTone::Ready:
      return QString();
    case TeleopTone::Moving:
      return QStringLiteral("color: #2e7d32; font-weight: bold;");
    case TeleopTone::Limited:
      return QStringLiteral("color: #b26a00; font-weight: bold;");
    case TeleopTone::Halted:
      return QStringLiteral("color: #c62828; font-weight: bold;");
  }
  return QString();
}

}  // namespace

ServoPanel::ServoPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  build_enable_button(*layout);
  build_choices(*layout);
  build_jog_group(*layout);
  build_speed_row(*layout);
  build_status_labels(*layout);
  record_ = new QCheckBox(tr("Record into a trajectory"), this);
  record_->setToolTip(
      tr("While teleoperating, record the motion; when recording stops (unchecked or "
         "teleoperation disabled) it is timed and added to the Trajectories list"));
  layout->addWidget(record_);
  layout->addStretch(1);
  connect_controls();

  speed_value_->setText(tr("%1 %").arg(speed_->value()));
  set_status(tr("Off: enable teleoperation to jog the arm."), TeleopTone::Off);
  set_goal_distance(std::nullopt);
  set_groups({}, {});
  update_enabled();
  update_keys_hint();
}

void ServoPanel::build_enable_button(QVBoxLayout& layout) {
  enable_ = new QPushButton(tr("Enable teleoperation"), this);
  enable_->setCheckable(true);
  // Running must be unmistakable at a glance: green, and the text says how to stop.
  enable_->setStyleSheet(QStringLiteral(
      "QPushButton:checked { background: #2e7d32; color: white; font-weight: bold; }"));
  enable_->setToolTip(
      tr("Start the servo loop from the current joint state: the jog buttons, the "
         "spacemouse or the goal marker then move the arm, slowing down near singularities, "
         "obstacles and joint limits. Disabling stops the arm; the whole session is one undo "
         "step."));
  layout.addWidget(enable_);
}

// Group, input, mode, frame and what the spacemouse's cap moves.
void ServoPanel::build_choices(QVBoxLayout& layout) {
  auto* form = new QFormLayout;
  group_ = new QComboBox(this);
  group_->setToolTip(tr("The planning group the servo moves"));
  group_label_ = new QLabel(tr("Group"), this);
  form->addRow(group_label_, group_);
  source_ = new QComboBox(this);
  source_->addItem(tr("On-screen buttons"), int(TeleopSource::OnScreen));
  source_->addItem(tr("Spacemouse"), int(TeleopSource::SpaceMouse));
  source_->addItem(tr("Follow goal"), int(TeleopSource::Goal));
  source_->setToolTip(
      tr("What moves the arm: the buttons below (held down), a 3Dconnexion spacemouse "
         "through spacenavd (no ROS needed), or the goal marker: drag the goal gizmo in the 3D "
         "view and the TCP follows it live"));
  form->addRow(tr("Input"), source_);
  mode_ = new QComboBox(this);
  mode_->addItem(tr("Cartesian (move the TCP)"), int(JogMode::Cartesian));
  mode_->addItem(tr("Joint (one joint at a time)"), int(JogMode::Joint));
  mode_->setToolTip(
      tr("Cartesian: the TCP moves along or turns about an axis and the servo finds the joint "
         "motion; Joint: each button turns one joint of the group"));
  form->addRow(tr("Mode"), mode_);
  frame_ = new QComboBox(this);
  frame_->addItem(tr("Base"), int(JogFrame::Base));
  frame_->addItem(tr("Tool"), int(JogFrame::Tool));
  frame_->setToolTip(
      tr("The axes of Cartesian jogging: the planning group's base link, or the TCP's own "
         "axes (Tool: +Z moves along the tool's approach direction)"));
  form->addRow(tr("Frame"), frame_);
  axes_ = new QComboBox(this);
  axes_->addItem(tr("Translate and rotate"), int(SpaceMouseAxes::All));
  axes_->addItem(tr("Translate only"), int(SpaceMouseAxes::Translation));
  axes_->addItem(tr("Rotate only"), int(SpaceMouseAxes::Rotation));
  axes_->setToolTip(
      tr("What the spacemouse's cap moves: only the TCP's position (the tool keeps its "
         "orientation), only its orientation, or both. The spacemouse's right button steps "
         "through these; its left button switches between the Base and Tool frames."));
  axes_label_ = new QLabel(tr("Cap moves"), this);
  form->addRow(axes_label_, axes_);
  layout.addLayout(form);
}

void ServoPanel::build_jog_group(QVBoxLayout& layout) {
  auto* jog_group = new QGroupBox(tr("Jog (press and hold)"), this);
  auto* jog_layout = new QVBoxLayout(jog_group);
  pad_ = new JogPad(jog_group);
  jog_layout->addWidget(pad_);
  keys_ = new QLabel(jog_group);
  keys_->setWordWrap(true);
  keys_->setStyleSheet(QStringLiteral("color: #555555;"));
  keys_->setToolTip(
      tr("Keyboard jogging works while teleoperation is on and the 3D view or this panel has "
         "the keyboard focus; a key jogs while it is held"));
  jog_layout->addWidget(keys_);
  layout.addWidget(jog_group);
}

void ServoPanel::build_speed_row(QVBoxLayout& layout) {
  auto* speed_row = new QHBoxLayout;
  speed_row->addWidget(new QLabel(tr("Speed"), this));
  speed_ = new QSlider(Qt::Horizontal, this);
  speed_->setRange(1, 100);
  speed_->setValue(kDefaultSpeedPercent);
  speed_->setToolTip(
      tr("Percent of the servo's maximum speed (TCP: linear and angular; joints: angular). "
         "The servo slows down further near limits."));
  speed_row->addWidget(speed_, 1);
  speed_value_ = new QLabel(this);
  speed_value_->setMinimumWidth(
      speed_value_->fontMetrics().horizontalAdvance(QStringLiteral("100 %")));
  speed_row->addWidget(speed_value_);
  layout.addLayout(speed_row);
}

// What the servo is doing, a note, and the distance to a followed goal.
void ServoPanel::build_status_labels(QVBoxLayout& layout) {
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setToolTip(tr("What the servo is doing and what limits the motion"));
  layout.addWidget(status_);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note_->hide();
  layout.addWidget(note_);
  goal_distance_ = new QLabel(this);
  goal_distance_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  goal_distance_->setToolTip(tr("How far the TCP is from the goal it follows: position and angle"));
  layout.addWidget(goal_distance_);
}

void ServoPanel::connect_controls() {
  connect(enable_, &QPushButton::toggled, this, [this](bool on) {
    update_enabled();
    emit enableToggled(on);
  });
  connect(group_, &QComboBox::currentTextChanged, this, [this](const QString& group) {
    if (!group.isEmpty()) emit groupChanged(group);
  });
  connect(source_, &QComboBox::currentIndexChanged, this, [this] {
    update_enabled();
    emit sourceChanged(source());
  });
  connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
    pad_->set_mode(static_cast<JogMode>(mode_->currentData().toInt()));
    update_enabled();
    update_keys_hint();
  });
  connect(frame_, &QComboBox::currentIndexChanged, this, [this] { emit frameChanged(frame()); });
  connect(axes_, &QComboBox::currentIndexChanged, this,
          [this] { emit spacemouseAxesChanged(spacemouse_axes()); });
  connect(speed_, &QSlider::valueChanged, this, [this](int percent) {
    speed_value_->setText(tr("%1 %").arg(percent));
    emit speedChanged(percent / 100.0);
  });
  connect(record_, &QCheckBox::toggled, this, &ServoPanel::recordToggled);
  connect(pad_, &JogPad::pressed, this, &ServoPanel::jogPressed);
  connect(pad_, &JogPad::released, this, &ServoPanel::jogReleased);
}

void ServoPanel::set_robot_available(bool available) {
  robot_available_ = available;
  if (!available) set_teleop_enabled(false);
  update_enabled();
}

void ServoPanel::set_groups(const QStringList& groups, const QString& current) {
  const QSignalBlocker block(group_);
  group_->clear();
  group_->addItems(groups);
  group_->setCurrentText(current);
  // One group is no choice: the row would only take room.
  group_->setVisible(groups.size() > 1);
  group_label_->setVisible(groups.size() > 1);
}

void ServoPanel::set_joint_names(const QStringList& names) {
  pad_->set_joint_names(names);
  update_enabled();
  update_keys_hint();
}

void ServoPanel::set_key_joint(int joint) {
  pad_->set_key_joint(joint);
  update_keys_hint();
}

void ServoPanel::update_keys_hint() {
  if (mode() == JogMode::Cartesian) {
    keys_->setText(tr("Keys: ←/→ X, ↑/↓ Y, PgUp/PgDn Z; with Shift they turn about those axes"));
    return;
  }
  const int count = pad_->joint_count();
  const QString digits =
      count > 1 ? tr("1–%1 choose a joint").arg(std::min(count, 9)) : tr("1 chooses the joint");
  const QString chosen = pad_->joint_name(pad_->key_joint());
  keys_->setText(chosen.isEmpty()
                     ? tr("Keys: %1, ↑/↓ (or →/←) jog it").arg(digits)
                     : tr("Keys: %1 (now %2, in bold), ↑/↓ (or →/←) jog it").arg(digits, chosen));
}

void ServoPanel::set_teleop_enabled(bool on) {
  const QSignalBlocker block(enable_);
  enable_->setChecked(on);
  update_enabled();
}

void ServoPanel::set_source(TeleopSource source) {
  const QSignalBlocker block(source_);
  source_->setCurrentIndex(source_->findData(int(source)));
  update_enabled();
}

void ServoPanel::set_frame(JogFrame frame) {
  const QSignalBlocker block(frame_);
  frame_->setCurrentIndex(frame_->findData(int(frame)));
}

void ServoPanel::set_spacemouse_axes(SpaceMouseAxes axes) {
  const QSignalBlocker block(axes_);
  axes_->setCurrentIndex(axes_->findData(int(axes)));
}

void ServoPanel::set_recording(bool recording) {
  const QSignalBlocker block(record_);
  record_->setChecked(recording);
}

void ServoPanel::set_status(const QString& text, TeleopTone tone) {
  status_->setText(text);
  status_->setStyleSheet(tone_style(tone));
}

void ServoPanel::show_note(const QString& text, bool error) {
  note_->setText(text);
  note_->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
  note_->setVisible(!text.isEmpty());
}

void ServoPanel::set_goal_distance(const std::optional<GoalDistance>& distance) {
  if (!distance) {
    goal_distance_->setText(
        tr("No goal yet: drag the goal gizmo in the 3D view or set one in the Goal panel."));
    return;
  }
  goal_distance_->setText(tr("To the goal: %1 mm, %2°")
                              .arg(distance->position * 1000.0, 0, 'f', 1)
                              .arg(distance->angle * 180.0 / std::numbers::pi, 0, 'f', 1));
}

bool ServoPanel::teleop_enabled() const {
  return enable_->isChecked();
}
TeleopSource ServoPanel::source() const {
  return static_cast<TeleopSource>(source_->currentData().toInt());
}
JogFrame ServoPanel::frame() const {
  return static_cast<JogFrame>(frame_->currentData().toInt());
}
SpaceMouseAxes ServoPanel::spacemouse_axes() const {
  return static_cast<SpaceMouseAxes>(axes_->currentData().toInt());
}
QString ServoPanel::group() const {
  return group_->currentText();
}
double ServoPanel::speed_fraction() const {
  return speed_->value() / 100.0;
}
bool ServoPanel::record_requested() const {
  return record_->isChecked();
}

void ServoPanel::hideEvent(QHideEvent* event) {
  // A button that is hidden while held never sees its release: stop the arm.
  emit jogReleased();
  QWidget::hideEvent(event);
}

void ServoPanel::update_enabled() {
  enable_->setText(teleop_enabled() ? tr("Teleoperating: click to stop")
                                    : tr("Enable teleoperation"));
  for (QWidget* each : std::initializer_list<QWidget*>{enable_, group_, source_, speed_, record_})
    each->setEnabled(robot_available_);
  // The goal sets the whole pose: no mode or frame to choose.
  const bool following_goal = source() == TeleopSource::Goal;
  mode_->setEnabled(robot_available_ && !following_goal);
  frame_->setEnabled(robot_available_ && mode() == JogMode::Cartesian && !following_goal);
  goal_distance_->setVisible(following_goal);
  // Only a spacemouse has a cap: the row is there while it is the input.
  axes_->setEnabled(robot_available_);
  axes_->setVisible(source() == TeleopSource::SpaceMouse);
  axes_label_->setVisible(source() == TeleopSource::SpaceMouse);
  // The buttons move the arm only while the servo runs and they are the input.
  pad_->setEnabled(robot_available_ && teleop_enabled() && source() == TeleopSource::OnScreen);
}

}  // namespace kinetic::panels
