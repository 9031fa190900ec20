#include "app/robot_loading/robot_loader.hpp"

#include <QFileInfo>
#include <QMetaObject>

#include "app/interaction/latest_job_runner.hpp"
#include "app/planning/background_priority.hpp"
#include "app/robot_reference.hpp"
#include "app/studio_document.hpp"

namespace kinetic::app {

RobotLoader::RobotLoader(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(&document), runner_(std::make_unique<LatestJobRunner>()) {
  // The work the load was asked for is gone: it must not land in the new one.
  connect(&document, &StudioDocument::workReplaced, this, [this] {
    if (!busy()) return;
    const QString name = in_flight_.name;
    cancel();
    emit dropped(tr("Loading %1 was stopped: another session was opened or a new one started.").arg(name));
  });
}

RobotLoader::~RobotLoader() {
  // The running load stops at its next step; joining waits for the engine's part, which cannot be
  // interrupted. Its answer, posted to this object, goes with it.
  requests_.cancel();
  runner_.reset();
}

QString RobotLoader::display_name(const RobotLoadRequest& request) {
  const QString name = QFileInfo(request.reference).fileName();
  return name.isEmpty() ? request.reference : name;
}

void RobotLoader::load(const RobotLoadRequest& request, QObject* context, Done done) {
  if (!document_) return;
  const bool was_busy = busy();
  const NewestRequest::Ticket ticket = requests_.begin();
  in_flight_ = InFlight{.id = ticket.id,
                        .name = display_name(request),
                        .work = document_->work_generation(),
                        .robot_before = document_->robot(),
                        .guarded = context != nullptr,
                        .context = context,
                        .done = std::move(done)};
  MeshWarmer warm = mesh_warmer_source_ ? mesh_warmer_source_() : MeshWarmer{};
  runner_->post([this, id = ticket.id, cancel = ticket.cancel, request,
                 current = same_robot_reference(request.reference, document_->robot_reference())
                               ? document_->robot()
                               : nullptr,
                 warm = std::move(warm)] {
    // As planning does: on a machine with few cores the window keeps drawing.
    lower_current_thread_priority();
    if (cancel->load()) return;
    PreparedRobot prepared = prepare_robot(request, current);
    if (cancel->load()) return;  // superseded: nobody waits for the meshes
    if (prepared.robot && warm) warm(*prepared.robot, cancel.get());
    QMetaObject::invokeMethod(
        this, [this, id, prepared = std::move(prepared)] { finish(id, prepared); }, Qt::QueuedConnection);
  });
  if (!was_busy) emit busyChanged(true);
  emit started(in_flight_.name);
}

bool RobotLoader::reload(QObject* context, Done done) {
  if (!document_ || document_->robot_reference().isEmpty()) return false;
  const StudioDocument& document = *document_;
  load({document.robot_reference(), document.srdf_choice(), document.config_choice(), document.package_paths()},
       context, std::move(done));
  return true;
}

void RobotLoader::cancel() {
  if (!busy()) return;
  requests_.cancel();
  requests_.finish(in_flight_.id);
  in_flight_ = {};
  emit busyChanged(false);
}

void RobotLoader::finish(quint64 id, const PreparedRobot& prepared) {
  if (!requests_.finish(id)) return;  // superseded or cancelled
  const InFlight request = std::move(in_flight_);
  in_flight_ = {};
  if (!document_) {
    emit busyChanged(false);
    return;
  }
  QString dropped_because;
  if (request.work != document_->work_generation())
    dropped_because = tr("Loading %1 was stopped: another session was opened or a new one started.").arg(request.name);
  else if (document_->robot() != request.robot_before)
    dropped_because = tr("%1 was not loaded: another robot was loaded meanwhile.").arg(request.name);
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
