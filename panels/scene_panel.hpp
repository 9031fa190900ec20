#pragma once
// Scene panel: the obstacles and attached objects of the planning scene, with editors for the
// selected one (name, size, position, roll-pitch-yaw), add / delete, attach to / detach from a
// robot link, scene files, and the scene's allowed pairs (a folded "Allowed contacts" group). It
// edits a copy of the scene it is given and reports every change as a whole new scene
// (sceneEdited), so the owner can put it on its undo stack.
#include <QWidget>
#include <array>

#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace kinetic::panels {

class AllowedContactsGroup;

class ScenePanel : public QWidget {
  Q_OBJECT
 public:
  explicit ScenePanel(QWidget* parent = nullptr);

  // Inputs (none of them emits a signal).
  void set_robot(RobotModelPtr robot);    // fills the link chooser; attaching needs the robot
  void set_joints(const JointVector& q);  // link poses for attach / detach
  void set_scene(const PlanningScene& scene);
  void set_selected(const QString& name);

  const PlanningScene& scene() const { return scene_; }
  QString selected() const { return selected_; }
  QString last_error() const { return last_error_; }
  // What the panel says besides errors (e.g. that a mesh looks drawn in millimetres); "" when none.
  const QString& note() const { return note_; }

  // User actions (the buttons call these). Each returns "" on success, else the reason, which is
  // also shown in the panel and emitted as errorOccurred; a failed action changes nothing.
  QString add_primitive(Shape::Type type);
  // A mesh larger than a robot cell (over 10 m across, as read) is added as it is, with a note
  // that it may be drawn in millimetres and how to scale it.
  QString add_mesh(const QString& path);
  QString rename_selected(const QString& name);
  QString delete_selected();
  QString attach_selected(const QString& link);
  QString detach_selected();
  QString save_scene_file(const QString& path);
  QString load_scene_file(const QString& path);
  // Adds a scene file's objects to the scene (a fixture into a work cell); clashing names get
  // "_2", "_3", ... and the note says which. One undo step.
  QString add_scene_file(const QString& path);
  // A copy of the selected obstacle beside it (10 cm along world y), selected; one undo step.
  QString duplicate_selected();
  // Checks the pair again: takes it off the scene's allowed pairs; one undo step.
  QString remove_allowed(const QString& a, const QString& b);

  // Test access to the editors of the selected object.
  QLineEdit* name_editor() const { return name_; }
  QDoubleSpinBox* size_editor(int i) const { return size_[i]; }
  QDoubleSpinBox* position_editor(int i) const { return position_[i]; }
  QDoubleSpinBox* rpy_editor(int i) const { return rpy_[i]; }  // degrees
  QComboBox* link_chooser() const { return link_; }
  QListWidget* object_list() const { return list_; }
  AllowedContactsGroup* allowed_contacts() const { return allowed_; }

 signals:
  void sceneEdited(const kinetic::PlanningScene& scene, const QString& what);
  void selectionEdited(const QString& name);
  void errorOccurred(const QString& message);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void build_ui();
  QString apply(const PlanningScene& next, const QString& what, const QString& select);
  QString fail(const QString& message);
  void show_note(const QString& text);  // shown like an error, but none (no errorOccurred)
  bool is_link_name(const std::string& name) const;  // a link of the robot shown
  void refresh_list();
  void refresh_editors();
  void on_size_edited();
  void on_pose_edited();
  void choose_mesh();
  void choose_save_file();
  void choose_load_file();
  void choose_add_file();
  // Reads and checks a scene file as Load and Add from file do: "" and `out` set, or the reason.
  QString read_scene_file(const QString& path, PlanningScene& out) const;
  Pose link_pose(const std::string& link) const;
  Vector3 spot_in_front(double half_height) const;
  QString unique_name(const QString& stem) const;

  RobotModelPtr robot_;
  JointVector joints_;
  PlanningScene scene_;
  QString selected_;
  QString last_error_;
  QString note_;
  bool updating_ = false;

  QListWidget* list_ = nullptr;
  QLineEdit* name_ = nullptr;
  QLabel* kind_ = nullptr;
  QLabel* pose_frame_ = nullptr;
  std::array<QLabel*, 3> size_label_{};
  std::array<QDoubleSpinBox*, 3> size_{};
  std::array<QDoubleSpinBox*, 3> position_{};
  std::array<QDoubleSpinBox*, 3> rpy_{};
  QComboBox* link_ = nullptr;
  QPushButton* delete_ = nullptr;
  QPushButton* attach_ = nullptr;
  QPushButton* detach_ = nullptr;
  QWidget* editor_ = nullptr;
  QLabel* message_ = nullptr;
  AllowedContactsGroup* allowed_ = nullptr;
};

}  // namespace kinetic::panels
