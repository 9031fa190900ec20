#pragma once
// Robot library: the built-in robots (name, maker, model, DOF) and the robot packages found on the
// machine (MoveIt configs and description packages' robots, set_packages; "MoveIt config" or
// "Package" in the maker column), with a search box. Every word of the search must match: a
// number matches the DOF exactly ("7" finds the 7-DOF arms) or appears in the text; other words
// match the name, maker or model, ignoring case ("kuka" finds the iiwas and the KR 6, "moveit" the
// MoveIt configs). Double-click or Load asks for the robot (loadRequested: a built-in robot's name,
// a package's folder or robot file); loading is the owner's, who says which robot is loaded
// (set_loaded_name) for the list to mark it.
#include <QWidget>
#include <vector>

#include "engine/model/robot_loader.hpp"
#include "engine/model/robot_packages.hpp"

class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace kinetic::panels {

class RobotLibraryPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RobotLibraryPanel(QWidget* parent = nullptr);

  void set_robots(
      const std::vector<BuiltinRobotInfo>& robots);  // the constructor lists builtin_robots()
  // Replaces the package rows (the built-in ones stay).
  void set_packages(const std::vector<RobotPackageEntry>& packages);
  int package_count() const;
  void set_filter(const QString& text);
  // Names of the robots the filter shows, in list order.
  QStringList visible_names() const;
  QString current_name() const;
  void set_current_name(const QString& name);
  // Emits loadRequested for the current robot (if any).
  void load_current();
  // Marks the robot loaded now (bold, with a check mark; a built-in robot's name in any case, or
  // the folder or file a package row opens) and makes it the current one; "" marks none.
  void set_loaded_name(const QString& name);
  QString loaded_name() const;

  static bool matches(const BuiltinRobotInfo& robot, const QString& filter);

  QLineEdit* search_box() const { return search_; }
  QTreeWidget* list() const { return list_; }

 signals:
  void loadRequested(const QString& reference);

 private:
  void apply_filter();
  void mark_loaded();

  QLineEdit* search_ = nullptr;
  QTreeWidget* list_ = nullptr;
  QPushButton* load_ = nullptr;
  QString loaded_;
};

}  // namespace kinetic::panels
