#include "app/robot/joints_panel_binding.hpp"

#include <QObject>
#include <memory>

#include "app/document/studio_document.hpp"
#include "app/scene/scene_panel_binding.hpp"
#include "engine/collision/collision_checker.hpp"
#include "panels/joints_panel.hpp"

namespace kinetic::app {

void bind_joints_panel_extras(panels::JointsPanel& panel, StudioDocument& document) {
  // One checker per robot (building its sphere model is the expensive part); the scene is
  // handed over again only after it changed.
  struct Cache {
    RobotModelPtr robot;
    std::unique_ptr<CollisionChecker> checker;
    bool scene_stale = true;
    QString scene_skipped;  // why the checker holds no scene ("" when it holds the document's)
  };
  auto cache = std::make_shared<Cache>();
  QObject::connect(&document, &StudioDocument::sceneChanged, &panel,
                   [cache] { cache->scene_stale = true; });
  panel.set_state_check(
      [cache, &document](const JointVector& q) {
        if (!document.robot()) return true;
        if (cache->robot != document.robot()) {
          cache->robot = document.robot();
          cache->checker = std::make_unique<CollisionChecker>(cache->robot);
          cache->scene_stale = true;
        }
        if (cache->scene_stale) {
          cache->scene_skipped.clear();
          try {
            cache->checker->set_scene(document.scene());
          } catch (const std::exception& error) {
            // An unusable scene object: check the robot alone, and let the panel say so.
            cache->scene_skipped = why_the_scene_cannot_be_checked(document.scene(), error);
            cache->checker->set_scene(PlanningScene());
          }
          cache->scene_stale = false;
        }
        return !cache->checker->in_collision(q);
      },
      [cache] { return cache->scene_skipped; });
}

}  // namespace kinetic::app
