#include "app/scene/scene_panel_binding.hpp"

#include <QObject>

#include "app/document/studio_document.hpp"
#include "engine/scene/scene_meshes.hpp"
#include "panels/scene_panel.hpp"

namespace kinetic::app {

void bind_scene_panel(panels::ScenePanel& panel, StudioDocument& document) {
  const auto sync_robot = [&panel, &document] {
    panel.set_robot(document.robot());
    panel.set_joints(document.joints());
  };
  sync_robot();
  panel.set_scene(document.scene());
  panel.set_selected(document.selected_object());
  QObject::connect(&document, &StudioDocument::robotChanged, &panel, sync_robot);
  QObject::connect(&document, &StudioDocument::jointsChanged, &panel,
                   [&panel, &document] { panel.set_joints(document.joints()); });
  QObject::connect(&document, &StudioDocument::sceneChanged, &panel,
                   [&panel, &document] { panel.set_scene(document.scene()); });
  QObject::connect(&document, &StudioDocument::selectionChanged, &panel,
                   [&panel, &document] { panel.set_selected(document.selected_object()); });
  QObject::connect(&panel, &panels::ScenePanel::sceneEdited, &document,
                   [&document](const PlanningScene& scene, const QString& what) {
                     document.edit_scene(scene, what);
                   });
  QObject::connect(&panel, &panels::ScenePanel::selectionEdited, &document,
                   [&document](const QString& name) { document.set_selected_object(name); });
}

QString why_the_scene_cannot_be_checked(const PlanningScene& scene, const std::exception& error) {
  const std::vector<SceneMeshProblem> problems = unreadable_scene_meshes(scene);
  if (problems.empty()) return QString::fromUtf8(error.what());
  const SceneMeshProblem& first = problems.front();
  QString reason =
      QObject::tr("object '%1': %2")
          .arg(QString::fromStdString(first.object), QString::fromStdString(first.message));
  if (problems.size() == 2)
    reason += QObject::tr("; and one more object whose mesh cannot be read");
  if (problems.size() > 2)
    reason +=
        QObject::tr("; and %1 more objects whose meshes cannot be read").arg(problems.size() - 1);
  return reason;
}

}  // namespace kinetic::app
