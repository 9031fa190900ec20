#pragma once
// Stored states (as in MoveIt's RViz planning panel): joint configurations the user keeps under
// names of their own, listed under the Joints panel's sliders. Store the current joints under a
// name (empty: the default "state N"; an existing name is replaced once the user agrees), apply a
// state as the current joints or set it as the goal, rename it (double-click or Rename) and delete
// it. Like the other panels it owns nothing: it shows the states it is given and reports what the
// user asks for by signals; a state that does not fit the robot is marked and refused, saying why.
#include <QGroupBox>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "panels/stored_state.hpp"

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace kinetic::panels {

class StoredStatesPanel : public QGroupBox {
  Q_OBJECT
 public:
  // Asked before a state is replaced by one stored under its name; true replaces it.
  using ReplaceQuestion = std::function<bool(QWidget* parent, const QString& name)>;

  explicit StoredStatesPanel(QWidget* parent = nullptr);
  ~StoredStatesPanel() override;

  void set_robot(RobotModelPtr robot);
  // The joints Store keeps (the Joints panel's values).
  void set_current_source(std::function<JointVector()> current) { current_ = std::move(current); }
  // Shows these states (does not emit); the selection follows its name.
  void set_states(const std::vector<StoredState>& states);
  const std::vector<StoredState>& states() const { return states_; }
  void set_replace_question(ReplaceQuestion question) { replace_question_ = std::move(question); }

  // The name Store uses when the name field is empty.
  QString default_name() const { return next_stored_state_name(states_); }
  QString selected_name() const;
  void select(const QString& name);

  // Actions behind the buttons; each emits its request when it can, else returns false and shows
  // why (last_message()). `name` "" stores under the name field's text, else the default name.
  bool store(const QString& name = {});
  bool apply(const QString& name);
  bool set_as_goal(const QString& name);
  bool rename(const QString& from, const QString& to);
  bool remove(const QString& name);
  QString last_message() const { return last_message_; }

  // Test access.
  QLineEdit* name_edit() const { return name_; }
  QListWidget* list() const { return list_; }
  QPushButton* store_button() const { return store_; }
  QPushButton* apply_button() const { return apply_; }
  QPushButton* goal_button() const { return goal_; }
  QPushButton* rename_button() const { return rename_; }
  QPushButton* delete_button() const { return delete_; }

 signals:
  // A state to add, or to put in place of the state of the same name (the user agreed).
  void storeRequested(const kinetic::panels::StoredState& state);
  void renameRequested(const QString& from, const QString& to);
  void deleteRequested(const QString& name);
  // The state's joints for the robot shown (clamped into its limits).
  void applyRequested(const QString& name, const kinetic::JointVector& q);
  void goalRequested(const QString& name, const kinetic::JointVector& q);

 private:
  void refresh_list();
  void refresh_buttons();
  void show_message(const QString& message, bool error);
  // The state's joints for the robot, or nullopt with the reason shown; `action` says what was
  // refused ("Cannot apply").
  std::optional<JointVector> joints_of(const QString& name, const QString& action);
  void on_item_changed(QListWidgetItem* item);

  RobotModelPtr robot_;
  std::function<JointVector()> current_;
  std::vector<StoredState> states_;
  ReplaceQuestion replace_question_;
  QString wanted_selection_;  // a state just stored: selected once it is listed
  QLineEdit* name_ = nullptr;
  QListWidget* list_ = nullptr;
  QPushButton *store_ = nullptr, *apply_ = nullptr, *goal_ = nullptr, *rename_ = nullptr,
              *delete_ = nullptr;
  QLabel* message_ = nullptr;
  QString last_message_;
  bool updating_ = false;
};

// The default question: a message box, Replace / Cancel.
bool ask_replace_stored_state_with_message_box(QWidget* parent, const QString& name);

}  // namespace kinetic::panels
