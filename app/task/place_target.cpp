#include "app/task/place_target.hpp"

namespace kinetic::app {

void PlaceTarget::set_marker(std::optional<PlaceMarker> marker) {
  marker_ = std::move(marker);
  emit changed();
}

void PlaceTarget::set_gizmo_wanted(bool wanted) {
  if (wanted == gizmo_wanted_) return;
  gizmo_wanted_ = wanted;
  emit changed();
}

void PlaceTarget::drag_to(const Pose& pose) {
  if (has_gizmo()) emit dragged(pose);
}

void PlaceTarget::request_gizmo(bool wanted) {
  if (wanted && !marker_) return;  // nothing shown to move
  emit gizmoRequested(wanted);
}

}  // namespace kinetic::app
