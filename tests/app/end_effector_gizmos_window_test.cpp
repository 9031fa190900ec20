// Qt Test on the real studio window (Xvfb, Vulkan on lavapipe): the dual-arm Panda of
// ../shared/robots' MoveIt config, its SRDF given a both_arms group of the two arms and a group per
// hand (as MoveIt configs of two arms define them), planned as one group. Each hand gets a goal
// gizmo, as RViz shows one marker per end effector; the Goal panel chooses the hand its fields are
// for; grabbing the other hand's gizmo makes that hand the active one and moves its arm only; a TCP
// pose goal plans with the active hand; the hand goes through a session file.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "app/session/session_file.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"
#include "panels/goal_panel.hpp"
#include "panels/planner_panel.hpp"
#include "support/test_paths.hpp"
#include "viewer/gizmo.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

const char* kGroups =
    "<group name=\"both_arms\"><group name=\"left_panda_arm\"/><group "
    "name=\"right_panda_arm\"/></group>\n"
    "<group name=\"left_hand\"><link name=\"left_panda_hand\"/><joint "
    "name=\"left_panda_finger_joint1\"/></group>\n"
    "<group name=\"right_hand\"><link name=\"right_panda_hand\"/><joint "
    "name=\"right_panda_finger_joint1\"/></group>\n";

bool same_values(const JointVector& a, const JointVector& b, const std::vector<int>& variables) {
  for (const int v : variables)
    if (std::abs(a[v] - b[v]) > 1e-9) return false;
  return true;
}

}  // namespace

class EndEffectorGizmosWindowTest : public QObject {
  Q_OBJECT
  std::unique_ptr<Studio> studio_;
  QTemporaryDir dir_;
  JointVector ready_;

  StudioDocument& document() { return *studio_->document; }
  ViewportWindow& view() { return *studio_->viewport; }
  GoalController& goal() { return *studio_->window->goal_controller(); }
  panels::GoalPanel& goal_panel() { return *studio_->window->goal_panel(); }
  panels::PlannerPanel& planner() { return *studio_->window->planning_features()->planner_panel(); }
  TcpKinematics hand(const char* arm) { return TcpKinematics(document().robot(), arm); }
  std::vector<int> arm_joints(const char* arm) { return document().robot()->group_variables(arm); }

 private slots:
  void initTestCase() {
    if (!test::shared_robots_available())
      QSKIP("../shared/robots is absent: the dual-arm Panda is skipped");
    const std::string config =
        test::shared_robots_dir() + "/moveit_resources/dual_arm_panda_moveit_config/config/";
    std::ifstream in(config + "panda.srdf");
    std::stringstream text;
    text << in.rdbuf();
    std::string srdf = text.str();
    QVERIFY(srdf.rfind("</robot>") != std::string::npos);
    srdf.insert(srdf.rfind("</robot>"), kGroups);
    const QString srdf_path = dir_.filePath(QStringLiteral("panda.srdf"));
    std::ofstream(srdf_path.toStdString()) << srdf;

    studio_ = test::open_studio_window();
    QVERIFY2(studio_, "the studio's Vulkan viewport could not be created or never drew");
    const QString urdf = QString::fromStdString(
        test::shared_robots_dir() + "/expected/dual_arm_panda_moveit_config/config/panda.urdf");
    const QString error = document().load_robot(
        urdf, srdf_path, {}, {QString::fromStdString(test::shared_robots_dir())});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const RobotModelPtr robot = document().robot();
    ready_ = robot->named_pose("ready", robot->zero_configuration(), "left_panda_arm");
    ready_ = robot->named_pose("ready", ready_, "right_panda_arm");
    document().set_joints(ready_);
    QComboBox* groups = planner().group_combo();
    const int both = groups->findData(QStringLiteral("both_arms"));
    QVERIFY(both >= 0);
    const QString tooltip = groups->itemData(both, Qt::ToolTipRole).toString();
    QVERIFY2(tooltip.contains(QStringLiteral("left_hand, right_hand")), qPrintable(tooltip));
    groups->setCurrentIndex(both);
    QCOMPARE(goal().group(), std::string("both_arms"));
    view().fit_camera();
    QVERIFY(test::redraw(view()));
  }

