#include "panels/task_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/core/duration_text.hpp"
#include "panels/angle_units.hpp"

namespace kinetic::panels {

namespace {

constexpr double kMillimetres = 1000.0;
constexpr int kShownNotes = 3;  // the rest in the tooltip

QDoubleSpinBox* make_spin(double min, double max, int decimals, double step, const QString& suffix,
                          const QString& tip) {
  auto* spin = new QDoubleSpinBox;
  spin->setRange(min, max);
  spin->setDecimals(decimals);
  spin->setSingleStep(step);
  spin->setSuffix(suffix);
  spin->setKeyboardTracking(false);
  spin->setToolTip(tip);
  return spin;
}

// Heading about world Z of an orientation (the yaw of its extrinsic roll-pitch-yaw).
double heading(const Pose& pose) {
  return std::atan2(pose.linear()(1, 0), pose.linear()(0, 0));
}

// The link names typed into Touch links, separated by commas or spaces.
QStringList link_names(const QString& text) {
  return text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

Eigen::Matrix3d turn_z(double angle) {
  return Eigen::AngleAxisd(angle, Vector3::UnitZ()).toRotationMatrix();
}

}  // namespace

TaskPanel::TaskPanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  set_objects({});
}

void TaskPanel::build_ui() {
  // The setup scrolls on its own; why Plan is off, Plan, the result and the stages stay in sight
  // below it (the result was below the fold of the dock at 1280x800).
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 6);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* setup = new QWidget(scroll);
  auto* layout = new QVBoxLayout(setup);
  scroll->setWidget(setup);
  outer->addWidget(scroll, 1);
  reason_ = new QLabel(this);
  reason_->setWordWrap(true);
  reason_->setStyleSheet(QStringLiteral("color: #777777;"));

  layout->addWidget(make_pick_group());
  layout->addWidget(make_place_group());
  layout->addWidget(make_gripper_group());
  layout->addStretch(1);
  build_run_area(*outer);

  inputs_ = {object_,       place_[0],    place_[1],     place_[2], yaw_,
             yaw_steps_,    from_object_, move_in_view_, gripper_,  opening_,
             finger_depth_, touch_links_, approach_,     lift_};

  connect_controls();
}

QGroupBox* TaskPanel::make_pick_group() {
  auto* pick = new QGroupBox(tr("Pick"), this);
  auto* pick_form = new QFormLayout(pick);
  object_ = new QComboBox(pick);
  object_->setToolTip(
      tr("The scene object to pick up: boxes, cylinders and spheres can be grasped. Selecting one "
         "in the 3D view or the Scene panel chooses it here."));
  pick_form->addRow(tr("Object"), object_);
  object_info_ = new QLabel(pick);
  object_info_->setStyleSheet(QStringLiteral("color: #777777;"));
  pick_form->addRow(QString(), object_info_);
  missing_ = new QLabel(pick);
  missing_->setWordWrap(true);
  missing_->setTextFormat(Qt::PlainText);  // the name is the file's, not markup
  missing_->setStyleSheet(QStringLiteral("color: #b00020;"));
  missing_->hide();
  pick_form->addRow(QString(), missing_);
  return pick;
}

QGroupBox* TaskPanel::make_place_group() {
  auto* place = new QGroupBox(tr("Place at"), this);
  auto* place_form = new QFormLayout(place);
  const char* axes[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < 3; ++i) {
    place_[i] =
        make_spin(-10.0, 10.0, 4, 0.01, tr(" m"),
                  tr("Where the object's origin goes (world frame; a cylinder's or box's centre)"));
    place_form->addRow(QString::fromLatin1(axes[i]), place_[i]);
  }
  yaw_ = make_spin(-180.0, 180.0, 1, 15.0, QStringLiteral("°"),
                   tr("The object's heading when placed (about world Z); it keeps its tilt"));
  yaw_->setWrapping(true);
  place_form->addRow(tr("Yaw"), yaw_);
  yaw_steps_ = new QSpinBox(place);
  yaw_steps_->setRange(0, 72);
  yaw_steps_->setValue(PickPlaceRequest{}.place_yaw_steps);
  yaw_steps_->setToolTip(
      tr("Headings just as good as the yaw, tried after it: N turns the place pose in steps of "
         "360°/N (4: 90° steps, for a square or round part); 0 tries only the yaw given"));
  place_form->addRow(tr("Place rotations"), yaw_steps_);
  from_object_ = new QPushButton(tr("From object"), place);
  from_object_->setToolTip(
      tr("Copy the object's current position and heading, to edit only what changes"));
  move_in_view_ = new QPushButton(tr("Move in 3D view"), place);
  move_in_view_->setCheckable(true);
  move_in_view_->setToolTip(
      tr("The 3D view shows where the object goes (a violet ghost, while this panel is shown). "
         "While this is on, the view's gizmo moves that place instead of the goal: the arrows and "
         "squares move it, the ring turns its yaw. Clicking the ghost in the view turns this on, "
         "selecting an obstacle turns it off."));
  auto* place_buttons = new QHBoxLayout;
  place_buttons->addWidget(from_object_);
  place_buttons->addWidget(move_in_view_);
  place_form->addRow(QString(), place_buttons);
  return place;
}

