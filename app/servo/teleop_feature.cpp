#include "app/servo/teleop_feature.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>

#include "app/document/studio_document.hpp"
#include "app/servo/keyboard_jog.hpp"
#include "app/servo/teleop_controller.hpp"
#include "app/servo/teleop_recording.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

namespace {

// Closing the window stops the arm before anything else happens (the unsaved-changes question
// included): installed after the other filters, it sees the close first.
class StopOnClose : public QObject {
 public:
  StopOnClose(QMainWindow& window, TeleopController& controller)
      : QObject(&window), controller_(controller) {
    window.installEventFilter(this);
  }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Close && watched == parent()) controller_.disable();
    return QObject::eventFilter(watched, event);
  }

 private:
  TeleopController& controller_;
};

ServoCommand::Frame to_servo_frame(panels::JogFrame frame) {
  return frame == panels::JogFrame::Tool ? ServoCommand::Frame::Tool : ServoCommand::Frame::Base;
}

void show_robot(panels::ServoPanel& panel, const TeleopController& controller,
                const StudioDocument& document) {
  panel.set_robot_available(document.robot() != nullptr);
  panel.set_groups(controller.group_names(), controller.group());
  panel.set_joint_names(controller.joint_names());
}

}  // namespace

TeleopFeature install_teleop_feature(QMainWindow& window, StudioDocument& document,
                                     TrajectoryFeatures& trajectories, GoalController& goal) {
  TeleopFeature feature;
  feature.panel = new panels::ServoPanel;
  feature.controller = new TeleopController(document, goal, &window);
  feature.dock = new QDockWidget(QObject::tr("Teleop"), &window);
  feature.dock->setObjectName(QStringLiteral("TeleopDock"));
  feature.dock->setWidget(feature.panel);
  window.addDockWidget(Qt::RightDockWidgetArea, feature.dock);

  panels::ServoPanel* panel = feature.panel;
  TeleopController* controller = feature.controller;
  using panels::ServoPanel;
  QObject::connect(panel, &ServoPanel::enableToggled, controller, &TeleopController::set_enabled);
  QObject::connect(panel, &ServoPanel::sourceChanged, controller, &TeleopController::set_source);
  QObject::connect(
      panel, &ServoPanel::frameChanged, controller,
      [controller](panels::JogFrame frame) { controller->set_frame(to_servo_frame(frame)); });
  QObject::connect(panel, &ServoPanel::spacemouseAxesChanged, controller,
                   &TeleopController::set_spacemouse_axes);
  QObject::connect(panel, &ServoPanel::groupChanged, controller, &TeleopController::set_group);
  QObject::connect(panel, &ServoPanel::speedChanged, controller, &TeleopController::set_speed);
  QObject::connect(panel, &ServoPanel::jogPressed, controller, &TeleopController::press);
  QObject::connect(panel, &ServoPanel::jogReleased, controller, &TeleopController::release);

  QObject::connect(controller, &TeleopController::enabledChanged, panel,
                   &ServoPanel::set_teleop_enabled);
  QObject::connect(controller, &TeleopController::sourceChanged, panel, &ServoPanel::set_source);
  QObject::connect(controller, &TeleopController::deviceMessage, panel, &ServoPanel::show_note);
  QObject::connect(controller, &TeleopController::frameChanged, panel,
                   [panel](ServoCommand::Frame frame) {
                     panel->set_frame(frame == ServoCommand::Frame::Tool ? panels::JogFrame::Tool
                                                                         : panels::JogFrame::Base);
                   });
  QObject::connect(controller, &TeleopController::spacemouseAxesChanged, panel,
                   &ServoPanel::set_spacemouse_axes);
  QObject::connect(controller, &TeleopController::statusChanged, panel, [panel, controller] {
    panel->set_status(controller->status().text, controller->status().tone);
  });
  QObject::connect(controller, &TeleopController::groupsChanged, panel,
                   [panel, controller, &document] { show_robot(*panel, *controller, document); });
  QObject::connect(controller, &TeleopController::goalDistanceChanged, panel,
                   [panel, controller] { panel->set_goal_distance(controller->goal_distance()); });

  new TeleopRecording(document, *panel, *controller, trajectories, controller);
  feature.keyboard = new KeyboardJog(*controller, *panel, controller);
  new StopOnClose(window, *controller);
  // An end that skips the window's close (--quit-after) still leaves the document where the arm is.
  QObject::connect(qApp, &QCoreApplication::aboutToQuit, controller, &TeleopController::disable);

  show_robot(*panel, *controller, document);
  controller->set_speed(panel->speed_fraction());
  controller->set_frame(to_servo_frame(panel->frame()));
  controller->set_spacemouse_axes(panel->spacemouse_axes());
  panel->set_status(controller->status().text, controller->status().tone);
  panel->set_goal_distance(controller->goal_distance());
  return feature;
}

}  // namespace kinetic::app
