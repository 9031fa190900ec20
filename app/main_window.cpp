#include "app/main_window.hpp"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>

#include "app/collision/collision_matrix_feature.hpp"
#include "app/collision/collision_monitor.hpp"
#include "app/collision/collisions_panel.hpp"
#include "app/document/studio_document.hpp"
#include "app/goal/collision_aware_ik_setting.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/goal/tcp_readout_binding.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "app/robot/robot_loader.hpp"
#include "app/servo/keyboard_jog.hpp"
#include "app/servo/teleop_feature.hpp"
#include "app/session/data_features.hpp"
#include "app/session/stored_states_features.hpp"
#include "app/task/task_feature.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/viewport/viewport_window.hpp"
#include "engine/model/robot_loader.hpp"
#include "panels/goal_panel.hpp"
#include "panels/joints_panel.hpp"
#include "panels/result_label.hpp"

namespace kinetic::app {

MainWindow::MainWindow(StudioDocument& document, QWidget* viewport, QWidget* parent)
    : QMainWindow(parent), document_(document) {
  setWindowTitle(QStringLiteral("Kinetic Studio"));
  resize(1600, 1000);
  setCentralWidget(viewport);
  goal_controller_ = new GoalController(document_, this);
  collision_monitor_ = new CollisionMonitor(document_, this);

  build_joints_dock();
  build_goal_dock();
  build_collisions_dock();
  // Before the menus, so the View menu lists their docks.
  planning_features_ = install_planning_features(*this, document_);
  trajectory_features_ = &planning_features_->trajectories();
  // The goal gizmo, IK and the TCP trail use the Planner panel's planning group.
  goal_controller_->set_group(planning_features_->engine_group());
  connect(
      planning_features_, &PlanningFeatures::planningGroupChanged, goal_controller_,
      [goal = goal_controller_](const QString& group) { goal->set_group(group.toStdString()); });
  build_status_bar();
  build_menus();
  connect(play_pause_action_, &QAction::triggered, trajectory_features_,
          &TrajectoryFeatures::toggle_play);
  // After the menus: it adds its entries to the File menu and its docks to the View menu.
  DataFeatureOptions data_options;
  // Tests and scripted runs must never block on the modal recovery question.
  data_options.offer_recovery = !qEnvironmentVariableIsSet("KINETIC_NO_RECOVERY");
  data_options.report_error = [this](const QString& title, const QString& message) {
    report_error(title, message);
  };
  data_options.viewport = [this] { return this->viewport(); };
  const DataFeatures data_features = install_data_features(*this, document_, data_options);
  open_session_ = data_features.open_session;
  robot_loader_ = data_features.robot_loader;
  build_tool_bar(data_features);
  collisions_panel_->set_collision_matrix_action(
      install_collision_matrix_feature(*this, document_, data_options.report_error));
  task_ = install_task_feature(*this, document_, *planning_features_, *trajectory_features_);
  view_menu_->addAction(task_->dock()->toggleViewAction());
  // Last: its close filter must stop the arm before the unsaved-changes question is asked.
  teleop_ = install_teleop_feature(*this, document_, *trajectory_features_, *goal_controller_);
  view_menu_->addAction(teleop_.dock->toggleViewAction());
  arrange_docks();
  echo_results_in_status_bar();
  restore_layout();
  connect(&document_, &StudioDocument::robotChanged, this, &MainWindow::update_status);
  update_status();
}

void MainWindow::build_joints_dock() {
  joints_panel_ = new panels::JointsPanel(this);
  auto* dock = new QDockWidget(tr("Joints"), this);
  dock->setObjectName(QStringLiteral("JointsDock"));
  dock->setWidget(joints_panel_);
  joints_panel_->setMinimumWidth(300);
  addDockWidget(Qt::LeftDockWidgetArea, dock);
  // The sliders show and edit the robot, or the goal's joints (the robot's where there is no
  // joint goal yet: the goal starts from where the robot stands).
  const auto edits_goal = [this] {
    return joints_panel_->target() == panels::JointsPanel::Target::Goal;
  };
  const auto show_values = [this, edits_goal] {
    const GoalState& goal = document_.goal();
    const bool goal_fits =
        goal.joints && document_.robot() && goal.joints->size() == document_.robot()->dof();
    joints_panel_->set_values(edits_goal() && goal_fits ? *goal.joints : document_.joints());
  };
  const auto show_robot = [this, show_values] {
    joints_panel_->set_robot(document_.robot());
    show_values();
  };
  connect(&document_, &StudioDocument::robotChanged, this, show_robot);
  connect(&document_, &StudioDocument::jointsChanged, this, [edits_goal, show_values] {
    if (!edits_goal()) show_values();
  });
  connect(&document_, &StudioDocument::goalChanged, this, [edits_goal, show_values] {
    if (edits_goal()) show_values();
  });
  connect(joints_panel_, &panels::JointsPanel::targetChanged, this, show_values);
  connect(joints_panel_, &panels::JointsPanel::valuesEdited, this,
          [this, edits_goal](const JointVector& q) {
            if (edits_goal())
              goal_controller_->goal_from_joints(q, tr("Move goal joints"));
            else
              document_.edit_joints(q);
          });
  if (document_.robot()) show_robot();
  bind_stored_states(*joints_panel_->stored_states(), document_, *goal_controller_);
}

void MainWindow::build_goal_dock() {
  goal_panel_ = new panels::GoalPanel(this);
  auto* dock = new QDockWidget(tr("Goal"), this);
  dock->setObjectName(QStringLiteral("GoalDock"));
  dock->setWidget(goal_panel_);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  GoalController* goal = goal_controller_;
  connect(goal_panel_, &panels::GoalPanel::poseEdited, goal, &GoalController::move_goal);
  connect(goal_panel_, &panels::GoalPanel::endEffectorChosen, goal,
          [goal](const QString& name) { goal->set_end_effector(name.toStdString()); });
  connect(goal, &GoalController::groupChanged, this, &MainWindow::update_goal_panel);
  // Collision-aware IK as the user left it (on at first), in the panel and the controller alike.
  goal_panel_->set_collision_aware(saved_collision_aware_ik());
  goal->set_collision_aware(goal_panel_->collision_aware());
  connect(goal_panel_, &panels::GoalPanel::collisionAwareChanged, goal, [goal](bool on) {
    goal->set_collision_aware(on);
    save_collision_aware_ik(on);
  });
  connect(goal_panel_, &panels::GoalPanel::nextSolutionRequested, goal,
          &GoalController::next_solution);
  connect(goal_panel_, &panels::GoalPanel::previousSolutionRequested, goal,
          &GoalController::previous_solution);
  connect(goal_panel_, &panels::GoalPanel::goalFromCurrentRequested, goal,
          &GoalController::goal_from_current);
  connect(goal_panel_, &panels::GoalPanel::currentFromGoalRequested, goal,
          &GoalController::current_from_goal);
  connect(goal, &GoalController::shownPoseChanged, this, &MainWindow::update_goal_panel);
  connect(goal, &GoalController::ikStatusChanged, this, &MainWindow::update_goal_panel);
  update_goal_panel();
  new TcpReadoutBinding(*goal_panel_->tcp_readout(), document_, *goal,
                        this);  // where the TCP is now
}

void MainWindow::update_goal_panel() {
  GoalController* goal = goal_controller_;
  if (const auto pose = goal->shown_pose()) goal_panel_->set_pose(*pose);
  QStringList effectors;
  for (const std::string& name : goal->end_effectors()) effectors << QString::fromStdString(name);
  goal_panel_->set_end_effectors(effectors, QString::fromStdString(goal->end_effector()));
  goal_panel_->set_frame_name(goal->kinematics()
                                  ? QString::fromStdString(goal->kinematics()->chain().base_link())
                                  : QString());
  goal_panel_->set_solution(goal->solution_index(), goal->solution_count());
  goal_panel_->set_ik_status(goal->ik_status(), goal->ik_failed());
}

void MainWindow::build_collisions_dock() {
  collisions_panel_ = new CollisionsPanel(document_, *collision_monitor_, this);
  collision_list_ = collisions_panel_->list();
  auto* dock = new QDockWidget(tr("Collisions"), this);
  dock->setObjectName(QStringLiteral("CollisionsDock"));
  dock->setWidget(collisions_panel_);
  addDockWidget(Qt::RightDockWidgetArea, dock);
  connect(collision_monitor_, &CollisionMonitor::reportChanged, this,
          &MainWindow::update_collisions);
}

// The list is the Collisions panel's; the status bar says the same in one line.
void MainWindow::update_collisions() {
  status_collision_->setText(collision_monitor_->summary());
  status_collision_->setStyleSheet(collision_monitor_->report().current.contacts.empty()
                                       ? QString()
                                       : QStringLiteral("color: #d9433b; font-weight: bold;"));
}

void MainWindow::build_status_bar() {
  status_robot_ = new QLabel(this);
  status_collision_ = new QLabel(tr("collision: checking…"), this);
  // (No frame time: that is developer information, which the F3 statistics show.)
  statusBar()->addPermanentWidget(status_robot_);
  statusBar()->addPermanentWidget(status_collision_);
}

void MainWindow::echo_results_in_status_bar() {
  // Every panel's result is said in the status bar too: its dock may be hidden behind another tab
  // or scrolled. (Errors stay longer: they ask for something to be done.)
  for (panels::ResultLabel* result : findChildren<panels::ResultLabel*>())
    connect(result, &panels::ResultLabel::resultShown, this,
            [this](const QString& line, bool error) {
              statusBar()->showMessage(line, error ? 20000 : 10000);
            });
}

void MainWindow::build_menus() {
  build_file_menu();
  build_edit_menu();
  build_view_menu();
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(view_action(ViewOption::Help));
  help->addAction(tr("&About Kinetic Studio"), this, [this] {
    QMessageBox::about(this, tr("About Kinetic Studio"),
                       tr("Kinetic Studio %1\nRobot-arm motion planning.")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

void MainWindow::build_file_menu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  // Open URDF (with SRDF / kinetic.toml), recent files, sessions and scenes come from
  // install_data_features(); the built-in robots stay one click away here.
  QMenu* library = file->addMenu(tr("&Built-in robots"));
  for (const BuiltinRobotInfo& info : builtin_robots()) {
    const QString name = QString::fromStdString(info.name);
    library->addAction(
        QStringLiteral("%1 %2 (%3 DOF)")
            .arg(QString::fromStdString(info.manufacturer), QString::fromStdString(info.model))
            .arg(info.dof),
        this, [this, name] {
          // In the background (the window keeps drawing); an error is said as before.
          const auto done = [this](const QString& error) {
            if (!error.isEmpty()) report_error(tr("Could not load robot"), error);
          };
          if (robot_loader_)
            robot_loader_->load({name, {}, {}, {}}, this, done);
          else
            done(document_.load_robot(name));
        });
  }
  file->addSeparator();
  // Through the window's close, so unsaved changes are asked about and the layout is kept.
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, [this] {
    if (close()) QCoreApplication::quit();
  });
}

void MainWindow::build_edit_menu() {
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  undo_action_ = document_.undo_stack().createUndoAction(this, tr("&Undo"));
  undo_action_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
  redo_action_ = document_.undo_stack().createRedoAction(this, tr("&Redo"));
  redo_action_->setShortcuts(
      {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  edit->addAction(undo_action_);
  edit->addAction(redo_action_);
}

void MainWindow::build_view_menu() {
  view_menu_ = menuBar()->addMenu(tr("&View"));
  QMenu* camera = build_camera_menu();
  struct Toggle {
    ViewOption option;
    QString text;
    QKeySequence key;
    bool on;
    QMenu* menu;
  };
  const Toggle toggles[] = {
      {ViewOption::Grid, tr("&Grid"), QKeySequence(Qt::Key_G), true, view_menu_},
      {ViewOption::Axes, tr("World &axes"), QKeySequence(Qt::Key_A), true, view_menu_},
      {ViewOption::Trail, tr("TCP &trail"), QKeySequence(Qt::Key_T), true, view_menu_},
      {ViewOption::CollisionSpheres, tr("&Collision spheres"), QKeySequence(Qt::Key_C), false,
       view_menu_},
      {ViewOption::CollisionGeometry, tr("Collision &geometry"), QKeySequence(), false, view_menu_},
      {ViewOption::Wireframe, tr("&Wireframe"), QKeySequence(Qt::Key_W), false, view_menu_},
      {ViewOption::LinkFrames, tr("Link &frames"), QKeySequence(Qt::Key_K), false, view_menu_},
      {ViewOption::LocalFrame, tr("Gizmo in &local frame"), QKeySequence(Qt::Key_L), false,
       view_menu_},
      {ViewOption::Help, tr("&Keyboard help"), QKeySequence(Qt::Key_F1), false, view_menu_},
      {ViewOption::Stats, tr("&Statistics"), QKeySequence(Qt::Key_F3), false, view_menu_},
      {ViewOption::Orthographic, tr("&Orthographic"), QKeySequence(Qt::Key_O), false, camera},
  };
  for (const Toggle& toggle : toggles) {
    auto* action = new QAction(toggle.text, this);
    action->setCheckable(true);
    action->setChecked(toggle.on);
    if (!toggle.key.isEmpty()) action->setShortcut(toggle.key);
    view_actions_[static_cast<int>(toggle.option)] = action;
    toggle.menu->addAction(action);
    const ViewOption option = toggle.option;
    connect(action, &QAction::toggled, this, [this, option](bool on) {
      if (viewport_) viewport_->set_option(option, on);
      if (option == ViewOption::LocalFrame) goal_panel_->set_local_frame(on);
      save_view_option(option, on);
    });
    // What the last run left; after connecting, so the goal panel hears a restored local frame.
    action->setChecked(saved_view_option(option, toggle.on));
  }
  connect(goal_panel_, &panels::GoalPanel::localFrameChanged, view_action(ViewOption::LocalFrame),
          &QAction::setChecked);
  view_menu_->addSeparator();
  view_menu_->addAction(tr("&Reset camera"), QKeySequence(Qt::Key_R), this, [this] {
    if (viewport_) viewport_->fit_camera();
  });
  view_menu_->addAction(tr("&Focus goal"), QKeySequence(Qt::Key_F), this, [this] {
    if (viewport_) viewport_->focus_goal();
  });
  view_menu_->addMenu(camera);
  play_pause_action_ = view_menu_->addAction(tr("&Play / pause"));
  play_pause_action_->setShortcut(QKeySequence(Qt::Key_Space));
  view_menu_->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    view_menu_->addAction(dock->toggleViewAction());
}

QMenu* MainWindow::build_camera_menu() {
  // The standard views turn the camera around its target at the same distance; R frames the robot.
  auto* camera = new QMenu(tr("&Camera"), view_menu_);
  struct View {
    viewer::StandardView view;
    QString text;
  };
  const View views[] = {
      {viewer::StandardView::Front, tr("&Front")}, {viewer::StandardView::Back, tr("&Back")},
      {viewer::StandardView::Left, tr("&Left")},   {viewer::StandardView::Right, tr("&Right")},
      {viewer::StandardView::Top, tr("&Top")},     {viewer::StandardView::Iso, tr("&Iso")},
  };
  int digit = Qt::Key_1;
  for (const View& entry : views) {
    QAction* action = camera->addAction(entry.text);
    action->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(digit++)));
    camera_view_actions_[static_cast<int>(entry.view)] = action;
    const viewer::StandardView view = entry.view;
    connect(action, &QAction::triggered, this, [this, view] {
      if (viewport_) viewport_->show_standard_view(view);
    });
  }
  camera->addSeparator();  // the Orthographic toggle follows (build_view_menu)
  return camera;
}

void MainWindow::build_tool_bar(const DataFeatures& data_features) {
  QToolBar* bar = addToolBar(tr("Main toolbar"));
  bar->setObjectName(
      QStringLiteral("MainToolBar"));  // saveState() / restoreState() find it by name
  plan_action_ = new QAction(tr("Plan"), this);
  plan_action_->setToolTip(tr("Plan with the Planner panel's settings (Ctrl+Enter)"));
  // Ctrl+Enter, as "run" in most tools; Return alone belongs to the fields being edited.
  plan_action_->setShortcuts(
      {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
  connect(plan_action_, &QAction::triggered, planning_features_, &PlanningFeatures::plan);
  plan_execute_action_ = new QAction(tr("Plan && Execute"), this);
  plan_execute_action_->setToolTip(
      tr("Plan from the current state and play the plan: the robot ends at the goal "
         "(Ctrl+Shift+Enter)"));
  plan_execute_action_->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
                                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Enter)});
  connect(plan_execute_action_, &QAction::triggered, planning_features_,
          &PlanningFeatures::plan_and_execute);
  for (QAction* action : {plan_action_, plan_execute_action_})
    connect(&planning_features_->plan_worker(), &PlanWorker::busyChanged, action,
            [action](bool busy) { action->setEnabled(!busy); });
  // Icons for the actions that have a standard one; the camera entries show their names.
  const auto icon = [this](QStyle::StandardPixmap pixmap) { return style()->standardIcon(pixmap); };
  data_features.open_robot->setIcon(icon(QStyle::SP_DialogOpenButton));
  data_features.save_session->setIcon(icon(QStyle::SP_DialogSaveButton));
  undo_action_->setIcon(icon(QStyle::SP_ArrowBack));
  redo_action_->setIcon(icon(QStyle::SP_ArrowForward));
  play_pause_action_->setIcon(icon(QStyle::SP_MediaPlay));
  bar->addActions({data_features.open_robot, data_features.save_session});
  bar->addSeparator();
  bar->addActions({undo_action_, redo_action_});
  bar->addSeparator();
  bar->addActions({plan_action_, plan_execute_action_, play_pause_action_});
  bar->addSeparator();
  for (QAction* view : camera_view_actions_)
    if (view) bar->addAction(view);
  bar->addAction(view_action(ViewOption::Orthographic));
  view_menu_->addAction(bar->toggleViewAction());
}

QAction* MainWindow::view_action(ViewOption option) const {
  return view_actions_[static_cast<int>(option)];
}

QAction* MainWindow::camera_view_action(viewer::StandardView view) const {
  return camera_view_actions_[static_cast<int>(view)];
}

void MainWindow::attach_viewport(ViewportWindow* viewport) {
  viewport_ = viewport;
  if (!viewport) return;
  for (QAction* action : view_actions_)
    if (action) action->toggled(action->isChecked());
  viewport->set_goal_controller(goal_controller_);
  viewport->set_collision_monitor(collision_monitor_);
  viewport->set_place_target(&task_->place_target());
  viewport->set_key_forwarding(this);
  teleop_.keyboard->set_view(viewport);  // arrow keys in the 3D view jog while teleoperating
}

void MainWindow::arrange_docks() {
  // Default layout for a 1600×1000 screen: posing on the left (joints, robot library), the goal,
  // planner, scene, task, teleop and collision list as tabs on the right, and the
  // trajectories (timeline and plots want width) along the bottom.
  const auto dock = [this](const char* name) {
    return findChild<QDockWidget*>(QString::fromLatin1(name));
  };
  QDockWidget* joints = dock("JointsDock");
  QDockWidget* library = dock("RobotLibraryDock");
  QDockWidget* goal = dock("GoalDock");
  QDockWidget* planner = dock("PlannerDock");
  QDockWidget* scene = dock("SceneDock");
  QDockWidget* collisions = dock("CollisionsDock");
  QDockWidget* teleop = dock("TeleopDock");
  QDockWidget* task = dock("TaskDock");
  QDockWidget* trajectories = dock("TrajectoriesDock");
  if (joints && library) {
    addDockWidget(Qt::LeftDockWidgetArea, library);
    tabifyDockWidget(joints, library);
    joints->raise();
  }
  if (goal) {
    addDockWidget(Qt::RightDockWidgetArea, goal);
    for (QDockWidget* tab : {planner, scene, task, teleop})
      if (tab) {
        addDockWidget(Qt::RightDockWidgetArea, tab);
        tabifyDockWidget(goal, tab);
      }
    if (collisions) {
      addDockWidget(Qt::RightDockWidgetArea, collisions);
      tabifyDockWidget(goal, collisions);
    }
    goal->raise();  // after the last tab: tabifying shows the newest tab
  }
  if (trajectories) addDockWidget(Qt::BottomDockWidgetArea, trajectories);
  // Long forms scroll inside their dock instead of forcing the window taller than the screen. Not
  // the Planner's or the Task panel's: they scroll their settings themselves and keep their action
  // and its result in sight below. Not
  // the Trajectories panel: its lists give up height instead, while a scroll area made it as tall
  // as its word-wrapped result asked for (its preferred height) and put that result below the fold.
  for (QDockWidget* tall : {joints, library, goal, scene, teleop}) {
    if (!tall || !tall->widget() || qobject_cast<QScrollArea*>(tall->widget())) continue;
    auto* scroll = new QScrollArea(tall);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(tall->widget());
    tall->setWidget(scroll);
  }
  // The right side as wide as its widest form wants (the planner's has three fields a row), so
  // none of them scrolls sideways.
  int right_width = 420;
  for (QDockWidget* each : {goal, planner, scene, task, teleop, collisions}) {
    auto* scroll = each ? qobject_cast<QScrollArea*>(each->widget()) : nullptr;
    QWidget* form = scroll ? scroll->widget() : (each ? each->widget() : nullptr);
    if (!form) continue;
    // (The Planner and Task panels scroll their settings in a scroll area of their own.)
    const bool scrolls = scroll || form->findChild<QScrollArea*>();
    const int scroll_bar = scrolls ? style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0;
    right_width = std::max(right_width, form->sizeHint().width() + scroll_bar);
  }
  if (goal) resizeDocks({goal}, {right_width}, Qt::Horizontal);
  if (joints) resizeDocks({joints}, {320}, Qt::Horizontal);
  // On a laptop screen the bottom panel takes less, so the 3D view keeps most of the height.
  const int window_height = default_window_size(available_screen_area()).height();
  if (trajectories)
    resizeDocks({trajectories}, {std::min(300, window_height * 3 / 10)}, Qt::Vertical);
}

void MainWindow::restore_layout() {
  QSettings settings;
  const bool restored =
      restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  // The size the window was closed at, as it was (the geometry's frame and the docks' saved sizes
  // grew it to the screen's height by the second start).
  const QSize saved_size = settings.value(QStringLiteral("window/size")).toSize();
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
  if (!restored) {
    // Adding the docks grew the window to their unscrolled sizes; start from the default size,
    // and again once shown, since the first layout pass adds the bottom dock's height on top.
    const QSize size = default_window_size(available_screen_area());
    resize(size);
    QTimer::singleShot(0, this, [this, size] { resize(size); });
    return;
  }
  // After the docks have their saved sizes, and again once shown (the first layout pass can
  // grow the window to the docks' minimum sizes).
  const auto restore_size = [this, saved_size] {
    if (saved_size.isValid() && !isMaximized() && !isFullScreen()) resize(saved_size);
    fit_to_screen();
  };
  restore_size();
  QTimer::singleShot(0, this, restore_size);
}

QRect MainWindow::available_screen_area() const {
  // The screen under the window's middle: a restored geometry may lie on a second monitor
  // (screen() is still the primary one before the window is shown).
  const QScreen* where = QGuiApplication::screenAt(geometry().center());
  if (!where) where = screen() ? screen() : QGuiApplication::primaryScreen();
  return where ? where->availableGeometry() : QRect();
}

QSize MainWindow::default_window_size(const QRect& available) {
  const QSize preferred(1600, 1000);
  if (available.isEmpty()) return preferred;
  // Room for the window manager's frame around it.
  return preferred.boundedTo(available.size() - QSize(40, 80));
}

void MainWindow::fit_to_screen() {
  // A geometry saved on a large monitor would open past the edges of a laptop's screen, with the
  // bottom panel and the status bar out of reach.
  const QRect available = available_screen_area();
  if (available.isEmpty()) return;
  if (isMaximized() || isFullScreen()) return;
  // The frame (title bar, borders) is known once shown; until then it adds nothing.
  const QSize frame_extra = frameGeometry().size() - size();
  const QSize fitted = size().boundedTo(available.size() - frame_extra);
  if (fitted != size()) resize(fitted);
  QRect frame = frameGeometry();
  if (available.contains(frame)) return;
  const int right_most = std::max(available.left(), available.right() + 1 - frame.width());
  const int bottom_most = std::max(available.top(), available.bottom() + 1 - frame.height());
  frame.moveTo(std::clamp(frame.left(), available.left(), right_most),
               std::clamp(frame.top(), available.top(), bottom_most));
  move(frame.topLeft());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
  settings.setValue(QStringLiteral("window/size"),
                    isMaximized() || isFullScreen() ? normalGeometry().size() : size());
  QMainWindow::closeEvent(event);
}

void MainWindow::report_error(const QString& title, const QString& message) {
  // The status bar keeps one line of it once the box is closed (it showed every line run
  // together, cut off at the window's edge): the title and the message's first line.
  const QString first = message.section(QLatin1Char('\n'), 0, 0);
  statusBar()->showMessage(message.contains(QLatin1Char('\n')) ? tr("%1: %2 …").arg(title, first)
                                                               : tr("%1: %2").arg(title, first),
                           10000);
  QMessageBox::warning(this, title, message);
}

void MainWindow::update_status() {
  const RobotModelPtr robot = document_.robot();
  status_robot_->setText(
      robot ? tr("%1 · %2 DOF").arg(QString::fromStdString(robot->name())).arg(robot->dof())
            : tr("no robot"));
}

}  // namespace kinetic::app