  // Both hands have a gizmo (the active one larger, each named beside it); the Goal panel lists
  // the hands, and choosing the other one there re-states the goal's pose for it (no undo step).
  void each_hand_has_a_gizmo_and_the_goal_panel_chooses_one() {
    QCOMPARE(goal().end_effectors(), (std::vector<std::string>{"left_hand", "right_hand"}));
    QCOMPARE(goal().end_effector(), std::string("left_hand"));
    QComboBox* combo = goal_panel().end_effector_combo();
    QVERIFY(combo->isVisibleTo(&goal_panel()));
    QVERIFY(combo->isEnabled());
    QCOMPARE(combo->count(), 2);
    QCOMPARE(combo->currentText(), QStringLiteral("left_hand"));
    QVERIFY2(!goal().ik_failed(), qPrintable(goal().ik_status()));

    goal().goal_from_current();
    QCOMPARE(document().goal().end_effector, std::string("left_hand"));
    const Pose left_world = hand("left_panda_arm").tcp_in_world(ready_);
    const Pose right_world = hand("right_panda_arm").tcp_in_world(ready_);
    QVERIFY((left_world.translation() - right_world.translation()).norm() > 0.1);
    QVERIFY(test::redraw(view()));
    QVERIFY(view().gizmo());
    QVERIFY((view().gizmo()->pose.translation().cast<double>() - left_world.translation()).norm() <
            1e-5);
    QCOMPARE(view().other_gizmos().size(), std::size_t{1});
    QCOMPARE(view().other_gizmos().front().first, std::string("right_hand"));
    const viewer::Gizmo& other = view().other_gizmos().front().second;
    QVERIFY((other.pose.translation().cast<double>() - right_world.translation()).norm() < 1e-5);
    QVERIFY(other.size_px < view().gizmo()->size_px);
    QStringList labels;
    for (const viewer::Label& label : view().last_overlay().labels)
      labels << QString::fromStdString(label.text);
    QVERIFY2(labels.contains(QStringLiteral("left_hand")) &&
                 labels.contains(QStringLiteral("right_hand")),
             qPrintable(labels.join(QStringLiteral(", "))));

    const int undo_steps = document().undo_stack().count();
    emit combo->activated(1);
    QCOMPARE(goal().end_effector(), std::string("right_hand"));
    QCOMPARE(document().goal().end_effector, std::string("right_hand"));
    const Pose right_base = hand("right_panda_arm").tcp_in_base(*document().goal().joints);
    QVERIFY(document().goal().tcp_pose->isApprox(right_base, 1e-9));
    QVERIFY(std::abs(goal_panel().position_field(0)->value() - right_base.translation().x()) <
            1e-4);
    QCOMPARE(document().undo_stack().count(), undo_steps);
    QVERIFY(test::redraw(view()));
    QVERIFY((view().gizmo()->pose.translation().cast<double>() - right_world.translation()).norm() <
            1e-5);
    QCOMPARE(view().other_gizmos().front().first, std::string("left_hand"));
    emit combo->activated(0);
    QCOMPARE(goal().end_effector(), std::string("left_hand"));
  }

