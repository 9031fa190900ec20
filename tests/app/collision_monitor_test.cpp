// Qt Test (offscreen): live collision feedback on the real UR5e: a box around the tool makes the
// state collide (pairs named, links flagged), moving it away frees the state with a minimum
// distance; a pose where only the robot's own links touch comes with a hint on skipping pairs; the
// goal state is checked too, and the sphere model comes when asked.
#include <QSignalSpy>
#include <QtTest>
#include <cmath>
#include <random>

#include "app/collision/collision_monitor.hpp"
#include "app/document/studio_document.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "engine/collision/collision_checker.hpp"
#include "support/self_colliding_pose.hpp"

using kinetic::app::CollisionMonitor;
using kinetic::app::StudioDocument;

namespace {

kinetic::PlanningScene box_at(const kinetic::Vector3& centre) {
  kinetic::PlanningScene scene;
  kinetic::Pose pose = kinetic::Pose::Identity();
  pose.translation() = centre;
  scene.add_obstacle("box1", kinetic::Shape::box(kinetic::Vector3(0.2, 0.2, 0.2)), pose);
  return scene;
}

}  // namespace

class CollisionMonitorTest : public QObject {
  Q_OBJECT
 private slots:
  void reports_contacts_and_minimum_distance() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    kinetic::JointVector q(6);
    q << 0.3, -1.2, 1.4, -0.5, 1.1, 0.2;
    document.set_joints(q);
    CollisionMonitor monitor(document);
    QSignalSpy changed(&monitor, &CollisionMonitor::reportChanged);
    const kinetic::app::TcpKinematics tcp(document.robot());
    const kinetic::Vector3 tool = tcp.tcp_in_world(q).translation();

