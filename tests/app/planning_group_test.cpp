// Qt Test: the Planner panel's Group on the real Panda (../shared/robots, with its SRDF: "arm",
// "hand" and "arm_and_hand", the last two subgroups and no chain). The groups are listed, the one
// without a chain for joint-space goals only; the chosen group alone moves when planned and
// executed (the arm with its hand included); the choice
// goes through a session file, and a session naming a group the robot lacks (or none) opens with
// the first and says so; the goal gizmo and IK take the group's chain, or say why there is none.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/planning/plan_execution.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/planning/planning_features.hpp"
#include "app/session/session_file.hpp"
#include "app/studio_window_factory.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "panels/planner_panel.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

// The Panda with its SRDF in a document with the planning features; `loaded` is false (and the
// test skipped) without ../shared/robots.
struct PandaWithGroups {
  QMainWindow window;
  StudioDocument document;
  PlanningFeatures* features = nullptr;
  QString error;

  PandaWithGroups() {
    if (!load_panda(document, error)) return;
    features = install_planning_features(window, document);
  }
  panels::PlannerPanel& panel() const { return *features->planner_panel(); }

  static bool load_panda(StudioDocument& document, QString& error) {
    const QString panda =
        QString::fromStdString(test::example_robot_data_dir() + "/robots/panda_description");
    error = document.load_robot(panda + "/urdf/panda.urdf", panda + "/srdf/panda.srdf", {},
                                {QString::fromStdString(test::shared_robots_dir())});
    return error.isEmpty();
  }
  void choose_group(const QString& name) const {
    panel().group_combo()->setCurrentIndex(panel().group_combo()->findData(name));
  }
  int variable(const char* joint) const { return document.robot()->variable_index(joint); }
};

#define REQUIRE_PANDA(fixture)                                        \
  do {                                                                \
    if (!test::shared_robots_available())                             \
      QSKIP("../shared/robots is absent: the real Panda is skipped"); \
    QVERIFY2((fixture).features, qPrintable((fixture).error));        \
  } while (0)

bool combo_item_enabled(QComboBox* combo, int index) {
  return qobject_cast<QStandardItemModel*>(combo->model())->item(index)->isEnabled();
}

// The joints of `q` other than those of `moving` (model indices) equal `reference`'s.
bool only_these_moved(const JointVector& q, const JointVector& reference,
                      const std::vector<int>& moving) {
  for (int i = 0; i < q.size(); ++i)
    if (std::find(moving.begin(), moving.end(), i) == moving.end() &&
        std::abs(q[i] - reference[i]) > 1e-9)
      return false;
  return true;
}

}  // namespace

