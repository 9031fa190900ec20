#include "panels/scene_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <numbers>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/scene/scene_merge.hpp"
#include "engine/scene/scene_meshes.hpp"
#include "engine/task/pick_place.hpp"
#include "panels/allowed_contacts_group.hpp"
#include "panels/angle_units.hpp"
#include "panels/file_dialog_folders.hpp"

namespace kinetic::panels {

namespace {

// A copy of `scene` in which the object `target` went through `edit_obstacle` or `edit_attached`
// (which may rename it); list order and pair overrides are kept, overrides follow a new name.
// Throws Error(InvalidValue) when the edit makes the scene invalid (a taken name, a bad size).
PlanningScene rebuilt(const PlanningScene& scene, const std::string& target,
                      const std::function<void(Obstacle&)>& edit_obstacle,
                      const std::function<void(AttachedObject&)>& edit_attached) {
  PlanningScene out;
  std::string new_name = target;
  for (Obstacle obstacle : scene.obstacles()) {
    if (obstacle.name == target) {
      edit_obstacle(obstacle);
      new_name = obstacle.name;
    }
    out.add_obstacle(obstacle.name, obstacle.shape, obstacle.pose);
  }
  for (AttachedObject object : scene.attached_objects()) {
    if (object.name == target) {
      edit_attached(object);
      new_name = object.name;
    }
    out.add_attached(object);
  }
  const auto renamed = [&](const std::string& name) { return name == target ? new_name : name; };
  for (const auto& [pair, allowed] : scene.overrides()) {
    if (allowed)
      out.allow(renamed(pair.first), renamed(pair.second));
    else
      out.disallow(renamed(pair.first), renamed(pair.second));
  }
  return out;
}

QString shape_description(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Box:
      return QStringLiteral("box %1 × %2 × %3 m")
          .arg(shape.box_size.x(), 0, 'g', 3)
          .arg(shape.box_size.y(), 0, 'g', 3)
          .arg(shape.box_size.z(), 0, 'g', 3);
    case Shape::Type::Cylinder:
      return QStringLiteral("cylinder r %1, l %2 m")
          .arg(shape.radius, 0, 'g', 3)
          .arg(shape.length, 0, 'g', 3);
    case Shape::Type::Sphere:
      return QStringLiteral("sphere r %1 m").arg(shape.radius, 0, 'g', 3);
    case Shape::Type::Mesh:
      return QStringLiteral("mesh %1").arg(
          QFileInfo(QString::fromStdString(shape.mesh_path)).fileName());
    case Shape::Type::HalfSpace:
      return QStringLiteral("half-space");
  }
  return {};
}

QDoubleSpinBox* make_spin(QWidget* parent, double min, double max, int decimals, double step,
                          const QString& suffix) {
  auto* spin = new QDoubleSpinBox(parent);
  spin->setRange(min, max);
  spin->setDecimals(decimals);
  spin->setSingleStep(step);
  spin->setSuffix(suffix);
  spin->setKeyboardTracking(false);  // one edit per typed number, not per keystroke
  return spin;
}

void set_if_different(QDoubleSpinBox* spin, double value) {
  if (std::abs(spin->value() - value) > 0.5 * std::pow(10.0, -spin->decimals()))
    spin->setValue(value);
}

}  // namespace

ScenePanel::ScenePanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  refresh_editors();
}

