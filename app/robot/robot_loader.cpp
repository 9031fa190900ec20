#include "app/robot/robot_loader.hpp"

#include <QFileInfo>

#include "app/document/robot_reference.hpp"
#include "app/document/studio_document.hpp"

namespace kinetic::app {

RobotLoader::RobotLoader(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(&document), worker_(QStringLiteral("robot loader")) {
  // The work the load was asked for is gone: it must not land in the new one.
  connect(&document, &StudioDocument::workReplaced, this, [this] {
    if (!busy()) return;
    const QString name = in_flight_.name;
    cancel();
    emit dropped(
        tr("Loading %1 was stopped: another session was opened or a new one started.").arg(name));
  });
}

// The worker goes first: the running load stops at its next step, joining waits for the engine's
// part, which cannot be interrupted, and its answer goes with it.
RobotLoader::~RobotLoader() = default;

QString RobotLoader::display_name(const RobotLoadRequest& request) {
  const QString name = QFileInfo(request.reference).fileName();
  return name.isEmpty() ? request.reference : name;
}

void RobotLoader::load(const RobotLoadRequest& request, QObject* context, Done done) {
  if (!document_) return;
  const bool was_busy = busy();
  InFlight in_flight{.name = display_name(request),
                     .work = document_->work_generation(),
                     .robot_before = document_->robot(),
                     .guarded = context != nullptr,
                     .context = context,
                     .done = std::move(done)};
  MeshWarmer warm = mesh_warmer_source_ ? mesh_warmer_source_() : MeshWarmer{};
  // Below the interface (the worker's priority), as planning: on a machine with few cores the
  // window keeps drawing.
  worker_.submit(
      [request,
       current = same_robot_reference(request.reference, document_->robot_reference())
                     ? document_->robot()
                     : nullptr,
       warm = std::move(warm)](const NewestWinsWorker::Job& job) {
        if (job.cancelled()) return PreparedRobot{};  // superseded: its answer is dropped
        PreparedRobot prepared = prepare_robot(request, current);
        if (prepared.robot && warm && !job.cancelled()) warm(*prepared.robot, job.cancel_flag());
        return prepared;
      },
      [this](const PreparedRobot& prepared) { finish(prepared); });
  in_flight_ = std::move(in_flight);
  if (!was_busy) emit busyChanged(true);
  emit started(in_flight_.name);
}

bool RobotLoader::reload(QObject* context, Done done) {
  if (!document_ || document_->robot_reference().isEmpty()) return false;
  const StudioDocument& document = *document_;
  load({document.robot_reference(), document.srdf_choice(), document.config_choice(),
        document.package_paths()},
       context, std::move(done));
  return true;
}

void RobotLoader::cancel() {
  if (!busy()) return;
  worker_.abandon();
  in_flight_ = {};
  emit busyChanged(false);
}

void RobotLoader::finish(const PreparedRobot& prepared) {
  const InFlight request = std::move(in_flight_);
  in_flight_ = {};
  if (!document_) {
    emit busyChanged(false);
    return;
  }
  QString dropped_because;
  if (request.work != document_->work_generation())
    dropped_because = tr("Loading %1 was stopped: another session was opened or a new one started.")
                          .arg(request.name);
  else if (document_->robot() != request.robot_before)
    dropped_because =
        tr("%1 was not loaded: another robot was loaded meanwhile.").arg(request.name);
  if (!dropped_because.isEmpty()) {
    emit busyChanged(false);
    emit dropped(dropped_because);
    return;
  }
  const QString error = document_->install_robot(prepared);
  emit busyChanged(false);
  if (request.done && (!request.guarded || request.context)) request.done(error);
}

}  // namespace kinetic::app