class PlanningGroupTest : public QObject {
  Q_OBJECT
 private slots:
  void lists_the_groups_and_plans_joint_goals_for_the_one_without_a_chain() {
    PandaWithGroups f;
    REQUIRE_PANDA(f);
    QComboBox* combo = f.panel().group_combo();
    QCOMPARE(combo->count(), 3);
    QCOMPARE(combo->itemData(0).toString(), QStringLiteral("arm"));
    QCOMPARE(combo->itemData(1).toString(), QStringLiteral("hand"));
    QCOMPARE(combo->itemData(2).toString(), QStringLiteral("arm_and_hand"));
    QVERIFY(combo->isEnabled());
    QCOMPARE(f.panel().group(), QStringLiteral("arm"));
    QVERIFY(combo_item_enabled(combo, 1));
    // The arm with its hand forms no single chain: usable for joint-space goals, as MoveIt plans
    // it.
    QVERIFY(combo_item_enabled(combo, 2));
    const QString why = combo->itemData(2, Qt::ToolTipRole).toString();
    QVERIFY2(why.contains(QStringLiteral("Joint-space goals only")) &&
                 why.contains(QStringLiteral("chain")),
             qPrintable(why));
    QCOMPARE(f.features->engine_group(), std::string());  // the first: the engine's default

    // The built-in UR5e has one group: nothing to choose, and the tooltip says so.
    QVERIFY(f.document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QCOMPARE(combo->count(), 1);
    QVERIFY(!combo->isEnabled());
    QVERIFY2(combo->toolTip().contains(QStringLiteral("one planning group")),
             qPrintable(combo->toolTip()));
    // A bare URDF has none: its whole chain plans, asked for as the engine's default.
    f.panel().set_groups({});
    QCOMPARE(f.panel().group(), QString());
    QVERIFY(!combo->isEnabled());
    QVERIFY2(combo->toolTip().contains(QStringLiteral("no planning group")),
             qPrintable(combo->toolTip()));
  }

  void only_the_chosen_groups_joints_move() {
    PandaWithGroups f;
    REQUIRE_PANDA(f);
    const JointVector start = f.document.joints();
    const int finger = f.variable("panda_finger_joint1"), joint1 = f.variable("panda_joint1");
    JointVector goal = start;
    goal[finger] = 0.03;
    goal[joint1] += 0.5;
    GoalState g;
    g.joints = goal;
    f.document.set_goal(g);
    f.panel().seed_edit()->setText(QStringLiteral("5"));
    f.panel().timeout_box()->setValue(5000.0);  // a loaded machine misses the default 50 ms
    f.features->trajectories().playback().set_speed(4.0);

    // The arm (the first group): the arm goes to the goal, the hand stays open as it was.
    QSignalSpy done(f.features, &PlanningFeatures::planFinished);
    f.panel().plan_button()->click();
    QVERIFY(done.wait(60000));
    PlanOutcome arm = qvariant_cast<PlanOutcome>(done.takeFirst().at(0));
    QVERIFY2(arm.ok, qPrintable(arm.error));
    const std::vector<int> arm_joints = f.document.robot()->group_variables("arm");
    for (const auto& sample : arm.trajectory.samples())
      QVERIFY(only_these_moved(sample.position, start, arm_joints));
    QVERIFY(std::abs(arm.trajectory.samples().back().position[joint1] - goal[joint1]) < 1e-6);

    // The hand: Plan & Execute opens the fingers and leaves every arm joint where it was.
    f.choose_group(QStringLiteral("hand"));
    QCOMPARE(f.features->engine_group(), std::string("hand"));
    QSignalSpy executed(&f.features->execution(), &PlanExecution::finished);
    f.panel().plan_execute_button()->click();
    QVERIFY(done.wait(60000));
    const PlanOutcome hand = qvariant_cast<PlanOutcome>(done.takeFirst().at(0));
    QVERIFY2(hand.ok, qPrintable(hand.error));
    const std::vector<int> hand_joints = f.document.robot()->group_variables("hand");
    QCOMPARE(hand_joints, std::vector<int>{finger});
    for (const auto& sample : hand.trajectory.samples())
      QVERIFY(only_these_moved(sample.position, start, hand_joints));
    QVERIFY(executed.wait(30000));
    QVERIFY(executed.first().at(0).toBool());
    QVERIFY(std::abs(f.document.joints()[finger] - 0.03) < 1e-6);
    QVERIFY(only_these_moved(f.document.joints(), start, hand_joints));

    // The arm with its hand (no single chain): a joint-space goal moves both, nothing else.
    const JointVector here = f.document.joints();
    JointVector both = here;
    both[finger] = 0.01;
    both[joint1] -= 0.4;
    GoalState g2;
    g2.joints = both;
    f.document.set_goal(g2);
    f.choose_group(QStringLiteral("arm_and_hand"));
    QCOMPARE(f.features->engine_group(), std::string("arm_and_hand"));
    f.panel().plan_button()->click();
    QVERIFY(done.wait(60000));
    const PlanOutcome arm_and_hand = qvariant_cast<PlanOutcome>(done.takeFirst().at(0));
    QVERIFY2(arm_and_hand.ok, qPrintable(arm_and_hand.error));
    const JointVector reached = arm_and_hand.trajectory.samples().back().position;
    QVERIFY(std::abs(reached[finger] - 0.01) < 1e-6 &&
            std::abs(reached[joint1] - both[joint1]) < 1e-6);
    for (const auto& sample : arm_and_hand.trajectory.samples())
      QVERIFY(only_these_moved(sample.position, here,
                               f.document.robot()->group_variables("arm_and_hand")));
  }

  // A MoveIt config's default scaling factors (Kinova's Gen3 lite: 0.1) become the Planner panel's
  // velocity and acceleration scaling when the robot opens, as RViz's planning panel starts; a
  // reload keeps what the user set since, and a robot without defaults leaves the panel as it is.
  void a_moveit_configs_default_scaling_is_taken_when_it_opens() {
    if (!test::shared_robots_available())
      QSKIP("../shared/robots is absent: the Kinova MoveIt config is skipped");
    QMainWindow window;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    PlanningFeatures* features = install_planning_features(window, document);
    panels::PlannerPanel& panel = *features->planner_panel();
    QCOMPARE(panel.velocity_scaling(), 1.0);
    const QString shared = QString::fromStdString(test::shared_robots_dir());
    const QString config =
        shared + "/ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config";
    QVERIFY(document.load_robot(config, {}, {}, {shared}).isEmpty());
    QCOMPARE(panel.velocity_scaling(), 0.1);
    QCOMPARE(panel.acceleration_scaling(), 0.1);
    QCOMPARE(document.planner_settings()->velocity_scaling, 0.1);  // saved with the session
    panels::PlannerSettings mine = panel.settings();
    mine.velocity_scaling = 0.5;
    panel.set_settings(mine);
    QVERIFY(document.reload_robot().isEmpty());
    QCOMPARE(panel.velocity_scaling(), 0.5);
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QCOMPARE(panel.velocity_scaling(), 0.5);
  }

  void the_group_goes_through_a_session_file() {
    PandaWithGroups saved;
    REQUIRE_PANDA(saved);
    saved.choose_group(QStringLiteral("hand"));
    QCOMPARE(saved.document.planner_settings()->group, QStringLiteral("hand"));
    const std::string text = session_to_json(saved.document);
    QCOMPARE(nlohmann::json::parse(text)["settings"]["planning_group"], nlohmann::json("hand"));

    PandaWithGroups opened;
    QVERIFY(
        apply_session_json(opened.document, text, QStringLiteral("test"), QDir::tempPath()).ok());
    QCOMPARE(opened.panel().group(), QStringLiteral("hand"));
    QCOMPARE(opened.features->engine_group(), std::string("hand"));
  }

  // A session naming a group this robot lacks, or none (one written before the choice was kept),
  // opens with the first group and the Planner panel says so; nothing is lost.
  void a_session_group_the_robot_lacks_falls_back_to_the_first() {
    PandaWithGroups f;
    REQUIRE_PANDA(f);
    nlohmann::json session = nlohmann::json::parse(session_to_json(f.document));
    session["settings"]["planning_group"] = "gripper";
    f.choose_group(QStringLiteral("hand"));
    const SessionLoadResult lacking =
        apply_session_json(f.document, session.dump(), QStringLiteral("test"), QDir::tempPath());
    QVERIFY2(lacking.ok(), qPrintable(lacking.error));
    QCOMPARE(f.panel().group(), QStringLiteral("arm"));
    QVERIFY(f.document.trajectories().empty());
    QString text = f.panel().result_label()->text();
    QVERIFY2(text.contains(QStringLiteral("'gripper'")) && text.contains(QStringLiteral("'arm'")),
             qPrintable(text));

    session["settings"].erase("planning_group");
    f.choose_group(QStringLiteral("hand"));
    QVERIFY(apply_session_json(f.document, session.dump(), QStringLiteral("test"), QDir::tempPath())
                .ok());
    QCOMPARE(f.panel().group(), QStringLiteral("arm"));
    text = f.panel().result_label()->text();
    QVERIFY2(text.contains(QStringLiteral("names no planning group")), qPrintable(text));

    // Not a name: the settings are dropped with a warning naming the field; the session opens.
    session["settings"]["planning_group"] = 5;
    const SessionLoadResult wrong =
        apply_session_json(f.document, session.dump(), QStringLiteral("test"), QDir::tempPath());
    QVERIFY2(wrong.ok(), qPrintable(wrong.error));
    QVERIFY2(
        wrong.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("settings.planning_group")),
        qPrintable(wrong.warnings.join(QLatin1Char('\n'))));
  }

