#pragma once
// The Collisions dock's content: the monitor's colliding pairs (each row carries its pair), and
// Allow contact (the button under the list, or a row's context menu), which allows the selected
// pair in the document's scene as one undo step — for an intended contact such as a table flush
// under the base. Pairs of two robot links are not allowed here: the robot's collision matrix
// skips those (Tools → Generate collision matrix), so the row offers that instead.
#include <QWidget>

class QAction;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QPushButton;

namespace kinetic::app {

class CollisionMonitor;
class StudioDocument;

class CollisionsPanel : public QWidget {
  Q_OBJECT
 public:
  // Item data of a pair row: the two body names (QStringList) and whether both are robot links.
  static constexpr int kPairRole = Qt::UserRole;
  static constexpr int kSelfPairRole = Qt::UserRole + 1;

  CollisionsPanel(StudioDocument& document, CollisionMonitor& monitor, QWidget* parent = nullptr);

  // Tools → Generate collision matrix, offered on a self-collision row (may stay null).
  void set_collision_matrix_action(QAction* action) { collision_matrix_action_ = action; }

  // Allows the pair of the selected row in the scene (undo: "Allow table – base_link"). Returns ""
  // on success, else why nothing changed (no pair selected, a self pair, already allowed).
  QString allow_selected();
  // The menu a right-click on `item` opens (the caller owns it).
  QMenu* context_menu_for(QListWidgetItem* item);

  QListWidget* list() const { return list_; }
  QPushButton* allow_button() const { return allow_button_; }
  QAction* allow_action() const { return allow_action_; }

 private:
  void refresh();               // the list, from the monitor's report
  void update_allow_enabled();  // the button and action follow the selected row

  StudioDocument& document_;
  CollisionMonitor& monitor_;
  QListWidget* list_ = nullptr;
  QPushButton* allow_button_ = nullptr;
  QAction* allow_action_ = nullptr;
  QAction* collision_matrix_action_ = nullptr;
};

}  // namespace kinetic::app