void ScenePanel::build_ui() {
  auto* layout = new QVBoxLayout(this);

  auto* buttons = new QHBoxLayout;
  auto* add = new QToolButton(this);
  add->setText(tr("Add"));
  add->setPopupMode(QToolButton::InstantPopup);
  auto* add_menu = new QMenu(add);
  add_menu->addAction(tr("Box"), this, [this] { add_primitive(Shape::Type::Box); });
  add_menu->addAction(tr("Cylinder"), this, [this] { add_primitive(Shape::Type::Cylinder); });
  add_menu->addAction(tr("Sphere"), this, [this] { add_primitive(Shape::Type::Sphere); });
  add_menu->addAction(tr("Mesh file…"), this, &ScenePanel::choose_mesh);
  add_menu->addAction(tr("Objects from a scene file…"), this, &ScenePanel::choose_add_file);
  add_menu->addAction(tr("Copy of the selected object"), this, [this] { duplicate_selected(); });
  add->setMenu(add_menu);
  buttons->addWidget(add);
  delete_ = new QPushButton(tr("Delete"), this);
  connect(delete_, &QPushButton::clicked, this, [this] { delete_selected(); });
  buttons->addWidget(delete_);
  auto* save = new QPushButton(tr("Save…"), this);
  save->setToolTip(tr("Save the scene to a file"));
  connect(save, &QPushButton::clicked, this, &ScenePanel::choose_save_file);
  buttons->addWidget(save);
  auto* load = new QPushButton(tr("Load…"), this);
  load->setToolTip(tr("Replace the scene with one from a file"));
  connect(load, &QPushButton::clicked, this, &ScenePanel::choose_load_file);
  buttons->addWidget(load);
  layout->addLayout(buttons);

  list_ = new QListWidget(this);
  list_->installEventFilter(this);  // the Delete key (eventFilter)
  connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (updating_) return;
    selected_ = item ? item->data(Qt::UserRole).toString() : QString();
    refresh_editors();
    emit selectionEdited(selected_);
  });
  layout->addWidget(list_, 1);

  editor_ = new QWidget(this);
  auto* form = new QGridLayout(editor_);
  form->setContentsMargins(0, 0, 0, 0);
  int row = 0;
  form->addWidget(new QLabel(tr("Name"), editor_), row, 0);
  name_ = new QLineEdit(editor_);
  connect(name_, &QLineEdit::editingFinished, this, [this] {
    if (!updating_ && name_->text() != selected_) rename_selected(name_->text());
  });
  form->addWidget(name_, row, 1, 1, 3);
  kind_ = new QLabel(editor_);
  form->addWidget(kind_, ++row, 1, 1, 3);
  ++row;
  for (int i = 0; i < 3; ++i) {
    size_label_[i] = new QLabel(editor_);
    size_[i] = make_spin(editor_, 0.001, 100.0, 3, 0.01, QStringLiteral(" m"));
    connect(size_[i], &QDoubleSpinBox::valueChanged, this, [this] { on_size_edited(); });
  }
  form->addWidget(new QLabel(tr("Size"), editor_), row, 0);
  for (int i = 0; i < 3; ++i) {
    auto* cell = new QVBoxLayout;
    cell->addWidget(size_label_[i]);
    cell->addWidget(size_[i]);
    form->addLayout(cell, row, 1 + i);
  }
  pose_frame_ = new QLabel(editor_);
  form->addWidget(pose_frame_, ++row, 0, 1, 4);
  form->addWidget(new QLabel(tr("Position"), editor_), ++row, 0);
  for (int i = 0; i < 3; ++i) {
    position_[i] = make_spin(editor_, -100.0, 100.0, 3, 0.01, QStringLiteral(" m"));
    connect(position_[i], &QDoubleSpinBox::valueChanged, this, [this] { on_pose_edited(); });
    form->addWidget(position_[i], row, 1 + i);
  }
  form->addWidget(new QLabel(tr("Roll/pitch/yaw"), editor_), ++row, 0);
  for (int i = 0; i < 3; ++i) {
    rpy_[i] = make_spin(editor_, -180.0, 180.0, 1, 5.0, QStringLiteral("°"));
    rpy_[i]->setWrapping(true);
    connect(rpy_[i], &QDoubleSpinBox::valueChanged, this, [this] { on_pose_edited(); });
    form->addWidget(rpy_[i], row, 1 + i);
  }
  form->addWidget(new QLabel(tr("Link"), editor_), ++row, 0);
  link_ = new QComboBox(editor_);
  link_->setToolTip(tr("Robot link to attach the selected obstacle to"));
  form->addWidget(link_, row, 1);
  attach_ = new QPushButton(tr("Attach"), editor_);
  connect(attach_, &QPushButton::clicked, this, [this] { attach_selected(link_->currentText()); });
  form->addWidget(attach_, row, 2);
  detach_ = new QPushButton(tr("Detach"), editor_);
  connect(detach_, &QPushButton::clicked, this, [this] { detach_selected(); });
  form->addWidget(detach_, row, 3);
  layout->addWidget(editor_);

  allowed_ = new AllowedContactsGroup(this);
  connect(allowed_, &AllowedContactsGroup::removeRequested, this,
          [this](const QString& a, const QString& b) { remove_allowed(a, b); });
  layout->addWidget(allowed_);

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #c0392b"));
  message_->hide();
  layout->addWidget(message_);
}