  // A drag on the right hand's (smaller) gizmo: the right hand becomes the active one, IK moves the
  // right arm to the dragged pose and the left arm stays; the drag is one undo step, and undoing it
  // makes the left hand active again (the goal's pose before was the left hand's).
  void grabbing_the_other_hands_gizmo_moves_that_arm_only() {
    document().set_joints(ready_);
    goal().set_end_effector("left_hand");
    goal().goal_from_current();
    QVERIFY(test::redraw(view()));
    QCOMPARE(view().other_gizmos().size(), std::size_t{1});
    const viewer::Gizmo other = view().other_gizmos().front().second;
    const float scale =
        viewer::gizmo_scale(other, view().camera(), static_cast<float>(view().height()));
    const Vector3 centre = other.pose.translation().cast<double>();
    const Vector3 axis = viewer::gizmo_axis(other, viewer::GizmoHandle::TranslateX).cast<double>();
    const auto on_arrow = view().project(centre + axis * (0.6 * scale));
    const auto further = view().project(centre + axis * (1.2 * scale));
    QVERIFY(on_arrow && further);
    const QPoint press = on_arrow->toPoint();
    const QPointF step = (*further - *on_arrow) / 10.0;
    const int undo_steps = document().undo_stack().count();

    QTest::mousePress(&view(), Qt::LeftButton, Qt::NoModifier, press);
    QCOMPARE(goal().end_effector(), std::string("right_hand"));
    for (int i = 1; i <= 6; ++i) {
      QTest::mouseMove(&view(), (QPointF(press) + step * i).toPoint());
      QTest::qWait(30);
    }
    QTest::mouseRelease(&view(), Qt::LeftButton, Qt::NoModifier,
                        (QPointF(press) + step * 6).toPoint());
    QTRY_VERIFY_WITH_TIMEOUT(!goal().ik_busy(), 10000);
    QVERIFY2(!goal().ik_failed(), qPrintable(goal().ik_status()));

    const GoalState& moved = document().goal();
    QCOMPARE(moved.end_effector, std::string("right_hand"));
    QVERIFY(moved.joints && moved.tcp_pose);
    QVERIFY(same_values(*moved.joints, ready_, arm_joints("left_panda_arm")));
    QVERIFY(!same_values(*moved.joints, ready_, arm_joints("right_panda_arm")));
    const TcpKinematics right = hand("right_panda_arm");
    QVERIFY(right.tcp_in_base(*moved.joints).isApprox(*moved.tcp_pose, 1e-3));
    const double along_x = (right.base_in_world(ready_) * *moved.tcp_pose).translation().x() -
                           right.tcp_in_world(ready_).translation().x();
    QVERIFY2(along_x > 0.01,
             qPrintable(QStringLiteral("the right hand moved %1 m along x").arg(along_x)));
    QCOMPARE(document().undo_stack().count(), undo_steps + 1);
    QVERIFY(test::wait_for_still_view(view()));
    if (const QByteArray shots = qgetenv("KINETIC_TEST_SCREENSHOTS"); !shots.isEmpty())
      test::grab_viewport(view()).save(QString::fromLocal8Bit(shots) +
                                       QStringLiteral("/two_hand_gizmos.png"));

    // Undo puts the arm back; the hand grabbed stays the active one, its pose where it was.
    document().undo_stack().undo();
    QVERIFY(same_values(*document().goal().joints, ready_, arm_joints("right_panda_arm")));
    QCOMPARE(document().goal().end_effector, std::string("right_hand"));
    QVERIFY(document().goal().tcp_pose->isApprox(right.tcp_in_base(ready_), 1e-9));
    QCOMPARE(goal_panel().end_effector(), QStringLiteral("right_hand"));
    document().undo_stack().redo();
    QVERIFY(!same_values(*document().goal().joints, ready_, arm_joints("right_panda_arm")));
  }

  // Plan to the TCP pose goal: the right hand reaches it, the left arm does not move.
  void a_pose_goal_plans_with_the_active_hand() {
    QCOMPARE(document().goal().end_effector, std::string("right_hand"));
    const Pose target = *document().goal().tcp_pose;
    document().set_joints(ready_);
    planner().goal_combo()->setCurrentIndex(
        planner().goal_combo()->findData(int(panels::PlanGoalType::TcpPose)));
    planner().timeout_box()->setValue(5000.0);
    PlanningFeatures& features = *studio_->window->planning_features();
    QSignalSpy done(&features, &PlanningFeatures::planFinished);
    planner().plan_button()->click();
    QVERIFY(done.wait(60000));
    const PlanOutcome outcome = qvariant_cast<PlanOutcome>(done.takeFirst().at(0));
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    const JointVector end = outcome.trajectory.samples().back().position;
    QVERIFY(hand("right_panda_arm").tcp_in_base(end).isApprox(target, 1e-3));
    for (const auto& sample : outcome.trajectory.samples())
      QVERIFY(same_values(sample.position, ready_, arm_joints("left_panda_arm")));
  }

  // The hand the goal's pose is for is saved, and a reopened session makes it the active one.
  void the_hand_goes_through_a_session_file() {
    QCOMPARE(document().goal().end_effector, std::string("right_hand"));
    const std::string saved = session_to_json(document());
    QVERIFY(saved.find("\"end_effector\": \"right_hand\"") != std::string::npos);
    goal().set_end_effector("left_hand");
    QCOMPARE(document().goal().end_effector, std::string("left_hand"));
    const SessionLoadResult loaded =
        apply_session_json(document(), saved, QStringLiteral("test"), dir_.path());
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(document().goal().end_effector, std::string("right_hand"));
    QCOMPARE(goal().group(), std::string("both_arms"));
    QCOMPARE(goal().end_effector(), std::string("right_hand"));
    QCOMPARE(goal_panel().end_effector(), QStringLiteral("right_hand"));
  }

  void cleanupTestCase() { studio_.reset(); }
};

QTEST_MAIN(EndEffectorGizmosWindowTest)
#include "end_effector_gizmos_window_test.moc"
