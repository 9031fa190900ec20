#include "app/session/session_view.hpp"

#include "app/document/studio_document.hpp"
#include "app/viewport/viewport_window.hpp"

namespace kinetic::app {

namespace {

SessionCamera to_session_camera(const viewer::Camera& camera) {
  SessionCamera session;
  session.target = camera.target.cast<double>();
  session.distance = camera.distance;
  session.azimuth = camera.yaw;
  session.elevation = camera.pitch;
  return session;
}

viewer::Camera to_view_camera(viewer::Camera camera, const SessionCamera& session) {
  camera.target = session.target.cast<float>();
  camera.distance = static_cast<float>(session.distance);
  camera.yaw = static_cast<float>(session.azimuth);
  camera.pitch = static_cast<float>(session.elevation);
  return camera;
}

}  // namespace

std::optional<SessionCamera> session_camera_of(ViewportWindow* viewport) {
  if (!viewport) return std::nullopt;
  return to_session_camera(viewport->camera());
}

void show_session_camera(ViewportWindow* viewport, const SessionCamera& camera) {
  if (viewport) viewport->set_camera(to_view_camera(viewport->camera(), camera));
}

QString save_session_with_view(ViewportWindow* viewport, const StudioDocument& document,
                               const QString& path) {
  return save_session(document, path, session_camera_of(viewport));
}

SessionLoadResult load_session_with_view(ViewportWindow* viewport, StudioDocument& document,
                                         const QString& path) {
  SessionLoadResult result = load_session(document, path);
  if (result.ok() && result.camera) show_session_camera(viewport, *result.camera);
  return result;
}

}  // namespace kinetic::app
