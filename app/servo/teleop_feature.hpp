#pragma once
// The Teleop dock: the Teleop panel, its TeleopController and the glue between them, the
// document's robot, the goal (the Follow goal input), the window (closing it stops the arm first)
// and the trajectory recorder (the panel's Record). install_teleop_feature() adds the dock on the
// right; the caller lists it in the View menu.
class QDockWidget;
class QMainWindow;

namespace kinetic::panels {
class ServoPanel;
}

namespace kinetic::app {

class GoalController;
class StudioDocument;
class TrajectoryFeatures;
class KeyboardJog;
class TeleopController;

struct TeleopFeature {
  QDockWidget* dock = nullptr;
  panels::ServoPanel* panel = nullptr;
  TeleopController* controller = nullptr;
  KeyboardJog* keyboard = nullptr;  // the arrow keys; MainWindow hands it the 3D view
};

TeleopFeature install_teleop_feature(QMainWindow& window, StudioDocument& document,
                                     TrajectoryFeatures& trajectories, GoalController& goal);

}  // namespace kinetic::app
