// Qt Test (offscreen): stored states in the document and in the studio. The document's store,
// replace, rename and delete are one undo step each and mark the session modified; states stay
// when another robot is loaded (kept by joint name). In the real studio (create_studio) the Joints
// panel's Stored states list stores the sliders' joints into the document, Apply moves the robot
// and As goal sets the goal with its TCP pose, each undoable; a state that does not fit the loaded
// robot is refused, saying why, and changes nothing.
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>
#include <memory>

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/main_window.hpp"
#include "app/session/session_tracker.hpp"
#include "app/studio_window_factory.hpp"
#include "panels/joints_panel.hpp"
#include "panels/stored_states_panel.hpp"

using kinetic::JointVector;
using kinetic::app::StudioDocument;
using kinetic::panels::StoredState;
using kinetic::panels::StoredStatesPanel;

namespace {

StoredState state_at(const StudioDocument& document, const QString& name, double pan) {
  JointVector q = document.robot()->zero_configuration();
  q[0] = pan;
  return kinetic::panels::stored_state_of(*document.robot(), name, q);
}

QStringList names(const std::vector<StoredState>& states) {
  QStringList out;
  for (const StoredState& state : states) out << state.name;
  return out;
}

}  // namespace

class StoredStatesTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void store_rename_and_delete_are_undo_steps_that_mark_the_session_modified() {
    StudioDocument document;
    QCOMPARE(document.load_robot(QStringLiteral("ur5e")), QString());
    kinetic::app::SessionTracker tracker(document);
    tracker.mark_saved(QStringLiteral("cell.kinetic-session"));
    QUndoStack& undo = document.undo_stack();

    document.store_state(state_at(document, QStringLiteral("a"), 0.1));
    QVERIFY(tracker.modified());
    QCOMPARE(undo.count(), 1);
    QCOMPARE(undo.undoText(), QStringLiteral("Store state 'a'"));
    document.store_state(state_at(document, QStringLiteral("b"), 0.2));
    // Replacing at once after storing: still a step of its own (a click each, never merged).
    document.store_state(state_at(document, QStringLiteral("a"), 0.3));
    QCOMPARE(undo.count(), 3);
    QCOMPARE(undo.undoText(), QStringLiteral("Replace state 'a'"));
    QCOMPARE(names(document.stored_states()),
             (QStringList{QStringLiteral("a"), QStringLiteral("b")}));  // in place
    QCOMPARE(document.stored_states()[0].joints[0].second, 0.3);

    QVERIFY(document.rename_stored_state(QStringLiteral("a"), QStringLiteral("above bin")));
    QCOMPARE(undo.undoText(), QStringLiteral("Rename state 'a' to 'above bin'"));
    // Refused: a name in use, an empty name, a state not there; no step.
    QVERIFY(!document.rename_stored_state(QStringLiteral("b"), QStringLiteral("above bin")));
    QVERIFY(!document.rename_stored_state(QStringLiteral("b"), QStringLiteral(" ")));
    QVERIFY(!document.rename_stored_state(QStringLiteral("nowhere"), QStringLiteral("c")));
    QVERIFY(!document.delete_stored_state(QStringLiteral("nowhere")));
    QCOMPARE(undo.count(), 4);

    QVERIFY(document.delete_stored_state(QStringLiteral("above bin")));
    QCOMPARE(undo.undoText(), QStringLiteral("Delete state 'above bin'"));
    QCOMPARE(names(document.stored_states()), QStringList{QStringLiteral("b")});

