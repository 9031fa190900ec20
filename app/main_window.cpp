#include "app/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include "app/studio_document.hpp"
#include "engine/model/robot_loader.hpp"
#include "panels/joints_panel.hpp"

namespace kinetic::app {

MainWindow::MainWindow(StudioDocument& document, QWidget* viewport, QWidget* parent)
    : QMainWindow(parent), document_(document) {
  setWindowTitle(QStringLiteral("Kinetic Studio"));
  resize(1280, 800);
  setCentralWidget(viewport);

  joints_panel_ = new panels::JointsPanel(this);
  auto* joints_dock = new QDockWidget(tr("Joints"), this);
  joints_dock->setObjectName(QStringLiteral("JointsDock"));
  joints_dock->setWidget(joints_panel_);
  joints_panel_->setMinimumWidth(300);
  addDockWidget(Qt::LeftDockWidgetArea, joints_dock);

  status_robot_ = new QLabel(this);
  statusBar()->addPermanentWidget(status_robot_);

  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    joints_panel_->set_robot(document_.robot());
    joints_panel_->set_values(document_.joints());
    update_status();
  });
  connect(&document_, &StudioDocument::jointsChanged, this,
          [this] { joints_panel_->set_values(document_.joints()); });
  connect(joints_panel_, &panels::JointsPanel::valuesEdited, this,
          [this](const JointVector& q) { document_.edit_joints(q); });

  build_menus();
  if (document_.robot()) {
    joints_panel_->set_robot(document_.robot());
    joints_panel_->set_values(document_.joints());
  }
  update_status();
}

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open URDF…"), QKeySequence::Open, this, &MainWindow::open_urdf);
  QMenu* library = file->addMenu(tr("&Built-in robots"));
  for (const BuiltinRobotInfo& info : builtin_robots()) {
    const QString name = QString::fromStdString(info.name);
    library->addAction(QStringLiteral("%1 %2 (%3 DOF)")
                           .arg(QString::fromStdString(info.manufacturer),
                                QString::fromStdString(info.model))
                           .arg(info.dof),
                       this, [this, name] {
                         const QString error = document_.load_robot(name);
                         if (!error.isEmpty()) report_error(tr("Could not load robot"), error);
                       });
  }
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Kinetic Studio"), this, [this] {
    QMessageBox::about(this, tr("About Kinetic Studio"),
                       tr("Kinetic Studio %1\nRobot-arm motion planning.")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

void MainWindow::open_urdf() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open robot"), QString(),
                                                    tr("Robot descriptions (*.urdf);;All files (*)"));
  if (path.isEmpty()) return;
  const QString error = document_.load_robot(path);
  if (!error.isEmpty()) report_error(tr("Could not open %1").arg(path), error);
}

void MainWindow::report_error(const QString& title, const QString& message) {
  statusBar()->showMessage(message, 10000);
  QMessageBox::warning(this, title, message);
}

void MainWindow::update_status() {
  const RobotModelPtr robot = document_.robot();
  status_robot_->setText(robot ? tr("%1 · %2 DOF").arg(QString::fromStdString(robot->name())).arg(robot->dof())
                               : tr("no robot"));
}

}  // namespace kinetic::app