    document.set_scene(box_at(tool));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().valid && !monitor.report().current.contacts.empty(),
                             5000);
    QVERIFY2(monitor.summary().startsWith(QStringLiteral("COLLISION: ")),
             qPrintable(monitor.summary()));
    QVERIFY2(monitor.summary().contains(QStringLiteral("box1")), qPrintable(monitor.summary()));
    QVERIFY(!monitor.report().current.colliding_links.empty());
    const int link = monitor.report().current.colliding_links.front();
    QVERIFY(link >= 0 && link < static_cast<int>(document.robot()->links().size()));
    QVERIFY(monitor.pair_lines().first().contains(QStringLiteral("mm deep")));
    // Each row carries its pair as data: the box and a link, not a self pair.
    const auto row = monitor.pair_rows().front();
    QVERIFY(row.body_a == QStringLiteral("box1") || row.body_b == QStringLiteral("box1"));
    QVERIFY(!row.self);
    QVERIFY(monitor.self_collision_hint().isEmpty());  // an obstacle is involved

    // 0.5 m above the tool the box is clear: free, with the distance to the nearest pair.
    document.set_scene(box_at(tool + kinetic::Vector3(0, 0, 0.5)));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().current.contacts.empty(), 5000);
    QVERIFY2(monitor.summary().startsWith(QStringLiteral("collision: free (min ")),
             qPrintable(monitor.summary()));
    QVERIFY(monitor.report().current.closest.found);
    QVERIFY2(monitor.report().current.closest.distance > 0.0 &&
                 monitor.report().current.closest.distance < 0.5,
             qPrintable(monitor.summary()));
    QVERIFY(monitor.report().current.colliding_links.empty());
    QVERIFY(changed.count() >= 2);
  }

  // The clearance reading names the closest pair a pose can bring closer: the hand a few cm before
  // a box reads the distance to the box. It read "min 0.6 cm, base_link–link2" in every pose on
  // both robots: the shoulder housing turns on its own axis 6 mm above the base, which no pose
  // changes.
  void the_clearance_names_the_closest_pair_a_pose_can_change() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const kinetic::JointVector home = document.robot()->named_pose("home");  // upright
    document.set_joints(home);
    CollisionMonitor monitor(document);
    const kinetic::app::TcpKinematics tcp(document.robot());
    const kinetic::Pose tool = tcp.tcp_in_world(home);  // pointing sideways (along -y)
    const kinetic::PlanningScene scene =
        box_at(tool.translation() + tool.linear().col(2) * (0.1 + 0.06));
    document.set_scene(scene);
    QTRY_VERIFY2_WITH_TIMEOUT(monitor.report().valid && monitor.report().current.closest.found &&
                                  monitor.summary().contains(QStringLiteral("box1")),
                              qPrintable(monitor.summary()), 5000);
    // As far as the engine measures the robot from the box.
    kinetic::CollisionChecker checker(document.robot());
    checker.set_scene(scene);
    kinetic::DistanceOptions scene_only;
    scene_only.self = false;
    const double to_box = checker.min_distance(home, scene_only).distance;
    const kinetic::DistanceResult& closest = monitor.report().current.closest;
    QVERIFY2(
        to_box > 0.0 && to_box < 0.06 && std::abs(closest.distance - to_box) < 1e-6,
        qPrintable(QStringLiteral("%1; the box is %2 m away").arg(monitor.summary()).arg(to_box)));
    // Without the box: a pair of the arm's own links, never the pair held at 6 mm.
    document.set_scene({});
    QTRY_VERIFY_WITH_TIMEOUT(
        monitor.report().valid && !monitor.summary().contains(QStringLiteral("box1")), 5000);
    QVERIFY2(!monitor.summary().contains(QStringLiteral("base_link–link2")),
             qPrintable(monitor.summary()));
    // The Panda's shoulder is held above its base the same way.
    QSignalSpy reported(&monitor, &CollisionMonitor::reportChanged);
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    QVERIFY(reported.wait(5000));
    QVERIFY2(monitor.report().valid && monitor.report().current.closest.found,
             qPrintable(monitor.summary()));
    QVERIFY2(!monitor.summary().contains(QStringLiteral("base_link–link2")),
             qPrintable(monitor.summary()));
  }

  // Links touching each other and nothing else: the Collisions list says how to skip pairs
  // that touch in every pose.
  void self_collision_comes_with_a_hint() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    CollisionMonitor monitor(document);
    const kinetic::JointVector folded = kinetic::test::self_colliding_pose(document.robot());
    QVERIFY2(folded.size() > 0, "no self-colliding pose among 10,000 random ones");
    document.set_joints(folded);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().valid && !monitor.report().current.contacts.empty(),
                             5000);
    QVERIFY2(
        monitor.self_collision_hint().contains(QStringLiteral("Tools → Generate collision matrix")),
        qPrintable(monitor.self_collision_hint()));
    for (const auto& pair_row : monitor.pair_rows()) QVERIFY(pair_row.self);
    document.set_joints(document.robot()->named_pose("ready"));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().current.contacts.empty(), 5000);
    QVERIFY(monitor.self_collision_hint().isEmpty());
  }

  void checks_goal_and_gives_spheres() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    CollisionMonitor monitor(document);
    kinetic::JointVector q(6);
    q << 0.3, -1.2, 1.4, -0.5, 1.1, 0.2;
    const kinetic::app::TcpKinematics tcp(document.robot());
    document.set_scene(box_at(tcp.tcp_in_world(q).translation()));
    kinetic::app::GoalState goal;
    goal.joints = q;
    document.set_goal(goal);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().valid && monitor.report().has_goal, 5000);
    QVERIFY(!monitor.report().goal.contacts.empty());
    QVERIFY(monitor.pair_lines().join(QLatin1Char('\n')).contains(QStringLiteral("goal: ")));
    QVERIFY(monitor.report().spheres.empty());
    monitor.set_spheres_wanted(true);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.report().spheres.size() > 6, 5000);
    for (const auto& sphere : monitor.report().spheres)
      QVERIFY(sphere.radius > 0 && sphere.radius < 1.0);
  }
};

QTEST_MAIN(CollisionMonitorTest)
#include "collision_monitor_test.moc"