  // In the studio the goal gizmo takes the Planner panel's group: its chain, its TCP for the goal's
  // pose. A group without a chain gets no gizmo, and the IK status says why.
  void the_goal_gizmo_takes_the_groups_chain() {
    if (!test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    const std::unique_ptr<Studio> studio = create_studio(CommandLine{});
    QVERIFY(studio && studio->window);
    StudioDocument& document = *studio->document;
    QString error;
    QVERIFY2(PandaWithGroups::load_panda(document, error), qPrintable(error));
    GoalController& goal = *studio->window->goal_controller();
    panels::PlannerPanel& panel = *studio->window->planning_features()->planner_panel();
    QVERIFY(goal.kinematics());
    const std::string arm_tip = goal.kinematics()->chain().tip_link();
    studio->window->goal_controller()->goal_from_current();
    QVERIFY(document.goal().tcp_pose);

    panel.group_combo()->setCurrentIndex(panel.group_combo()->findData(QStringLiteral("hand")));
    QCOMPARE(goal.group(), std::string("hand"));
    QVERIFY(goal.kinematics());
    QVERIFY(goal.kinematics()->chain().tip_link() != arm_tip);
    QCOMPARE(goal.kinematics()->chain().dof(), 1);
    // The goal's pose is now where its joints put the hand's TCP, in the hand's base.
    const TcpKinematics hand(document.robot(), "hand");
    QVERIFY(document.goal().tcp_pose->isApprox(hand.tcp_in_base(*document.goal().joints), 1e-9));

    goal.set_group("arm_and_hand");
    QVERIFY(!goal.kinematics());
    QVERIFY(!goal.shown_pose());
    QVERIFY(goal.ik_failed());
    QVERIFY2(goal.ik_status().contains(QStringLiteral("arm_and_hand")),
             qPrintable(goal.ik_status()));

    panel.group_combo()->setCurrentIndex(panel.group_combo()->findData(QStringLiteral("arm")));
    QCOMPARE(goal.group(), std::string());  // the first group, as the engine's default
    QCOMPARE(goal.kinematics()->chain().tip_link(), arm_tip);
  }
};

QTEST_MAIN(PlanningGroupTest)
#include "planning_group_test.moc"
