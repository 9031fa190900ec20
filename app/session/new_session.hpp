#pragma once
// File → New session: the document emptied to what a robot opens with, so the next work does not
// land in the session that was open before. The robot stays (in its rest pose, as it opens);
// the scene, the selection, the goal, the trajectories, the stored states, the Task panel's setup
// (it belongs to the scene), the playback and the undo history go. The Planner panel's and the
// re-time settings stay: they are preferences, not the work. Asking about unsaved changes and
// forgetting the session file are the caller's.
namespace kinetic::app {

class StudioDocument;

void clear_to_new_session(StudioDocument& document);

}  // namespace kinetic::app