QGroupBox* TaskPanel::make_gripper_group() {
  const PickPlaceRequest defaults;
  auto* gripper = new QGroupBox(tr("Gripper"), this);
  auto* gripper_form = new QFormLayout(gripper);
  gripper_ = new QComboBox(gripper);
  gripper_->addItem(tr("Parallel"), int(GripperSpec::Kind::Parallel));
  gripper_->addItem(tr("Suction"), int(GripperSpec::Kind::Suction));
  gripper_->setToolTip(
      tr("Parallel: two fingers close across the object along the TCP's y axis; Suction: a cup "
         "on a flat face"));
  gripper_form->addRow(tr("Type"), gripper_);
  opening_ =
      make_spin(1.0, 500.0, 1, 5.0, tr(" mm"), tr("The widest span the fingers can close on"));
  opening_->setValue(defaults.gripper.max_opening * kMillimetres);
  gripper_form->addRow(tr("Max opening"), opening_);
  finger_depth_ = make_spin(
      0.0, 200.0, 1, 5.0, tr(" mm"),
      tr("How far past the object's surface the TCP goes, between the fingertips; 0 for a "
         "flange or a magnet that holds the object on its surface"));
  finger_depth_->setValue(defaults.gripper.finger_depth * kMillimetres);
  gripper_form->addRow(tr("Finger depth"), finger_depth_);
  touch_links_ = new QLineEdit(gripper);
  touch_links_->setToolTip(
      tr("Robot links allowed to touch the held object besides the one holding it, separated "
         "by commas or spaces; empty: the links fixed to it and the gripper's. A bare flange "
         "needs the wrist link that ends there (UR5e: link6, link5)."));
  gripper_form->addRow(tr("Touch links"), touch_links_);
  approach_ = make_spin(
      0.0, 500.0, 0, 10.0, tr(" mm"),
      tr("Straight in along the grasp's approach from this stand-off, and back out after the "
         "release"));
  approach_->setValue(defaults.approach_distance * kMillimetres);
  gripper_form->addRow(tr("Approach / retreat"), approach_);
  lift_ = make_spin(0.0, 500.0, 0, 10.0, tr(" mm"),
                    tr("Straight up after grasping, and straight down onto the place pose"));
  lift_->setValue(defaults.lift_distance * kMillimetres);
  gripper_form->addRow(tr("Lift / lower"), lift_);
  return gripper;
}

void TaskPanel::build_run_area(QVBoxLayout& outer) {
  auto* run = new QVBoxLayout;
  run->setContentsMargins(9, 0, 9, 0);
  outer.addLayout(run);
  run->addWidget(reason_);
  auto* buttons = new QHBoxLayout;
  plan_ = new QPushButton(tr("Plan pick and place"), this);
  plan_tip_ =
      tr("Plan the whole task from the current joints, with the Planner panel's options: grasps "
         "are tried "
         "best first until one chain of moves succeeds");
  plan_->setToolTip(plan_tip_);
  cancel_ = new QPushButton(tr("Cancel"), this);
  buttons->addWidget(plan_, 1);
  buttons->addWidget(cancel_);
  run->addLayout(buttons);

  status_ = new ResultLabel(this);
  status_->setTextFormat(Qt::RichText);
  run->addWidget(status_);

  stages_ = new QTableWidget(0, 3, this);
  stages_->setHorizontalHeaderLabels({tr("Stage"), tr("Starts"), tr("Takes")});
  stages_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  stages_->verticalHeader()->hide();
  stages_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  stages_->setSelectionMode(QAbstractItemView::NoSelection);
  // A few rows, scrolling for more: the setup above keeps the height (the table's own wish left it
  // one row at 1280x800).
  stages_->setMinimumHeight(4 * stages_->fontMetrics().height() + 8);
  stages_->setMaximumHeight(7 * stages_->fontMetrics().height() + 8);
  run->addWidget(stages_);

  apply_ = new QPushButton(tr("Apply"), this);
  apply_->setToolTip(
      tr("Move the robot to where the task ends and the object to its place (one undo step)"));
  run->addWidget(apply_);
}