void ScenePanel::set_robot(RobotModelPtr robot) {
  robot_ = std::move(robot);
  joints_ = robot_ ? robot_->zero_configuration() : JointVector();
  const QSignalBlocker block(link_);
  link_->clear();
  if (!robot_) return;
  for (const Link& link : robot_->links()) link_->addItem(QString::fromStdString(link.name));
  // Objects are usually attached to the tool: preselect the end effector's link.
  const auto& effectors = robot_->config().end_effectors;
  const std::string tool =
      effectors.empty() ? robot_->links().back().name : effectors.front().parent_link;
  link_->setCurrentText(QString::fromStdString(tool));
}

void ScenePanel::set_joints(const JointVector& q) {
  if (robot_ && q.size() == robot_->dof()) joints_ = q;
}

void ScenePanel::set_scene(const PlanningScene& scene) {
  scene_ = scene;
  const std::string name = selected_.toStdString();
  if (!selected_.isEmpty() && !scene_.has_obstacle(name) && !scene_.has_attached(name))
    selected_.clear();
  refresh_list();
  refresh_editors();
}

void ScenePanel::set_selected(const QString& name) {
  if (name == selected_) return;
  selected_ = name;
  refresh_list();
  refresh_editors();
}

void ScenePanel::refresh_list() {
  updating_ = true;
  list_->clear();
  const auto add_item = [this](const std::string& name, const QString& text) {
    auto* item = new QListWidgetItem(text, list_);
    item->setData(Qt::UserRole, QString::fromStdString(name));
    if (QString::fromStdString(name) == selected_) list_->setCurrentItem(item);
  };
  for (const Obstacle& o : scene_.obstacles())
    add_item(o.name, QStringLiteral("%1 — %2").arg(QString::fromStdString(o.name),
                                                   shape_description(o.shape)));
  for (const AttachedObject& a : scene_.attached_objects())
    add_item(a.name, tr("%1 — %2, on %3")
                         .arg(QString::fromStdString(a.name), shape_description(a.shape),
                              QString::fromStdString(a.link)));
  updating_ = false;
  allowed_->set_scene(scene_);
}