    // Undo walks back one edit at a time, redo forward again.
    QSignalSpy changed(&document, &StudioDocument::storedStatesChanged);
    undo.undo();
    QCOMPARE(names(document.stored_states()),
             (QStringList{QStringLiteral("above bin"), QStringLiteral("b")}));
    undo.undo();
    QCOMPARE(names(document.stored_states()),
             (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(document.stored_states()[0].joints[0].second, 0.3);
    undo.undo();
    QCOMPARE(document.stored_states()[0].joints[0].second, 0.1);
    undo.undo();
    undo.undo();
    QVERIFY(document.stored_states().empty());
    QCOMPARE(changed.count(), 5);
    while (undo.canRedo()) undo.redo();
    QCOMPARE(names(document.stored_states()), QStringList{QStringLiteral("b")});
  }

  void states_stay_when_another_robot_is_loaded() {
    StudioDocument document;
    QCOMPARE(document.load_robot(QStringLiteral("ur5e")), QString());
    document.store_state(state_at(document, QStringLiteral("ur pose"), 0.4));
    QCOMPARE(document.reload_robot(), QString());
    QCOMPARE(document.stored_states().size(), std::size_t(1));
    QCOMPARE(document.load_robot(QStringLiteral("panda")), QString());
    // The user's, so not dropped; it names the UR's joints and does not fit the Panda.
    QCOMPARE(names(document.stored_states()), QStringList{QStringLiteral("ur pose")});
    QVERIFY(
        !kinetic::panels::fit_stored_state(*document.robot(), document.stored_states()[0]).joints);
    QCOMPARE(document.load_robot(QStringLiteral("ur5e")), QString());
    QVERIFY(
        kinetic::panels::fit_stored_state(*document.robot(), document.stored_states()[0]).joints);
  }

  void in_the_studio_store_apply_and_as_goal_go_through_the_document() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio && studio->window);
    StudioDocument& document = *studio->document;
    QCOMPARE(document.robot()->name(), std::string("ur5e"));
    kinetic::panels::JointsPanel* joints = studio->window->joints_panel();
    StoredStatesPanel* panel = joints->stored_states();
    QVERIFY(panel);
    QVERIFY(!studio->window->isWindowModified());

    // Pose the arm with a slider, type a name, Store.
    joints->slider(0)->setValue(joints->slider(0)->maximum() * 3 / 4);
    const JointVector posed = document.joints();
    panel->name_edit()->setText(QStringLiteral("above bin"));
    panel->store_button()->click();
    QCOMPARE(names(document.stored_states()), QStringList{QStringLiteral("above bin")});
    QCOMPARE(document.undo_stack().undoText(), QStringLiteral("Store state 'above bin'"));
    QCOMPARE(
        *kinetic::panels::fit_stored_state(*document.robot(), document.stored_states()[0]).joints,
        posed);
    QCOMPARE(panel->states().size(), std::size_t(1));  // the list shows the document's states
    QVERIFY(studio->window->isWindowModified());

    // Elsewhere, then Apply: the joints come back as one undo step.
    const JointVector home = document.robot()->named_pose("home");
    document.edit_joints(home);
    panel->select(QStringLiteral("above bin"));
    panel->apply_button()->click();
    QCOMPARE(document.joints(), posed);
    QCOMPARE(joints->values(), posed);
    QCOMPARE(document.undo_stack().undoText(), QStringLiteral("Apply state 'above bin'"));
    document.undo_stack().undo();
    QCOMPARE(document.joints(), home);

    // As goal: the goal's joints, and its TCP pose where those joints put it.
    panel->goal_button()->click();
    QVERIFY(document.goal().joints.has_value());
    QCOMPARE(*document.goal().joints, posed);
    QVERIFY(document.goal().tcp_pose.has_value());
    const kinetic::app::TcpKinematics kinematics(document.robot());
    QVERIFY(document.goal().tcp_pose->isApprox(kinematics.tcp_in_base(posed), 1e-12));
    QCOMPARE(document.undo_stack().undoText(), QStringLiteral("Goal from state 'above bin'"));
    QCOMPARE(document.joints(), home);  // the robot stays where it is

    // Rename and delete through the panel, undone through the document.
    QVERIFY(panel->rename(QStringLiteral("above bin"), QStringLiteral("over the bin")));
    QCOMPARE(names(document.stored_states()), QStringList{QStringLiteral("over the bin")});
    QVERIFY(panel->remove(QStringLiteral("over the bin")));
    QVERIFY(document.stored_states().empty());
    QCOMPARE(panel->list()->count(), 0);
    document.undo_stack().undo();
    QCOMPARE(names(panel->states()), QStringList{QStringLiteral("over the bin")});

    // Another robot: the state stays listed and is refused, saying why; nothing moves. (The
    // built-in robots all name their joints joint1, joint2, ...: the Panda's seventh is missing.)
    QCOMPARE(document.load_robot(QStringLiteral("panda")), QString());
    const JointVector panda_joints = document.joints();
    const kinetic::app::GoalState goal_before = document.goal();
    QCOMPARE(panel->list()->count(), 1);
    panel->select(QStringLiteral("over the bin"));
    panel->apply_button()->click();
    QCOMPARE(document.joints(), panda_joints);
    QCOMPARE(panel->last_message(),
             QStringLiteral("Cannot apply 'over the bin': it gives no value for joint 'joint7'. "
                            "Store it again with this robot, or delete it."));
    panel->goal_button()->click();
    QCOMPARE(document.goal().joints.has_value(), goal_before.joints.has_value());
  }
};

QTEST_MAIN(StoredStatesTest)
#include "stored_states_test.moc"
