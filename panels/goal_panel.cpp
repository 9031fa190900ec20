#include "panels/goal_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <numbers>

#include "panels/angle_units.hpp"
#include "panels/goal_offset.hpp"
#include "panels/tcp_readout.hpp"

namespace kinetic::panels {

namespace {

QDoubleSpinBox* make_field(double range, int decimals, double step, const QString& suffix) {
  auto* field = new QDoubleSpinBox;
  field->setRange(-range, range);
  field->setDecimals(decimals);
  field->setSingleStep(step);
  field->setSuffix(suffix);
  // Report a typed value once, on Return or focus loss, not per keystroke (each one is an IK
  // request).
  field->setKeyboardTracking(false);
  return field;
}

// Extrinsic roll (x), pitch (y), yaw (z): R = Rz(yaw) Ry(pitch) Rx(roll), as URDF writes rpy.
Eigen::Matrix3d from_rpy(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Vector3d to_rpy(const Eigen::Matrix3d& r) {
  const double pitch = std::asin(std::clamp(-r(2, 0), -1.0, 1.0));
  if (std::abs(r(2, 0)) > 1 - 1e-9)
    return {0.0, pitch, std::atan2(-r(0, 1), r(1, 1))};  // gimbal lock
  return {std::atan2(r(2, 1), r(2, 2)), pitch, std::atan2(r(1, 0), r(0, 0))};
}

}  // namespace

void GoalPanel::set_end_effectors(const QStringList& names, const QString& active) {
  const QSignalBlocker blocker(end_effector_);
  QStringList shown;
  for (int i = 0; i < end_effector_->count(); ++i) shown << end_effector_->itemText(i);
  if (shown != names) {
    end_effector_->clear();
    end_effector_->addItems(names);
  }
  end_effector_->setCurrentIndex(static_cast<int>(names.indexOf(active)));
  end_effector_->setEnabled(names.size() > 1);
  end_effector_row_->setVisible(!names.isEmpty());
}

QString GoalPanel::end_effector() const {
  return end_effector_->currentText();
}

GoalPanel::GoalPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  QHBoxLayout* title_row = build_title_row(*layout);
  build_end_effector_row(*layout);
  build_pose_fields(*layout);
  build_ik_rows(*layout);
  build_readouts(*layout);
  layout->addWidget(make_offset_group(*title_row));
  layout->addStretch(1);

