#pragma once
// The Scene panel bound to the document: it shows the document's scene, robot, joints and
// selection, and its edits are the document's undo steps. And the words for a scene a collision
// checker cannot take.
#include <QString>
#include <exception>

#include "engine/scene/planning_scene.hpp"

namespace kinetic::panels {
class ScenePanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class StudioDocument;

void bind_scene_panel(panels::ScenePanel& panel, StudioDocument& document);

// Why a collision checker refused `scene`: the objects whose mesh cannot be read, by name (the
// checker's error names only the file), else the checker's own error.
QString why_the_scene_cannot_be_checked(const PlanningScene& scene, const std::exception& error);

}  // namespace kinetic::app
