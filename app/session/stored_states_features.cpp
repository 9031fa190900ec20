#include "app/session/stored_states_features.hpp"

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "panels/stored_states_panel.hpp"

namespace kinetic::app {

void bind_stored_states(panels::StoredStatesPanel& panel, StudioDocument& document,
                        GoalController& goal) {
  panel.set_robot(document.robot());
  panel.set_states(document.stored_states());
  QObject::connect(&document, &StudioDocument::robotChanged, &panel,
                   [&panel, &document] { panel.set_robot(document.robot()); });
  QObject::connect(&document, &StudioDocument::storedStatesChanged, &panel,
                   [&panel, &document] { panel.set_states(document.stored_states()); });
  QObject::connect(&panel, &panels::StoredStatesPanel::storeRequested, &document,
                   [&document](const panels::StoredState& state) { document.store_state(state); });
  QObject::connect(&panel, &panels::StoredStatesPanel::renameRequested, &document,
                   [&document](const QString& from, const QString& to) {
                     document.rename_stored_state(from, to);
                   });
  QObject::connect(&panel, &panels::StoredStatesPanel::deleteRequested, &document,
                   [&document](const QString& name) { document.delete_stored_state(name); });
  QObject::connect(&panel, &panels::StoredStatesPanel::applyRequested, &document,
                   [&document](const QString& name, const JointVector& q) {
                     document.edit_joints(q, StudioDocument::tr("Apply state '%1'").arg(name));
                   });
  QObject::connect(&panel, &panels::StoredStatesPanel::goalRequested, &goal,
                   [&goal](const QString& name, const JointVector& q) {
                     goal.goal_from_joints(q, GoalController::tr("Goal from state '%1'").arg(name));
                   });
}

}  // namespace kinetic::app
