// Qt Test: each trajectory's validation status in the Trajectories panel. A report shows only
// under the trajectory it checked and only while the scene it checked against is unchanged;
// Re-time and Blend keep time-optimal corners clear of obstacles (as plans do) and come back
// validated; Validate checks a pick and place in the scene of each moment (the part held).
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/planning/planning_features.hpp"
#include "app/task/task_request.hpp"
#include "app/task/task_worker.hpp"
#include "app/trajectories/trajectory_check.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/trajectories/trajectory_timing.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"
#include "support/test_paths.hpp"
#include "ur5e_beside_box.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

QString shown_report(const PlanningFeatures& features) {
  const QListWidget* list = features.trajectories().trajectory_panel()->validation_list();
  return list->count() > 0 ? list->item(0)->text() : QString();
}

bool has_collision(const TrajectoryValidationReport& report) {
  for (const TrajectoryViolation& v : report.violations)
    if (v.kind == ViolationKind::Collision) return true;
  return false;
}

using ArmFixture = test::Ur5eBesideBox;

// A probe on an x-y gantry (joint space is the probe's position) and a pin inside the corner
// (1, 0) -> (1, 1): the path keeps 0.02 m from it, the 0.05 rad (here: m) time-optimal blend passes
// through it (tests/engine/task_timing_test.cpp).
const char* const kGantryUrdf =
    "<robot name=\"gantry\">\n"
    "  <link name=\"base\"/><link name=\"carriage\"/>\n"
    "  <link name=\"probe\"><collision><geometry><sphere "
    "radius=\"0.01\"/></geometry></collision></link>\n"
    "  <joint name=\"x\" type=\"prismatic\"><parent link=\"base\"/><child link=\"carriage\"/><axis "
    "xyz=\"1 0 0\"/>\n"
    "    <limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>\n"
    "  <joint name=\"y\" type=\"prismatic\"><parent link=\"carriage\"/><child "
    "link=\"probe\"/><axis xyz=\"0 1 0\"/>\n"
    "    <limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>\n"
    "</robot>\n";

PlanningScene scene_with_pin() {
  PlanningScene scene;
  scene.add_obstacle("pin", Shape::sphere(0.01), Pose(Eigen::Translation3d(0.97, 0.03, 0.0)));
  return scene;
}

struct GantryFixture {
  QTemporaryDir dir;
  QMainWindow window;
  StudioDocument document;
  PlanningFeatures* features = nullptr;
  GantryFixture() {
    const QString urdf = dir.filePath(QStringLiteral("gantry.urdf"));
    QFile file(urdf);
    if (!file.open(QIODevice::WriteOnly) || file.write(kGantryUrdf) < 0)
      qFatal("cannot write the gantry");
    file.close();
    const QString error = document.load_robot(urdf, QString(), QString());
    if (!error.isEmpty()) qFatal("gantry did not load: %s", qPrintable(error));
    features = install_planning_features(window, document);
    document.set_scene(scene_with_pin());
    document.set_joints(Eigen::Vector2d(0.0, 0.0));
  }
  // Trapezoidal: it stops at every waypoint, so it passes the corner exactly and stays clear.
  Trajectory stopping(const JointPath& path) const {
    TimingSettings timing;
    timing.method = TimingMethod::Trapezoidal;
    return time_path(path, limits_for(*document.robot()), timing);
  }
};

}  // namespace

