#include "app/session/new_session.hpp"

#include "app/document/studio_document.hpp"
#include "engine/planning/rest_pose.hpp"

namespace kinetic::app {

void clear_to_new_session(StudioDocument& document) {
  // The same order a session's load applies in: the goal and the trajectories after the joints
  // and the scene, so nothing is shown against the old world.
  if (const RobotModelPtr robot = document.robot()) document.set_joints(rest_pose(robot).q);
  document.set_scene(PlanningScene());
  document.set_selected_object({});
  document.set_goal({});
  document.set_shown_trajectory(-1);
  document.set_trajectories({});
  document.set_stored_states({});
  // The Task panel's setup belongs to the session's scene (a session saves it with its scene):
  // back to the panel's defaults, as a session without one opens.
  document.load_task_settings(std::nullopt);
  document.set_playback_joints(std::nullopt);
  document.set_playback_scene(std::nullopt);
  // Last: the edits above are not steps to undo into the old session.
  document.undo_stack().clear();
  document.start_new_work();  // a plan still running was asked for by the old work
}

}  // namespace kinetic::app
