#pragma once
// RobotLoader: loads robots for the studio's interactive entry points (File → Open URDF, recent
// files, the Robot library, File → Built-in robots, F5, a robot file changed on disk) without
// freezing the window. prepare_robot and the reading of the display meshes run on a worker thread;
// the result is installed on the GUI thread by StudioDocument::install_robot, as load_robot does.
// The newest request wins: an older one still running finishes on the worker (engine loading
// cannot be interrupted) and its result is dropped. A result is dropped too when another session
// was opened or a new one started meanwhile (the document's work_generation, as for plans), or the
// robot was replaced by a synchronous load. Destroying the loader waits for the load running on
// the worker and drops its result.
#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "app/document/robot_preparation.hpp"
#include "app/document/studio_document.hpp"
#include "app/workers/newest_wins_worker.hpp"

namespace kinetic::app {

class RobotLoader : public QObject {
  Q_OBJECT
 public:
  // Runs on the GUI thread once the request's robot was installed (error "") or could not be
  // loaded (load_robot's error; the robot stays); never for a request superseded or dropped, nor
  // once its context object is gone.
  using Done = std::function<void(const QString& error)>;
  // Work done on the worker after the model is built (reading its display meshes ahead).
  using MeshWarmer = std::function<void(const RobotModel& robot, const std::atomic<bool>* cancel)>;

  explicit RobotLoader(StudioDocument& document, QObject* parent = nullptr);
  ~RobotLoader() override;

  void load(const RobotLoadRequest& request, QObject* context = nullptr, Done done = {});
  // The loaded robot again, with the choices and paths it was loaded with (as
  // StudioDocument::reload_robot). False, and nothing started, when no robot was loaded.
  bool reload(QObject* context = nullptr, Done done = {});
  // Drops the request in flight: its result is not installed.
  void cancel();
  bool busy() const { return worker_.busy(); }
  // Asked on the GUI thread at each request for the work that reads the display meshes ahead (the
  // 3D view's ViewportWindow::mesh_warmer()); null, or a null answer: none.
  void set_mesh_warmer_source(std::function<MeshWarmer()> source) {
    mesh_warmer_source_ = std::move(source);
  }

  // What a request loads, for messages: a built-in robot's name, a URDF's file name.
  static QString display_name(const RobotLoadRequest& request);

 signals:
  void started(const QString& name);
  void busyChanged(bool busy);
  // A load whose result was not installed; `why` says what came first.
  void dropped(const QString& why);

 private:
  struct InFlight {
    QString name;
    quint64 work = 0;            // the document's work_generation() when asked for
    RobotModelPtr robot_before;  // the document's robot then: another installed since wins
    bool guarded = false;        // `done` needs `context` alive
    QPointer<QObject> context;
    Done done;
  };
  void finish(const PreparedRobot& prepared);  // the newest request's answer

  QPointer<StudioDocument> document_;  // a result arriving after it is gone is dropped
  InFlight in_flight_;
  std::function<MeshWarmer()> mesh_warmer_source_;
  NewestWinsWorker worker_;  // last: its thread stops before the rest goes
};

}  // namespace kinetic::app
