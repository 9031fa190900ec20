#pragma once
// Sessions with the 3D view's camera: saved when the window shows a viewport, applied on load
// when the file has one. Without a viewport they are plain save_session / load_session.
#include <QString>
#include <functional>
#include <optional>

#include "app/session/session_file.hpp"

namespace kinetic::app {

class StudioDocument;
class ViewportWindow;

// The window's 3D view, asked for when needed (it is attached after the features); null: none.
using ViewportSource = std::function<ViewportWindow*()>;

QString save_session_with_view(ViewportWindow* viewport, const StudioDocument& document,
                               const QString& path);
SessionLoadResult load_session_with_view(ViewportWindow* viewport, StudioDocument& document,
                                         const QString& path);

// The view's camera as a session keeps it (std::nullopt without a view), and a session's camera
// put on the view (nothing without one): the autosave and its recovery carry it too.
std::optional<SessionCamera> session_camera_of(ViewportWindow* viewport);
void show_session_camera(ViewportWindow* viewport, const SessionCamera& camera);

}  // namespace kinetic::app