void ScenePanel::refresh_editors() {
  const std::string name = selected_.toStdString();
  const bool is_obstacle = scene_.has_obstacle(name);
  const bool is_attached = scene_.has_attached(name);
  editor_->setEnabled(is_obstacle || is_attached);
  delete_->setEnabled(is_obstacle || is_attached);
  attach_->setEnabled(is_obstacle && robot_ != nullptr);
  detach_->setEnabled(is_attached && robot_ != nullptr);
  if (!is_obstacle && !is_attached) {
    kind_->setText(tr("Select an object, or add one."));
    return;
  }
  const Shape& shape = is_obstacle ? scene_.obstacle(name).shape : scene_.attached(name).shape;
  const Pose& pose = is_obstacle ? scene_.obstacle(name).pose : scene_.attached(name).pose;

  updating_ = true;
  if (name_->text() != selected_) name_->setText(selected_);
  kind_->setText(shape_description(shape));
  pose_frame_->setText(is_obstacle ? tr("Pose in the world frame")
                                   : tr("Pose in the frame of link %1")
                                         .arg(QString::fromStdString(scene_.attached(name).link)));
  std::array<QString, 3> labels;
  std::array<double, 3> sizes{0.0, 0.0, 0.0};
  switch (shape.type) {
    case Shape::Type::Box:
      labels = {tr("x"), tr("y"), tr("z")};
      sizes = {shape.box_size.x(), shape.box_size.y(), shape.box_size.z()};
      break;
    case Shape::Type::Cylinder:
      labels = {tr("radius"), tr("length"), QString()};
      sizes = {shape.radius, shape.length, 0.0};
      break;
    case Shape::Type::Sphere:
      labels = {tr("radius"), QString(), QString()};
      sizes = {shape.radius, 0.0, 0.0};
      break;
    case Shape::Type::Mesh:
      labels = {tr("scale x"), tr("scale y"), tr("scale z")};
      sizes = {shape.mesh_scale.x(), shape.mesh_scale.y(), shape.mesh_scale.z()};
      break;
    case Shape::Type::HalfSpace:
      break;
  }
  for (int i = 0; i < 3; ++i) {
    const bool used = !labels[i].isEmpty();
    size_label_[i]->setText(labels[i]);
    size_label_[i]->setVisible(used);
    size_[i]->setVisible(used);
    size_[i]->setSuffix(shape.type == Shape::Type::Mesh ? QString() : QStringLiteral(" m"));
    if (used) set_if_different(size_[i], sizes[i]);
  }
  // Keep the typed angles when they already describe this pose (rpy has several equivalents).
  Vector3 typed_xyz, typed_rpy;
  for (int i = 0; i < 3; ++i) {
    typed_xyz[i] = position_[i]->value();
    typed_rpy[i] = rpy_[i]->value() / kDegrees;
  }
  const Pose typed = pose_from_xyz_rpy(typed_xyz, typed_rpy);
  if (!typed.isApprox(pose, 1e-6)) {
    const Vector3 rpy = rpy_from_rotation(pose.linear());
    for (int i = 0; i < 3; ++i) {
      set_if_different(position_[i], pose.translation()[i]);
      set_if_different(rpy_[i], rpy[i] * kDegrees);
    }
  }
  updating_ = false;
}

QString ScenePanel::fail(const QString& message) {
  last_error_ = message;
  note_.clear();
  message_->setText(message);
  message_->show();
  emit errorOccurred(message);
  return message;
}

QString ScenePanel::apply(const PlanningScene& next, const QString& what, const QString& select) {
  last_error_.clear();
  note_.clear();
  message_->hide();
  scene_ = next;
  const bool selection_changed = select != selected_;
  selected_ = select;
  refresh_list();
  refresh_editors();
  // Selection first: the owner's scene update may otherwise drop a selection it does not know yet.
  if (selection_changed) emit selectionEdited(select);
  emit sceneEdited(next, what);
  return {};
}

QString ScenePanel::remove_allowed(const QString& a, const QString& b) {
  if (scene_.override_for(a.toStdString(), b.toStdString()) != true)
    return fail(tr("%1 and %2 are not an allowed pair of this scene.").arg(a, b));
  PlanningScene next = scene_;
  next.clear_override(a.toStdString(), b.toStdString());
  return apply(next, tr("Remove allowed %1 – %2").arg(a, b), selected_);
}

bool ScenePanel::is_link_name(const std::string& name) const {
  return robot_ && robot_->find_link(name) >= 0;
}

QString ScenePanel::unique_name(const QString& stem) const {
  for (int n = 1;; ++n) {
    const QString candidate = stem + QString::number(n);
    const std::string name = candidate.toStdString();
    if (!scene_.has_obstacle(name) && !scene_.has_attached(name) && !is_link_name(name))
      return candidate;
  }
}

