#pragma once
// IkWorker: inverse kinematics for the goal gizmo and the goal panel, off the GUI thread. The
// newest request wins: a request arriving while one runs replaces any waiting one; the running
// solve finishes and answers first (answers come in request order, matched by sequence number),
// so a fast drag never applies an old pose after a newer one and never starves its own solves.
//
// Analytic solvers give every solution; they are ordered by distance from the seed and
// solution_index picks one (cycling through the arm's configurations). A drag step asks only for
// the solution nearest the seed (IkRequest::nearest_only): numeric and sweep solvers then make one
// solve from the seed instead of listing every solution. Collision-aware requests
// skip solutions that collide with the robot itself or the planning scene. Failures carry the
// engine's reason (unreachable, outside the joint limits, in collision naming the links).
#include <QMetaType>
#include <QObject>
#include <QString>
#include <memory>
#include <string>

#include "app/workers/newest_wins_worker.hpp"
#include "engine/core/types.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::app {

struct IkRequest {
  Pose target = Pose::Identity();  // TCP pose in the planning group's base link
  JointVector seed;                // model order; also fills the joints outside the group
  bool collision_aware = false;
  int solution_index = 0;  // 0 = closest to the seed; wraps around the solution count
  // A gizmo drag's step: only the solution nearest the seed, from one numeric solve seeded there
  // (no restarts, no sweep of the redundant joint), so the arm keeps its configuration from step
  // to step as with RViz's interactive marker, and a 7-DOF arm's step costs one solve rather than
  // the sweep's ~16 (50-90 ms each on two loaded cores). Where that solve fails (out of reach from
  // this seed, out of limits, or colliding when collision-aware) the full solve answers instead,
  // so the drag does not get stuck. Analytic solvers list every solution either way (as cheap).
  bool nearest_only = false;
};

struct IkAnswer {
  JointVector joints;  // model order
  Pose target = Pose::Identity();
  int solution_index = 0;  // which of the solutions (after wrapping)
  int solution_count = 0;  // how many valid solutions the pose has (1 for numeric solvers);
                           // 0: not counted (a nearest-only answer; solution_index is then 0)
};

class IkWorker : public QObject {
  Q_OBJECT
 public:
  explicit IkWorker(QObject* parent = nullptr);
  ~IkWorker() override;

  // All apply to the requests made after the call. group: the planning group whose chain solves
  // ("" = the robot's default, kinetic.toml's [ik] group or the first).
  void set_robot(RobotModelPtr robot);
  void set_group(const std::string& group);
  void set_scene(const PlanningScene& scene);

  // Returns the request's sequence number (increasing).
  quint64 request(const IkRequest& request);
  quint64 latest_request() const { return latest_; }

 signals:
  void solved(quint64 sequence, const kinetic::app::IkAnswer& answer);
  void failed(quint64 sequence, const QString& reason);

 private:
  struct Engine;  // solver, chain and checker; used only on the worker thread

  RobotModelPtr robot_;
  std::string group_;
  std::shared_ptr<const PlanningScene> scene_;
  quint64 scene_version_ = 0;
  quint64 latest_ = 0;  // the newest request's id
  std::shared_ptr<Engine> engine_;
  NewestWinsWorker worker_;  // last: its thread stops before the rest goes
};

}  // namespace kinetic::app

Q_DECLARE_METATYPE(kinetic::app::IkAnswer)
