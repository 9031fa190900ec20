#pragma once
// The planning features in a plain main window with a real document: the UR5e, a 20 cm box where
// its TCP is at arm(0), the arm at arm(-1.2), so a plan from one side to the other goes around it.
// Shared by the planning-features and validation-status tests.
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QtGlobal>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "engine/planning/planner.hpp"
#include "panels/planner_panel.hpp"

namespace kinetic::test {

// A UR5e pose with the base turned to `pan` (rad), the arm reaching forward.
inline JointVector ur5e_arm(double pan) {
  // Filled in place: copying the comma initializer's finished() vector makes GCC 12 at -O1 warn
  // (maybe-uninitialized) inside Eigen's copy.
  JointVector q(6);
  q << pan, -1.2, 1.2, -1.57, -1.57, 0.0;
  return q;
}

struct Ur5eBesideBox {
  QMainWindow window;
  app::StudioDocument document;
  app::PlanningFeatures* features = nullptr;

  Ur5eBesideBox() {
    if (!document.load_robot(QStringLiteral("ur5e")).isEmpty()) qFatal("ur5e did not load");
    features = app::install_planning_features(window, document);
    document.set_scene(box_at(Vector3::Zero()));
    document.set_joints(ur5e_arm(-1.2));
  }
  // The scene with the box moved by `offset` from where the TCP is at arm(0).
  PlanningScene box_at(const Vector3& offset) const {
    Planner probe(document.robot());
    PlanningScene scene;
    scene.add_obstacle(
        "box1", Shape::box(Vector3(0.2, 0.2, 0.2)),
        Pose(Eigen::Translation3d(probe.tcp_pose(ur5e_arm(0.0)).translation() + offset)));
    return scene;
  }
  // Plans to `goal` with the Planner panel (seed 5); an empty outcome when none came in a minute.
  app::PlanOutcome plan_to(const JointVector& goal) {
    app::GoalState g;
    g.joints = goal;
    document.set_goal(g);
    QSignalSpy done(features, &app::PlanningFeatures::planFinished);
    features->planner_panel()->seed_edit()->setText(QStringLiteral("5"));
    features->planner_panel()->plan_button()->click();
    if (!done.wait(60000)) return {};
    return qvariant_cast<app::PlanOutcome>(done.first().at(0));
  }
};

}  // namespace kinetic::test
