#pragma once
// The Task panel's place target as the 3D view sees it: the chosen object's shape at the place
// pose the panel would plan with (shown while the Task dock is), and whether the view's gizmo
// moves it instead of the goal or the selected obstacle. Panel state, not the document's: moving
// it makes no undo entry and leaves the session unmodified.
#include <QObject>
#include <optional>

#include "engine/geometry/shape.hpp"

namespace kinetic::app {

struct PlaceMarker {
  Shape shape;
  Pose pose = Pose::Identity();  // world
};

class PlaceTarget : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  const std::optional<PlaceMarker>& marker() const { return marker_; }
  // The gizmo moves the marker: asked for (the panel's Move in 3D view) while a marker is shown.
  bool has_gizmo() const { return gizmo_wanted_ && marker_.has_value(); }

  void set_marker(std::optional<PlaceMarker> marker);
  void set_gizmo_wanted(bool wanted);
  // The view's gizmo moved the marker to `pose` (the Task feature turns it into the panel's fields,
  // which move the marker).
  void drag_to(const Pose& pose);
  // A click in the view asks for the gizmo (on the shown marker) or gives it back (on an
  // obstacle). The Task feature turns the request into the panel's Move in 3D view, which calls
  // set_gizmo_wanted: the button stays the one switch.
  void request_gizmo(bool wanted);

 signals:
  void changed();  // the marker or who has the gizmo
  void dragged(const kinetic::Pose& pose);
  void gizmoRequested(bool wanted);

 private:
  std::optional<PlaceMarker> marker_;
  bool gizmo_wanted_ = false;
};

}  // namespace kinetic::app