Vector3 ScenePanel::spot_in_front(double half_height) const {
  // Half the robot's stretched-out size ahead of it (+x), standing on the floor; later objects
  // step sideways so they do not all land in one place.
  double reach = 1.0;
  if (robot_) {
    double extent = 0.0;
    for (const Pose& pose : compute_link_poses(*robot_, robot_->zero_configuration()))
      extent = std::max(extent, pose.translation().norm());
    if (extent > 0.0) reach = extent;
  }
  static constexpr std::array<double, 5> kSideways{0.0, 0.25, -0.25, 0.5, -0.5};
  const double y = kSideways[scene_.obstacles().size() % kSideways.size()];
  return {std::clamp(0.5 * reach, 0.3, 1.2), y, half_height};
}

QString ScenePanel::add_primitive(Shape::Type type) {
  Shape shape;
  QString stem;
  double half_height = 0.0;
  switch (type) {
    case Shape::Type::Box:
      shape = Shape::box({0.2, 0.2, 0.2});
      stem = QStringLiteral("box");
      half_height = 0.1;
      break;
    case Shape::Type::Cylinder:
      shape = Shape::cylinder(0.05, 0.3);
      stem = QStringLiteral("cylinder");
      half_height = 0.15;
      break;
    case Shape::Type::Sphere:
      shape = Shape::sphere(0.1);
      stem = QStringLiteral("sphere");
      half_height = 0.1;
      break;
    default:
      return fail(
          tr("Only boxes, cylinders and spheres can be added this way; use Add → Mesh file for "
             "meshes."));
  }
  const QString name = unique_name(stem);
  Pose pose = Pose::Identity();
  pose.translation() = spot_in_front(half_height);
  PlanningScene next = scene_;
  try {
    next.add_obstacle(name.toStdString(), shape, pose);
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  return apply(next, tr("Add %1").arg(name), name);
}

QString ScenePanel::add_mesh(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  std::shared_ptr<const CollisionMesh> mesh;
  try {
    mesh = load_collision_mesh(absolute.toStdString());
  } catch (const Error& error) {
    return fail(tr("Could not add the mesh: %1").arg(QString::fromStdString(error.what())));
  }
  double min_z = 0.0;
  for (const Vector3& v : mesh->vertices) min_z = std::min(min_z, v.z());
  const QString stem =
      QFileInfo(path).completeBaseName().replace(QLatin1Char(' '), QLatin1Char('_'));
  const QString name = unique_name(stem.isEmpty() ? QStringLiteral("mesh") : stem);
  Pose pose = Pose::Identity();
  pose.translation() = spot_in_front(-min_z);  // its lowest point on the floor
  PlanningScene next = scene_;
  try {
    next.add_obstacle(name.toStdString(), Shape::mesh(absolute.toStdString()), pose);
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  const QString result = apply(next, tr("Add %1").arg(name), name);
  // CAD exports in millimetres read as metres come out a thousand times too large: say so, with
  // the fix (the mesh is added as read: a large environment scan is that size).
  const double extent = mesh_extent(*mesh);
  if (result.isEmpty() && extent > kLargestPlausibleMesh)
    show_note(
        tr("'%1' is %2 m across as read. If it was drawn in millimetres, set its scale (Size) to "
           "0.001 on every axis.")
            .arg(name)
            .arg(extent, 0, 'f', 1));
  return result;
}

void ScenePanel::show_note(const QString& text) {
  note_ = text;
  message_->setText(text);
  message_->show();
}

QString ScenePanel::rename_selected(const QString& wanted) {
  const QString name = wanted.trimmed();
  if (selected_.isEmpty()) return fail(tr("Select an object to rename."));
  if (name == selected_) return {};
  if (name.isEmpty()) {
    refresh_editors();
    return fail(tr("An object needs a name."));
  }
  const std::string new_name = name.toStdString();
  // The checker keeps pairs by name: an object named like a link would be refused
  // (collision_checker.cpp).
  if (is_link_name(new_name)) {
    name_->setText(selected_);
    return fail(tr("'%1' is the name of one of the robot's links; choose another name.").arg(name));
  }
  try {
    const PlanningScene next = rebuilt(
        scene_, selected_.toStdString(), [&](Obstacle& o) { o.name = new_name; },
        [&](AttachedObject& a) { a.name = new_name; });
    return apply(next, tr("Rename %1 to %2").arg(selected_, name), name);
  } catch (const Error&) {
    name_->setText(selected_);
    return fail(tr("The name '%1' is already used by another object.").arg(name));
  }
}

QString ScenePanel::delete_selected() {
  const std::string name = selected_.toStdString();
  if (!scene_.has_obstacle(name) && !scene_.has_attached(name))
    return fail(tr("Select an object to delete."));
  PlanningScene out;
  for (const Obstacle& o : scene_.obstacles())
    if (o.name != name) out.add_obstacle(o.name, o.shape, o.pose);
  for (const AttachedObject& a : scene_.attached_objects())
    if (a.name != name) out.add_attached(a);
  for (const auto& [pair, allowed] : scene_.overrides()) {
    if (pair.first == name || pair.second == name) continue;
    if (allowed)
      out.allow(pair.first, pair.second);
    else
      out.disallow(pair.first, pair.second);
  }
  return apply(out, tr("Delete %1").arg(selected_), QString());
}

Pose ScenePanel::link_pose(const std::string& link) const {
  const JointVector q = joints_.size() == robot_->dof() ? joints_ : robot_->zero_configuration();
  return compute_link_pose(*robot_, q, link);
}

QString ScenePanel::attach_selected(const QString& link) {
  if (!robot_) return fail(tr("Load a robot before attaching objects."));
  const std::string name = selected_.toStdString();
  if (!scene_.has_obstacle(name)) return fail(tr("Select an obstacle to attach."));
  PlanningScene next = scene_;
  std::vector<std::string> touch;
  try {
    // What a pick and place lets touch the object it holds (the links fixed to `link`, a gripper's
    // hand and fingers, the wrist body whose housing ends in a bare flange): without them a part
    // held flush on the tool is in collision at once and every plan fails with "start in
    // collision".
    const CollisionChecker checker(robot_);
    touch = task_touch_links(checker, joints_, link.toStdString(), robot_->group_variables());
    next.attach_obstacle(name, link.toStdString(), link_pose(link.toStdString()), touch);
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  const QString attached = selected_;
  const QString result = apply(next, tr("Attach %1 to %2").arg(selected_, link), selected_);
  if (result.isEmpty() && !touch.empty()) {
    QStringList names;
    for (const std::string& touching : touch) names << QString::fromStdString(touching);
    show_note(tr("'%1' may touch %2 besides %3 (the links that hold it).")
                  .arg(attached, names.join(QStringLiteral(", ")), link));
  }
  return result;
}

QString ScenePanel::detach_selected() {
  if (!robot_) return fail(tr("Load a robot before detaching objects."));
  const std::string name = selected_.toStdString();
  if (!scene_.has_attached(name)) return fail(tr("Select an attached object to detach."));
  PlanningScene next = scene_;
  try {
    next.detach(name, link_pose(scene_.attached(name).link));
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  return apply(next, tr("Detach %1").arg(selected_), selected_);
}

void ScenePanel::on_size_edited() {
  if (updating_) return;
  const std::string name = selected_.toStdString();
  const auto resize = [this](Shape& shape) {
    switch (shape.type) {
      case Shape::Type::Box:
        shape.box_size = {size_[0]->value(), size_[1]->value(), size_[2]->value()};
        break;
      case Shape::Type::Cylinder:
        shape.radius = size_[0]->value();
        shape.length = size_[1]->value();
        break;
      case Shape::Type::Sphere:
        shape.radius = size_[0]->value();
        break;
      case Shape::Type::Mesh:
        shape.mesh_scale = {size_[0]->value(), size_[1]->value(), size_[2]->value()};
        break;
      case Shape::Type::HalfSpace:
        break;
    }
  };
  try {
    const PlanningScene next = rebuilt(
        scene_, name, [&](Obstacle& o) { resize(o.shape); },
        [&](AttachedObject& a) { resize(a.shape); });
    apply(next, tr("Resize %1").arg(selected_), selected_);
  } catch (const Error& error) {
    fail(QString::fromStdString(error.what()));
    refresh_editors();
  }
}

void ScenePanel::on_pose_edited() {
  if (updating_) return;
  Vector3 xyz, rpy;
  for (int i = 0; i < 3; ++i) {
    xyz[i] = position_[i]->value();
    rpy[i] = rpy_[i]->value() / kDegrees;
  }
  const Pose pose = pose_from_xyz_rpy(xyz, rpy);
  try {
    const PlanningScene next = rebuilt(
        scene_, selected_.toStdString(), [&](Obstacle& o) { o.pose = pose; },
        [&](AttachedObject& a) { a.pose = pose; });
    apply(next, tr("Move %1").arg(selected_), selected_);
  } catch (const Error& error) {
    fail(QString::fromStdString(error.what()));
  }
}

QString ScenePanel::save_scene_file(const QString& path) {
  try {
    save_scene(scene_, path.toStdString());
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  last_error_.clear();
  message_->hide();
  return {};
}

QString ScenePanel::read_scene_file(const QString& path, PlanningScene& next) const {
  // A folder reads as an empty file, which would be reported as malformed JSON.
  if (QFileInfo(path).isDir())
    return tr("%1 is a folder; choose a scene file (.json, or MoveIt's .yaml / .scene).").arg(path);
  try {
    next = load_scene(path.toStdString());
  } catch (const Error& error) {
    return QString::fromStdString(error.what());
  }
  // Mesh objects are read now, as Add mesh does: a missing or unreadable mesh would otherwise load
  // silently and only fail the next plan.
  if (const auto problems = unreadable_scene_meshes(next); !problems.empty())
    return tr("%1: object '%2': %3\nPut the mesh back or correct its path in the scene file.")
        .arg(path, QString::fromStdString(problems.front().object),
             QString::fromStdString(problems.front().message));
  if (robot_) {
    const auto named_like_a_link = [&](const std::string& name) {
      return tr("%1: object '%2' has the name of a link of robot '%3'; rename it in the scene "
                "file.")
          .arg(path, QString::fromStdString(name), QString::fromStdString(robot_->name()));
    };
    for (const Obstacle& obstacle : next.obstacles())
      if (is_link_name(obstacle.name)) return named_like_a_link(obstacle.name);
    for (const AttachedObject& object : next.attached_objects())
      if (is_link_name(object.name)) return named_like_a_link(object.name);
    for (const AttachedObject& object : next.attached_objects())
      if (robot_->find_link(object.link) < 0)
        return tr("%1: attached object '%2' is on link '%3', which robot '%4' does not have.")
            .arg(path, QString::fromStdString(object.name), QString::fromStdString(object.link),
                 QString::fromStdString(robot_->name()));
  }
  return {};
}

QString ScenePanel::load_scene_file(const QString& path) {
  PlanningScene next;
  if (const QString problem = read_scene_file(path, next); !problem.isEmpty())
    return fail(tr("The scene was not changed. %1").arg(problem));
  return apply(next, tr("Load scene %1").arg(QFileInfo(path).fileName()), QString());
}

QString ScenePanel::add_scene_file(const QString& path) {
  PlanningScene extra;
  if (const QString problem = read_scene_file(path, extra); !problem.isEmpty())
    return fail(tr("Nothing was added. %1").arg(problem));
  if (extra.empty()) return fail(tr("Nothing was added: %1 holds no objects.").arg(path));
  PlanningScene next = scene_;
  SceneRenames renames;
  try {
    renames =
        merge_scene(next, extra, [this](const std::string& name) { return is_link_name(name); });
  } catch (const Error& error) {
    return fail(tr("Nothing was added. %1").arg(QString::fromStdString(error.what())));
  }
  const QString file = QFileInfo(path).fileName();
  const QString first = extra.obstacles().empty()
                            ? QString()
                            : QString::fromStdString(extra.obstacles().front().name);
  QString selected = first;
  for (const auto& [from, to] : renames)
    if (QString::fromStdString(from) == first) selected = QString::fromStdString(to);
  const QString result = apply(next, tr("Add objects from %1").arg(file), selected);
  if (result.isEmpty() && !renames.empty()) {
    QStringList renamed;
    for (const auto& [from, to] : renames)
      renamed << tr("'%1' as '%2'").arg(QString::fromStdString(from), QString::fromStdString(to));
    show_note(tr("Added from %1; names the scene already had were changed: %2.")
                  .arg(file, renamed.join(QStringLiteral(", "))));
  }
  return result;
}

bool ScenePanel::eventFilter(QObject* watched, QEvent* event) {
  // Delete in the list deletes the selected object, as in RViz's and RoboDK's object trees.
  if (watched == list_ && event->type() == QEvent::KeyPress &&
      static_cast<QKeyEvent*>(event)->matches(QKeySequence::Delete) && !selected_.isEmpty()) {
    delete_selected();
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

QString ScenePanel::duplicate_selected() {
  const std::string name = selected_.toStdString();
  if (!scene_.has_obstacle(name))
    return fail(tr("Select an obstacle to duplicate (an attached object: detach it first)."));
  const Obstacle& original = scene_.obstacle(name);
  const QString copy = unique_name(selected_ + QStringLiteral("_copy"));
  PlanningScene next = scene_;
  // Beside the original, not inside it: an overlapping copy is invisible and reads as one object.
  Pose pose = original.pose;
  pose.translation().y() += 0.1;
  try {
    next.add_obstacle(copy.toStdString(), original.shape, pose);
  } catch (const Error& error) {
    return fail(QString::fromStdString(error.what()));
  }
  return apply(next, tr("Duplicate %1").arg(selected_), copy);
}

void ScenePanel::choose_mesh() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Add mesh"), last_dialog_folder(FileDialogKind::Mesh),
                                   tr("Meshes (*.stl *.STL *.dae *.obj *.ply);;All files (*)"));
  if (path.isEmpty()) return;
  remember_dialog_folder(FileDialogKind::Mesh, path);
  add_mesh(path);
}

void ScenePanel::choose_save_file() {
  QString path = QFileDialog::getSaveFileName(this, tr("Save scene"),
                                              last_dialog_folder(FileDialogKind::Scene),
                                              tr("Kinetic scenes (*.kinetic-scene.json *.json)"));
  if (path.isEmpty()) return;
  remember_dialog_folder(FileDialogKind::Scene, path);
  if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) path += QStringLiteral(".json");
  save_scene_file(path);
}

void ScenePanel::choose_add_file() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Add objects from a scene file"), last_dialog_folder(FileDialogKind::Scene),
      tr("Scenes (*.json *.yaml *.yml *.scene);;Kinetic scenes (*.json);;MoveIt scenes (*.yaml "
         "*.yml *.scene);;All files (*)"));
  if (path.isEmpty()) return;
  remember_dialog_folder(FileDialogKind::Scene, path);
  add_scene_file(path);
}

void ScenePanel::choose_load_file() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Load scene"), last_dialog_folder(FileDialogKind::Scene),
      tr("Scenes (*.json *.yaml *.yml *.scene);;Kinetic scenes (*.json);;MoveIt scenes (*.yaml "
         "*.yml *.scene);;All files (*)"));
  if (path.isEmpty()) return;
  remember_dialog_folder(FileDialogKind::Scene, path);
  load_scene_file(path);
}

}  // namespace kinetic::panels
