#pragma once
// The Joints panel's random pose checked against the document: robot and scene.
namespace kinetic::panels {
class JointsPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class StudioDocument;

// Gives the joints panel a collision check (robot + scene of the document) for its random pose.
// A scene the checker cannot take (an unreadable mesh) leaves the robot alone checked, and the
// panel is told why, to say so.
void bind_joints_panel_extras(panels::JointsPanel& panel, StudioDocument& document);

}  // namespace kinetic::app