void TaskPanel::connect_controls() {
  connect(object_, &QComboBox::currentIndexChanged, this, [this] {
    const TaskObject* object = chosen();
    object_info_->setText(object ? object->description : QString());
    if (object) missing_object_.clear();  // another object chosen: the missing one is let go
    show_missing_object();
    set_move_in_view(false);  // it moved the other object's place
    if (!place_edited_) copy_place_from_object();
    settings_changed();
    emit placeChanged();
  });
  for (QDoubleSpinBox* spin : {place_[0], place_[1], place_[2], yaw_})
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this] {
      place_edited_ = true;
      settings_changed();
      emit placeChanged();
    });
  connect(from_object_, &QPushButton::clicked, this, [this] {
    copy_place_from_object();
    settings_changed();
    emit placeChanged();
  });
  connect(yaw_steps_, &QSpinBox::valueChanged, this, &TaskPanel::settings_changed);
  connect(gripper_, &QComboBox::currentIndexChanged, this, &TaskPanel::settings_changed);
  for (QDoubleSpinBox* spin : {opening_, finger_depth_, approach_, lift_})
    connect(spin, &QDoubleSpinBox::valueChanged, this, &TaskPanel::settings_changed);
  connect(touch_links_, &QLineEdit::textChanged, this, &TaskPanel::settings_changed);
  connect(move_in_view_, &QPushButton::toggled, this, &TaskPanel::moveInViewToggled);
  connect(gripper_, &QComboBox::currentIndexChanged, this, &TaskPanel::update_enabled);
  connect(plan_, &QPushButton::clicked, this, &TaskPanel::planRequested);
  connect(cancel_, &QPushButton::clicked, this, &TaskPanel::cancelRequested);
  connect(apply_, &QPushButton::clicked, this, &TaskPanel::applyRequested);
}

void TaskPanel::set_robot_available(bool available) {
  robot_available_ = available;
  update_enabled();
}

void TaskPanel::set_objects(const std::vector<TaskObject>& objects) {
  const QString keep = object();
  objects_ = objects;
  {
    const QSignalBlocker block(object_);
    object_->clear();
    for (const TaskObject& object : objects_) object_->addItem(object.name);
    if (missing_object_.isEmpty()) {
      object_->setCurrentIndex(std::max(0, object_->findText(keep)));
    } else {
      // The missing object is chosen as soon as the scene has it again; until then, none.
      object_->setCurrentIndex(object_->findText(missing_object_));
      if (object_->currentIndex() >= 0) missing_object_.clear();
    }
  }
  if (object() != keep) set_move_in_view(false);
  const TaskObject* object = chosen();
  object_info_->setText(object ? object->description : QString());
  show_missing_object();
  if (!place_edited_) copy_place_from_object();
  update_enabled();
  settings_changed();
}

void TaskPanel::select_object(const QString& name) {
  const int index = object_->findText(name);
  if (index >= 0) object_->setCurrentIndex(index);
}

void TaskPanel::set_place(const Vector3& position, double yaw) {
  for (std::size_t i = 0; i < 3; ++i) {
    const QSignalBlocker block(place_[i]);
    place_[i]->setValue(position[static_cast<Eigen::Index>(i)]);
  }
  const QSignalBlocker block(yaw_);
  yaw_->setValue(std::remainder(yaw * kDegrees, 360.0));
}

void TaskPanel::set_move_in_view(bool on) {
  move_in_view_->setChecked(on);
}

bool TaskPanel::move_in_view() const {
  return move_in_view_->isChecked();
}

void TaskPanel::request_move_in_view(bool on) {
  set_move_in_view(on && move_in_view_->isEnabled());
}

void TaskPanel::move_place(const Pose& pose) {
  set_place(pose.translation(), heading(pose));
  place_edited_ = true;
  settings_changed();
  emit placeChanged();
}

