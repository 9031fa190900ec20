#pragma once
// The studio's main window: the 3D viewport in the centre, dockable panels, menus, the main
// toolbar, status bar (robot, DOF, collision state, and each panel's latest result). Each menu /
// dock group is built by its own method.
#include <QMainWindow>
#include <functional>

#include "app/servo/teleop_feature.hpp"
#include "app/viewport/view_options.hpp"

class QAction;
class QLabel;
class QListWidget;
class QMenu;

namespace kinetic::panels {
class JointsPanel;
class GoalPanel;
}  // namespace kinetic::panels

namespace kinetic::viewer {
enum class StandardView;
}

namespace kinetic::app {

struct DataFeatures;
class StudioDocument;
class GoalController;
class CollisionMonitor;
class CollisionsPanel;
class ViewportWindow;
class PlanningFeatures;
class TrajectoryFeatures;
class TaskFeature;
class RobotLoader;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // viewport: the widget shown in the centre (the Vulkan viewport's container).
  MainWindow(StudioDocument& document, QWidget* viewport, QWidget* parent = nullptr);

  // Connects the 3D view (absent without Vulkan): view toggles, goal gizmo, collision highlights,
  // the Task panel's place target, keys pressed while it has focus.
  void attach_viewport(ViewportWindow* viewport);

  panels::JointsPanel* joints_panel() const { return joints_panel_; }
  panels::GoalPanel* goal_panel() const { return goal_panel_; }
  GoalController* goal_controller() const { return goal_controller_; }
  CollisionMonitor* collision_monitor() const { return collision_monitor_; }
  // The Planner dock, and the Trajectories dock its plans go to.
  PlanningFeatures* planning_features() const { return planning_features_; }
  TrajectoryFeatures* trajectory_features() const { return trajectory_features_; }
  // The Teleop dock: its panel and the controller that runs the servo loop.
  const TeleopFeature& teleop() const { return teleop_; }
  // The Task dock: pick-and-place planning.
  TaskFeature* task() const { return task_; }
  ViewportWindow* viewport() const { return viewport_; }  // null without Vulkan
  QListWidget* collision_list() const { return collision_list_; }
  // The Collisions dock: its list (above) and Allow contact.
  CollisionsPanel* collisions_panel() const { return collisions_panel_; }
  // Space: the playback panel connects to its triggered() signal.
  QAction* play_pause_action() const { return play_pause_action_; }
  // Plans with the Planner panel's settings (the toolbar's Plan).
  QAction* plan_action() const { return plan_action_; }
  // Plans and executes: the robot ends at the goal (Ctrl+Shift+Enter; the toolbar's Plan &
  // Execute).
  QAction* plan_execute_action() const { return plan_execute_action_; }
  QAction* view_action(ViewOption option) const;
  // View → Camera → Front … Iso (Alt+1..6); null for the views without an entry (Bottom).
  QAction* camera_view_action(viewer::StandardView view) const;
  QMenu* view_menu() const { return view_menu_; }
  // Shows a load error without losing the current robot.
  void report_error(const QString& title, const QString& message);
  // As File → Open session (a session named on the command line).
  void open_session(const QString& path) { open_session_(path); }
  // The size of a first start on a screen with this available area: 1600x1000, or as much of a
  // smaller screen as leaves room for the window frame.
  static QSize default_window_size(const QRect& available);

 protected:
  // Saves the window geometry and dock layout (QSettings) for the next start.
  void closeEvent(QCloseEvent* event) override;

 private:
  // Bump when the set of docks changes, so an old saved layout is ignored.
  static constexpr int kLayoutVersion = 3;
  void arrange_docks();
  void restore_layout();
  // The available area of the screen the window opens on (empty when there is no screen).
  QRect available_screen_area() const;
  // Shrinks and moves a restored geometry so the whole window lies on its screen.
  void fit_to_screen();
  void build_joints_dock();
  void build_goal_dock();
  void build_collisions_dock();
  void build_status_bar();
  // After every dock is built: their ResultLabels' results go to the status bar too.
  void echo_results_in_status_bar();
  void build_menus();
  void build_file_menu();
  void build_edit_menu();
  void build_view_menu();
  QMenu* build_camera_menu();
  // Needs the menus' actions (the File menu's from install_data_features()).
  void build_tool_bar(const DataFeatures& data_features);
  void update_status();
  void update_goal_panel();
  void update_collisions();

  StudioDocument& document_;
  ViewportWindow* viewport_ = nullptr;
  GoalController* goal_controller_ = nullptr;
  CollisionMonitor* collision_monitor_ = nullptr;
  PlanningFeatures* planning_features_ = nullptr;
  TrajectoryFeatures* trajectory_features_ = nullptr;
  TeleopFeature teleop_;
  TaskFeature* task_ = nullptr;
  panels::JointsPanel* joints_panel_ = nullptr;
  panels::GoalPanel* goal_panel_ = nullptr;
  CollisionsPanel* collisions_panel_ = nullptr;
  QListWidget* collision_list_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QAction* play_pause_action_ = nullptr;
  QAction* plan_action_ = nullptr;
  QAction* plan_execute_action_ = nullptr;
  std::function<void(const QString&)> open_session_;
  RobotLoader* robot_loader_ = nullptr;  // the File menu's (install_data_features)
  QAction* undo_action_ = nullptr;
  QAction* redo_action_ = nullptr;
  QAction* view_actions_[kViewOptionCount] = {};
  QAction* camera_view_actions_[7] = {};  // by viewer::StandardView
  QLabel* status_robot_ = nullptr;
  QLabel* status_collision_ = nullptr;
};

}  // namespace kinetic::app
