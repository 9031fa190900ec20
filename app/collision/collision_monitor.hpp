#pragma once
// CollisionMonitor: live collision feedback. Whenever the joints, the goal or the scene change it
// checks the current state and the goal state (self + scene) with the engine's CollisionChecker
// off the GUI thread (newest state wins) and publishes the colliding pairs with their depth, the
// minimum distance and its pair, the colliding links (for highlighting) and, when asked, the
// checker's sphere model at the current state.
#include <QObject>
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "app/workers/newest_wins_worker.hpp"
#include "engine/collision/collision_checker.hpp"

namespace kinetic::app {

class StudioDocument;

struct CollisionSphere {
  Vector3 center = Vector3::Zero();  // world
  double radius = 0.0;
};

struct StateCollisions {
  std::vector<Contact> contacts;     // empty: free
  std::vector<int> colliding_links;  // robot link indices in any contact
  DistanceResult closest;            // minimum distance and its pair (when free)
};

// One line of the Collisions list: its text and the pair it names (data, so a control can act on
// the pair without parsing the text).
struct CollisionPairRow {
  QString text;    // "current: a–b (1.2 mm deep)"
  QString body_a;  // links, obstacles or attached objects, as the checker names them
  QString body_b;
  bool self =
      false;  // both are robot links: the robot's collision matrix, not the scene, skips them
};

struct CollisionReport {
  bool valid = false;  // false until the first answer, or when checking failed (see error)
  std::string error;
  StateCollisions current;
  bool has_goal = false;
  StateCollisions goal;
  std::vector<CollisionSphere> spheres;  // filled only while spheres are wanted
};

class CollisionMonitor : public QObject {
  Q_OBJECT
 public:
  explicit CollisionMonitor(StudioDocument& document, QObject* parent = nullptr);
  ~CollisionMonitor() override;

  const CollisionReport& report() const { return report_; }
  void set_spheres_wanted(bool wanted);
  bool spheres_wanted() const { return spheres_wanted_; }
  // Status bar text: "collision: free (min 4.2 cm, a–b)" or "COLLISION: a–b, ...".
  QString summary() const;
  // One row per colliding pair of the current state, then the goal's.
  std::vector<CollisionPairRow> pair_rows() const;
  // The rows' texts.
  QStringList pair_lines() const;
  // When the current state's only contacts are between the robot's own links: how to list pairs
  // that touch in every pose (a URDF without an SRDF names none). Otherwise "".
  QString self_collision_hint() const;
  // Requests a check of the document's state now (also done on every change).
  void refresh();

 signals:
  void reportChanged();

 private:
  struct Engine;
  StudioDocument& document_;
  CollisionReport report_;
  bool spheres_wanted_ = false;
  quint64 scene_version_ = 0;
  std::shared_ptr<const PlanningScene> scene_;
  std::shared_ptr<Engine> engine_;
  NewestWinsWorker worker_;
};

}  // namespace kinetic::app