  set_pose(Pose::Identity());
  set_solution(0, 0);
}

QHBoxLayout* GoalPanel::build_title_row(QVBoxLayout& layout) {
  frame_label_ = new QLabel(tr("TCP goal"));
  auto* title_row = new QHBoxLayout;
  title_row->setContentsMargins(0, 0, 0, 0);
  // The title gives way (the base link's name can be long): the toggle beside it must not widen
  // the dock, which would narrow the 3D view.
  frame_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  title_row->addWidget(frame_label_, 1);
  layout.addLayout(title_row);
  return title_row;
}

// Only for a group of several arms: which hand the pose below (and the larger gizmo) is for.
void GoalPanel::build_end_effector_row(QVBoxLayout& layout) {
  end_effector_row_ = new QWidget;
  auto* effector_row = new QHBoxLayout(end_effector_row_);
  effector_row->setContentsMargins(0, 0, 0, 0);
  end_effector_ = new QComboBox;
  end_effector_->setToolTip(
      tr("The end effector whose pose is shown and edited here; each has a gizmo in the "
         "3D view, and grabbing one also chooses it"));
  auto* effector_label = new QLabel(tr("End effector"));
  effector_label->setBuddy(end_effector_);
  effector_row->addWidget(effector_label);
  effector_row->addWidget(end_effector_, 1);
  layout.addWidget(end_effector_row_);
  end_effector_row_->hide();
  connect(end_effector_, &QComboBox::activated, this,
          [this](int index) { emit endEffectorChosen(end_effector_->itemText(index)); });
}

// The position (m) and the orientation, as roll / pitch / yaw or as a quaternion.
void GoalPanel::build_pose_fields(QVBoxLayout& layout) {
  auto* position = new QFormLayout;
  const char* axes[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    position_[i] = make_field(10.0, 4, 0.005, tr(" m"));
    position->addRow(QString::fromLatin1(axes[i]), position_[i]);
    connect(position_[i], &QDoubleSpinBox::valueChanged, this, &GoalPanel::fields_edited);
  }
  layout.addLayout(position);

  orientation_mode_ = new QComboBox;
  orientation_mode_->addItem(tr("Roll / pitch / yaw (°)"));
  orientation_mode_->addItem(tr("Quaternion (x, y, z, w)"));
  layout.addWidget(orientation_mode_);
  orientation_stack_ = new QStackedWidget;
  auto* rpy_page = new QWidget;
  auto* rpy_form = new QFormLayout(rpy_page);
  const char* angles[3] = {"roll", "pitch", "yaw"};
  for (int i = 0; i < 3; ++i) {
    rpy_[i] = make_field(360.0, 2, 1.0, QStringLiteral("°"));
    rpy_form->addRow(tr(angles[i]), rpy_[i]);
    connect(rpy_[i], &QDoubleSpinBox::valueChanged, this, &GoalPanel::fields_edited);
  }
  auto* quaternion_page = new QWidget;
  auto* quaternion_form = new QFormLayout(quaternion_page);
  const char* parts[4] = {"qx", "qy", "qz", "qw"};
  for (int i = 0; i < 4; ++i) {
    quaternion_[i] = make_field(1.0, 5, 0.01, QString());
    quaternion_form->addRow(QString::fromLatin1(parts[i]), quaternion_[i]);
    connect(quaternion_[i], &QDoubleSpinBox::valueChanged, this, &GoalPanel::fields_edited);
  }
  orientation_stack_->addWidget(rpy_page);
  orientation_stack_->addWidget(quaternion_page);
  layout.addWidget(orientation_stack_);
  connect(orientation_mode_, &QComboBox::currentIndexChanged, orientation_stack_,
          &QStackedWidget::setCurrentIndex);
}

// The gizmo's frame, collision-aware IK, and stepping through the IK solutions.
void GoalPanel::build_ik_rows(QVBoxLayout& layout) {
  local_frame_ = new QCheckBox(tr("Gizmo in the TCP's local frame"));
  local_frame_->setToolTip(tr("Off: the gizmo's arrows follow the world axes"));
  connect(local_frame_, &QCheckBox::toggled, this, &GoalPanel::localFrameChanged);
  layout.addWidget(local_frame_);
  collision_aware_ = new QCheckBox(tr("Collision-aware IK"));
  collision_aware_->setToolTip(
      tr("Skip IK solutions that collide with the robot itself or the scene"));
  // On at first, as in RViz: a goal inside an obstacle fails at once, not at plan time.
  collision_aware_->setChecked(true);
  connect(collision_aware_, &QCheckBox::toggled, this, &GoalPanel::collisionAwareChanged);
  layout.addWidget(collision_aware_);

  auto* cycling = new QHBoxLayout;
  previous_ = new QPushButton(tr("◀ Previous"));
  next_ = new QPushButton(tr("Next ▶"));
  previous_->setToolTip(tr("Previous IK solution of this pose"));
  next_->setToolTip(tr("Next IK solution of this pose"));
  solution_ = new QLabel;
  solution_->setAlignment(Qt::AlignCenter);
  cycling->addWidget(previous_);
  cycling->addWidget(solution_, 1);
  cycling->addWidget(next_);
  connect(previous_, &QPushButton::clicked, this, &GoalPanel::previousSolutionRequested);
  connect(next_, &QPushButton::clicked, this, &GoalPanel::nextSolutionRequested);
  layout.addLayout(cycling);
}

// The IK status, the current TCP, and copying between the goal and the current state.
void GoalPanel::build_readouts(QVBoxLayout& layout) {
  status_ = new QLabel;
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout.addWidget(status_);

  tcp_readout_ = new TcpReadout;
  connect(tcp_readout_, &TcpReadout::setGoalHereRequested, this,
          &GoalPanel::goalFromCurrentRequested);
  layout.addWidget(tcp_readout_);

  auto* transfer = new QHBoxLayout;
  goal_from_current_ = new QPushButton(tr("Goal ← current"));
  current_from_goal_ = new QPushButton(tr("Current ← goal"));
  connect(goal_from_current_, &QPushButton::clicked, this, &GoalPanel::goalFromCurrentRequested);
  connect(current_from_goal_, &QPushButton::clicked, this, &GoalPanel::currentFromGoalRequested);
  transfer->addWidget(goal_from_current_);
  transfer->addWidget(current_from_goal_);
  layout.addLayout(transfer);
}

QGroupBox* GoalPanel::make_offset_group(QHBoxLayout& title_row) {
  // "10 cm along the tool's Z" (an approach) or "5 cm up": typed once, applied with each click.
  // Folded until asked for, so the panel (and the dock beside the 3D view) stays as compact.
  auto* offset_toggle = new QToolButton;
  offset_toggle->setText(tr("Offset"));
  offset_toggle->setToolTip(tr("Move the goal by an offset along the tool's or the base's axes"));
  offset_toggle->setCheckable(true);
  offset_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  offset_toggle->setAutoRaise(true);
  offset_toggle->setArrowType(Qt::RightArrow);
  title_row.addWidget(offset_toggle);  // beside the title: no row of its own while folded
  auto* offset = new QGroupBox(tr("Move the goal by"));
  offset->setVisible(false);
  connect(offset_toggle, &QToolButton::toggled, this, [offset, offset_toggle](bool open) {
    offset->setVisible(open);
    offset_toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
  });
  offset_toggle_ = offset_toggle;
  auto* offset_grid = new QGridLayout(offset);
  const char* offset_axes[3] = {"x", "y", "z"};
  const char* offset_turns[3] = {"roll", "pitch", "yaw"};
  for (int i = 0; i < 3; ++i) {
    offset_translation_[i] = make_field(10000.0, 1, 5.0, tr(" mm"));
    offset_rotation_[i] = make_field(360.0, 1, 5.0, QStringLiteral("°"));
    offset_grid->addWidget(new QLabel(QString::fromLatin1(offset_axes[i])), 0, 2 * i);
    offset_grid->addWidget(offset_translation_[i], 0, 2 * i + 1);
    offset_grid->addWidget(new QLabel(tr(offset_turns[i])), 1, 2 * i);
    offset_grid->addWidget(offset_rotation_[i], 1, 2 * i + 1);
  }
  offset_axes_ = new QComboBox;
  offset_axes_->addItem(tr("along the tool's axes"), static_cast<int>(OffsetAxes::Tool));
  offset_axes_->addItem(tr("along the base's axes"), static_cast<int>(OffsetAxes::Base));
  offset_axes_->setToolTip(
      tr("The tool's axes move with the TCP (its z is usually the approach); the base's "
         "are those of the fields above. Turns are about the TCP either way."));
  move_goal_ = new QPushButton(tr("Move goal"));
  move_goal_->setToolTip(
      tr("Moves the goal above by this offset (Goal ← current first to move from where "
         "the robot is); IK solves it like a typed goal"));
  offset_grid->addWidget(offset_axes_, 2, 0, 1, 4);
  offset_grid->addWidget(move_goal_, 2, 4, 1, 2);
  connect(move_goal_, &QPushButton::clicked, this, &GoalPanel::move_goal_by_offset);
  return offset;
}

void GoalPanel::set_pose(const Pose& pose) {
  updating_ = true;
  for (int i = 0; i < 3; ++i) position_[i]->setValue(pose.translation()[i]);
  show_orientation(Eigen::Quaterniond(pose.linear()));
  updating_ = false;
}

void GoalPanel::show_orientation(const Eigen::Quaterniond& rotation) {
  const Eigen::Vector3d rpy = to_rpy(rotation.toRotationMatrix());
  for (int i = 0; i < 3; ++i) rpy_[i]->setValue(rpy[i] * kDegrees);
  const double q[4] = {rotation.x(), rotation.y(), rotation.z(), rotation.w()};
  for (int i = 0; i < 4; ++i) quaternion_[i]->setValue(q[i]);
}

Pose GoalPanel::pose() const {
  Pose pose = Pose::Identity();
  pose.translation() =
      Eigen::Vector3d(position_[0]->value(), position_[1]->value(), position_[2]->value());
  if (orientation_mode() == Orientation::Quaternion) {
    Eigen::Quaterniond q(quaternion_[3]->value(), quaternion_[0]->value(), quaternion_[1]->value(),
                         quaternion_[2]->value());
    if (q.norm() < 1e-9)
      q = Eigen::Quaterniond::Identity();  // all zeros: no rotation rather than NaN
    pose.linear() = q.normalized().toRotationMatrix();
  } else {
    pose.linear() = from_rpy(rpy_[0]->value() / kDegrees, rpy_[1]->value() / kDegrees,
                             rpy_[2]->value() / kDegrees);
  }
  return pose;
}

void GoalPanel::fields_edited() {
  if (updating_) return;
  const Pose edited = pose();
  // Keep the other orientation form in step with the one typed into (not the one being typed:
  // a half-typed quaternion must not be normalised under the user's fingers).
  updating_ = true;
  const Eigen::Quaterniond rotation(edited.linear());
  if (orientation_mode() == Orientation::Quaternion) {
    const Eigen::Vector3d rpy = to_rpy(edited.linear());
    for (int i = 0; i < 3; ++i) rpy_[i]->setValue(rpy[i] * kDegrees);
  } else {
    const double q[4] = {rotation.x(), rotation.y(), rotation.z(), rotation.w()};
    for (int i = 0; i < 4; ++i) quaternion_[i]->setValue(q[i]);
  }
  updating_ = false;
  emit poseEdited(edited);
}

void GoalPanel::move_goal_by_offset() {
  const Vector3 translation(offset_translation_[0]->value(), offset_translation_[1]->value(),
                            offset_translation_[2]->value());
  const Vector3 rpy(offset_rotation_[0]->value(), offset_rotation_[1]->value(),
                    offset_rotation_[2]->value());
  const auto axes = static_cast<OffsetAxes>(offset_axes_->currentData().toInt());
  const Pose moved = offset_pose(pose(), translation / 1000.0, rpy / kDegrees, axes);
  set_pose(moved);
  emit poseEdited(moved);
}

void GoalPanel::set_frame_name(const QString& base_link) {
  frame_label_->setText(base_link.isEmpty() ? tr("TCP goal")
                                            : tr("TCP goal in '%1'").arg(base_link));
}

void GoalPanel::set_orientation_mode(Orientation mode) {
  orientation_mode_->setCurrentIndex(static_cast<int>(mode));
}
GoalPanel::Orientation GoalPanel::orientation_mode() const {
  return static_cast<Orientation>(orientation_mode_->currentIndex());
}

void GoalPanel::set_local_frame(bool local) {
  const QSignalBlocker block(local_frame_);
  local_frame_->setChecked(local);
}
bool GoalPanel::local_frame() const {
  return local_frame_->isChecked();
}

void GoalPanel::set_collision_aware(bool on) {
  const QSignalBlocker block(collision_aware_);
  collision_aware_->setChecked(on);
}
bool GoalPanel::collision_aware() const {
  return collision_aware_->isChecked();
}

void GoalPanel::set_solution(int index, int count) {
  // Nothing solved yet (the goal is where the robot stands) is not a failure: the IK status line
  // names failures.
  solution_->setText(count > 0 ? tr("solution %1 of %2").arg(index + 1).arg(count) : QString());
  previous_->setEnabled(count > 1);
  next_->setEnabled(count > 1);
}
QString GoalPanel::solution_text() const {
  return solution_->text();
}

void GoalPanel::set_ik_status(const QString& text, bool failed) {
  status_->setText(text);
  status_->setStyleSheet(failed ? QStringLiteral("color: #d9433b;") : QString());
}
QString GoalPanel::ik_status() const {
  return status_->text();
}

}  // namespace kinetic::panels