class TrajectoryValidationStatusTest : public QObject {
  Q_OBJECT
 private slots:
  void a_report_shows_only_under_its_own_trajectory_and_scene() {
    ArmFixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    QVERIFY2(shown_report(*f.features).startsWith(QStringLiteral("✓")),
             qPrintable(shown_report(*f.features)));
    QCOMPARE(f.features->trajectories().validation_status(0).state, ValidationState::Valid);

    // An imported trajectory has no report: the plan's ✓ is not shown under it.
    QTemporaryDir dir;
    const JointVector rest = JointVector::Zero(6);
    const Trajectory other(
        f.document.robot()->name(), f.document.robot()->variable_names(),
        std::vector<PositionUnit>(6, PositionUnit::Radian),
        {{0.0, test::ur5e_arm(-1.2), rest, rest}, {1.0, test::ur5e_arm(-1.0), rest, rest}});
    const QString path = dir.filePath(QStringLiteral("other.json"));
    save_trajectory(other, path.toStdString());
    QVERIFY(f.features->trajectories().import_trajectory(path).isEmpty());
    QCOMPARE(f.features->trajectories().trajectory_panel()->current(), 1);
    QCOMPARE(shown_report(*f.features), not_validated_text(ValidationState::NotValidated));
    QVERIFY(!f.features->trajectories()
                 .trajectory_panel()
                 ->validation_list()
                 ->item(0)
                 ->data(Qt::UserRole)
                 .isValid());
    QCOMPARE(f.features->trajectories().validation_status(1).state, ValidationState::NotValidated);
    // The list marks the plan, not the import.
    QListWidget* list = f.features->trajectories().trajectory_panel()->list();
    QVERIFY(!list->item(0)->icon().isNull());
    QVERIFY(list->item(0)->toolTip().contains(QStringLiteral("no violations")));
    QVERIFY(list->item(1)->icon().isNull());

    // The plan again: its own report.
    f.features->trajectories().trajectory_panel()->set_current(0);
    QVERIFY(shown_report(*f.features).startsWith(QStringLiteral("✓")));

    // Moving the box is a scene edit: every report is stale.
    f.document.edit_scene(f.box_at(Vector3(0.0, 0.05, 0.0)), QStringLiteral("Move box"));
    QCOMPARE(shown_report(*f.features), not_validated_text(ValidationState::Stale));
    QCOMPARE(f.features->trajectories().validation_status(0).state, ValidationState::Stale);
    QVERIFY(list->item(0)->icon().isNull());

    // Validate makes it current again; the report stays with the plan when the import is shown.
    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    f.features->trajectories().validate(0);
    QVERIFY(tasks.wait(20000));
    QVERIFY(f.features->trajectories().validation_status(0).state != ValidationState::Stale);
    QVERIFY(f.features->trajectories().validation_status(0).report);
    f.features->trajectories().trajectory_panel()->set_current(1);
    QCOMPARE(shown_report(*f.features), not_validated_text(ValidationState::NotValidated));
  }

  // A result that lands after another trajectory was selected does not show under it.
  void a_validation_of_another_trajectory_is_not_shown_under_the_current_one() {
    ArmFixture f;
    QVERIFY(f.plan_to(test::ur5e_arm(1.2)).ok);
    const JointVector rest = JointVector::Zero(6);
    const Trajectory other(
        f.document.robot()->name(), f.document.robot()->variable_names(),
        std::vector<PositionUnit>(6, PositionUnit::Radian),
        {{0.0, test::ur5e_arm(-1.2), rest, rest}, {1.0, test::ur5e_arm(-1.0), rest, rest}});
    f.features->trajectories().trajectory_panel()->set_current(
        f.document.add_trajectory(QStringLiteral("other"), other));
    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    f.features->trajectories().validate(1);
    f.features->trajectories().trajectory_panel()->set_current(0);
    QVERIFY(tasks.wait(20000));
    QVERIFY(shown_report(*f.features).startsWith(QStringLiteral("✓")));
    QVERIFY(f.features->trajectories().validation_status(1).report);
  }