void TaskPanel::set_default_touch_links(const QStringList& links) {
  touch_links_->setPlaceholderText(
      links.isEmpty() ? tr("none") : tr("default: %1").arg(links.join(QStringLiteral(", "))));
}

QString TaskPanel::object() const {
  return object_->currentText();
}

const TaskObject* TaskPanel::chosen() const {
  const int index = object_->currentIndex();
  return index >= 0 && index < static_cast<int>(objects_.size())
             ? &objects_[static_cast<std::size_t>(index)]
             : nullptr;
}

void TaskPanel::copy_place_from_object() {
  if (const TaskObject* object = chosen())
    set_place(object->pose.translation(), heading(object->pose));
}

PickPlaceRequest TaskPanel::request() const {
  PickPlaceRequest request;
  request.object = object().toStdString();
  // The object keeps its tilt (a cylinder lying down stays down); the yaw turns it about world Z.
  const TaskObject* object = chosen();
  const Eigen::Matrix3d tilt =
      object ? Eigen::Matrix3d(turn_z(-heading(object->pose)) * object->pose.linear())
             : Eigen::Matrix3d::Identity();
  request.place_pose = Pose::Identity();
  request.place_pose.linear() = turn_z(yaw_->value() / kDegrees) * tilt;
  request.place_pose.translation() =
      Vector3(place_[0]->value(), place_[1]->value(), place_[2]->value());
  request.place_yaw_steps = yaw_steps_->value();
  request.gripper.kind = static_cast<GripperSpec::Kind>(gripper_->currentData().toInt());
  request.gripper.max_opening = opening_->value() / kMillimetres;
  request.gripper.finger_depth = finger_depth_->value() / kMillimetres;
  // Empty: left out, the engine's default (shown as the placeholder).
  const QStringList links = link_names(touch_links_->text());
  if (!links.isEmpty()) {
    request.touch_links.emplace();
    for (const QString& link : links) request.touch_links->push_back(link.toStdString());
  }
  request.approach_distance = request.retreat_distance = approach_->value() / kMillimetres;
  request.lift_distance = request.place_distance = lift_->value() / kMillimetres;
  return request;
}

TaskSettings TaskPanel::settings() const {
  TaskSettings s;
  s.object = missing_object_.isEmpty() ? object() : missing_object_;
  for (std::size_t i = 0; i < 3; ++i) s.place_position[i] = place_[i]->value();
  s.place_yaw = yaw_->value() / kDegrees;
  s.place_follows_object = !place_edited_;
  s.place_yaw_steps = yaw_steps_->value();
  s.gripper = static_cast<GripperSpec::Kind>(gripper_->currentData().toInt());
  s.max_opening = opening_->value() / kMillimetres;
  s.finger_depth = finger_depth_->value() / kMillimetres;
  s.touch_links = link_names(touch_links_->text());
  s.approach_distance = approach_->value() / kMillimetres;
  s.lift_distance = lift_->value() / kMillimetres;
  return s;
}

void TaskPanel::set_settings(const TaskSettings& s) {
  applying_settings_ = true;
  const QString was = object();
  {
    // Chosen without the user's side effects (the place is set below, not copied from the object).
    const QSignalBlocker block(object_);
    const int index =
        s.object.isEmpty() ? (objects_.empty() ? -1 : 0) : object_->findText(s.object);
    object_->setCurrentIndex(index);
    missing_object_ = index < 0 ? s.object : QString();
  }
  if (object() != was) set_move_in_view(false);
  const TaskObject* object = chosen();
  object_info_->setText(object ? object->description : QString());
  show_missing_object();
  place_edited_ = !s.place_follows_object;
  set_place(Vector3(s.place_position[0], s.place_position[1], s.place_position[2]), s.place_yaw);
  if (!place_edited_) copy_place_from_object();
  yaw_steps_->setValue(s.place_yaw_steps);
  gripper_->setCurrentIndex(std::max(0, gripper_->findData(int(s.gripper))));
  opening_->setValue(s.max_opening * kMillimetres);
  finger_depth_->setValue(s.finger_depth * kMillimetres);
  touch_links_->setText(s.touch_links.join(QStringLiteral(", ")));
  approach_->setValue(s.approach_distance * kMillimetres);
  lift_->setValue(s.lift_distance * kMillimetres);
  applying_settings_ = false;
  update_enabled();
  emit placeChanged();
}

