#pragma once
// The studio's main window: the 3D viewport in the centre, dockable panels, menus, status bar.
#include <QMainWindow>

class QLabel;

namespace kinetic::panels {
class JointsPanel;
}

namespace kinetic::app {

class StudioDocument;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // viewport: the widget shown in the centre (the Vulkan viewport's container).
  MainWindow(StudioDocument& document, QWidget* viewport, QWidget* parent = nullptr);

  panels::JointsPanel* joints_panel() const { return joints_panel_; }
  // Shows a load error without losing the current robot.
  void report_error(const QString& title, const QString& message);

 private:
  void build_menus();
  void open_urdf();
  void update_status();

  StudioDocument& document_;
  panels::JointsPanel* joints_panel_ = nullptr;
  QLabel* status_robot_ = nullptr;
};

}  // namespace kinetic::app
