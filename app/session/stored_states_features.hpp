#pragma once
// The user's stored states, bound to the document: the Joints panel's Stored states list shows the
// document's states against its robot; Store, Rename and Delete are undo steps of the document
// (and so unsaved changes of the session); Apply moves the joints ("Apply state 'above bin'", one
// undo step) and As goal makes the state the goal, with its TCP pose, through the goal controller.
namespace kinetic::panels {
class StoredStatesPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class StudioDocument;
class GoalController;

void bind_stored_states(panels::StoredStatesPanel& panel, StudioDocument& document,
                        GoalController& goal);

}  // namespace kinetic::app