void TaskPanel::show_missing_object() {
  missing_->setText(
      missing_object_.isEmpty()
          ? QString()
          : tr("'%1' is not in the scene. It is kept and chosen again when the scene has an object "
               "of that name; choose another object to pick that one instead.")
                .arg(missing_object_));
  missing_->setVisible(!missing_object_.isEmpty());
}

void TaskPanel::settings_changed() {
  if (!applying_settings_) emit settingsChanged();
}

void TaskPanel::set_running(bool running) {
  running_ = running;
  update_enabled();
}

void TaskPanel::show_result(const TaskSummary& s, const std::vector<TaskStageRow>& stages) {
  const QString tried =
      s.grasps_tried == 1 ? tr("1 grasp tried") : tr("%1 grasps tried").arg(s.grasps_tried);
  QString text = tr("<b>Picked '%1'</b> %2, placed at yaw %3° (%4).<br>Planned in %5 (seed %6); "
                    "the motion takes "
                    "%7 s.")
                     .arg(s.object.toHtmlEscaped(), s.grasp.toHtmlEscaped())
                     .arg(std::remainder(s.place_yaw * kDegrees, 360.0), 0, 'f', 0)
                     .arg(tried)
                     .arg(QString::fromStdString(duration_text(s.planning_ms)))
                     .arg(s.seed)
                     .arg(s.duration, 0, 'f', 2);
  for (int i = 0; i < std::min(kShownNotes, static_cast<int>(s.notes.size())); ++i)
    text += QStringLiteral("<br><i>%1</i>").arg(s.notes[i].toHtmlEscaped());
  if (s.notes.size() > kShownNotes)
    text += tr("<br><i>… and %1 more (hover to read)</i>").arg(s.notes.size() - kShownNotes);
  status_->show_result(text);
  status_->setToolTip(s.notes.join(QLatin1Char('\n')));
  stages_->setRowCount(static_cast<int>(stages.size()));
  for (int row = 0; row < static_cast<int>(stages.size()); ++row) {
    const TaskStageRow& stage = stages[static_cast<std::size_t>(row)];
    stages_->setItem(row, 0,
                     new QTableWidgetItem(QStringLiteral("%1. %2").arg(row + 1).arg(stage.name)));
    stages_->setItem(row, 1,
                     new QTableWidgetItem(QStringLiteral("%1 s").arg(stage.start, 0, 'f', 2)));
    stages_->setItem(row, 2,
                     new QTableWidgetItem(QStringLiteral("%1 s").arg(stage.duration, 0, 'f', 2)));
    for (int column : {1, 2})
      stages_->item(row, column)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
}

void TaskPanel::show_failure(const QString& why, const QString& fix) {
  QString text = tr("<b>Planning failed:</b> %1").arg(why.toHtmlEscaped());
  if (!fix.isEmpty()) text += tr("<br><b>Try:</b> %1").arg(fix.toHtmlEscaped());
  status_->show_result(text, ResultLabel::Tone::Error);
  status_->setToolTip({});
  stages_->setRowCount(0);
}

void TaskPanel::show_message(const QString& text) {
  status_->show_result(text.toHtmlEscaped());
  status_->setToolTip({});
}

void TaskPanel::set_apply_available(bool available) {
  apply_available_ = available;
  update_enabled();
}

void TaskPanel::update_enabled() {
  QString reason;
  if (!robot_available_)
    reason = tr("Load a robot to plan pick-and-place tasks.");
  else if (objects_.empty())
    reason =
        tr("Nothing to pick: add a box, cylinder or sphere to the scene (Scene panel → Add) or "
           "load a scene.");
  reason_->setText(reason);
  reason_->setVisible(!reason.isEmpty());
  const bool usable = reason.isEmpty();
  for (QWidget* input : inputs_) input->setEnabled(usable && !running_);
  if (!move_in_view_->isEnabled()) set_move_in_view(false);  // no dragging what cannot be planned
  const bool fingers = gripper_->currentData().toInt() == int(GripperSpec::Kind::Parallel);
  opening_->setEnabled(usable && !running_ && fingers);
  finger_depth_->setEnabled(usable && !running_ && fingers);
  plan_->setEnabled(usable && !running_);
  plan_->setToolTip(usable ? plan_tip_ : reason);
  cancel_->setEnabled(running_);
  apply_->setEnabled(usable && !running_ && apply_available_);
}

}  // namespace kinetic::panels