  void retime_keeps_time_optimal_corners_clear_and_is_validated() {
    GantryFixture f;
    const JointPath corner = {Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 0.0),
                              Eigen::Vector2d(1.0, 1.0)};
    f.document.add_trajectory(QStringLiteral("corner"), f.stopping(corner));
    // Timed as Re-time did before, without the collision check, the corner cuts through the pin.
    TimingSettings optimal;
    const Trajectory cutting = time_path(corner, limits_for(*f.document.robot()), optimal);
    QVERIFY(has_collision(validate_in_scenes(f.document.robot(), cutting, scene_with_pin(), {},
                                             f.document.joints())));

    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    panel->timing_combo()->setCurrentIndex(
        panel->timing_combo()->findData(QStringLiteral("time_optimal")));
    panel->replace_box()->setChecked(false);
    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    f.features->trajectories().retime(0);
    QVERIFY(tasks.wait(20000));
    QVERIFY2(tasks.last().at(1).toString().isEmpty(), qPrintable(tasks.last().at(1).toString()));
    QCOMPARE(f.document.trajectories().size(), std::size_t(2));
    QCOMPARE(panel->current(), 1);
    // The narrowed-corners note, as a plan shows it, and a status at once: valid.
    QVERIFY2(panel->message_label()->text().contains(QStringLiteral("corners rounded within")),
             qPrintable(panel->message_label()->text()));
    const ValidationStatus status = f.features->trajectories().validation_status(1);
    QCOMPARE(status.state, ValidationState::Valid);
    QVERIFY(!has_collision(*status.report));
    QVERIFY(shown_report(*f.features).startsWith(QStringLiteral("✓")));
  }

  void blend_keeps_its_junction_clear_and_is_validated() {
    GantryFixture f;
    f.document.add_trajectory(QStringLiteral("along x"),
                              f.stopping({Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 0.0)}));
    f.document.add_trajectory(QStringLiteral("along y"),
                              f.stopping({Eigen::Vector2d(1.0, 0.0), Eigen::Vector2d(1.0, 1.0)}));
    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    f.features->trajectories().blend({0, 1});
    QVERIFY(tasks.wait(20000));
    QVERIFY2(tasks.last().at(1).toString().isEmpty(), qPrintable(tasks.last().at(1).toString()));
    QCOMPARE(f.document.trajectories().size(), std::size_t(3));
    panels::TrajectoryPanel* panel = f.features->trajectories().trajectory_panel();
    QVERIFY2(panel->message_label()->text().contains(QStringLiteral("corners rounded within")),
             qPrintable(panel->message_label()->text()));
    const ValidationStatus status = f.features->trajectories().validation_status(2);
    QCOMPARE(status.state, ValidationState::Valid);
    QVERIFY(shown_report(*f.features).startsWith(QStringLiteral("✓")));
  }

  // A pick and place validated in one scene collides where it grasps the part (the part still
  // stands there) and carries it (the part is not held); in the scene of each moment it is clean.
  void validate_checks_a_pick_and_place_in_the_scene_of_each_moment() {
    ArmFixture f;
    const PlanningScene scene =
        load_scene(test::test_source_dir() + "/../examples/jobs/pick_and_place_scene.json");
    f.document.set_scene(scene);
    TaskRequest request;
    request.robot = f.document.robot();
    request.scene = scene;
    request.start = f.document.robot()->named_pose("ready");
    request.pick_place.object = "part";
    request.pick_place.place_pose = Pose(Eigen::Translation3d(0.45, 0.35, 0.035));
    request.pick_place.gripper.kind = GripperSpec::Kind::Suction;
    request.pick_place.options.seed = 7;
    request.pick_place.options.timeout_ms = 2000;
    request.velocity_scaling = request.acceleration_scaling = 0.5;
    const TaskOutcome outcome = run_task(request, nullptr);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    f.document.set_joints(request.start);
    const int index = f.document.add_trajectory(QStringLiteral("Pick part"),
                                                outcome.timed.trajectory, outcome.scene_changes);
    // Checked in the start scene alone, it does collide: the test would catch one scene for all.
    QVERIFY(has_collision(validate_in_scenes(f.document.robot(), outcome.timed.trajectory, scene,
                                             {}, request.start)));
    f.features->trajectories().show_and_play(index);
    QCOMPARE(shown_report(*f.features), not_validated_text(ValidationState::NotValidated));

    QSignalSpy tasks(&f.features->trajectories(), &TrajectoryFeatures::taskFinished);
    f.features->trajectories().validate(index);
    QVERIFY(tasks.wait(60000));
    QVERIFY2(tasks.last().at(1).toString().isEmpty(), qPrintable(tasks.last().at(1).toString()));
    const ValidationStatus status = f.features->trajectories().validation_status(index);
    QVERIFY(status.report);
    QVERIFY2(!has_collision(*status.report), status.report->summary().c_str());
    QVERIFY(!shown_report(*f.features).startsWith(QStringLiteral("collision")));
  }
};

QTEST_MAIN(TrajectoryValidationStatusTest)
#include "trajectory_validation_status_test.moc"
