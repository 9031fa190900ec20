// Qt Test (offscreen): the stored states list under the Joints panel's sliders, on its own and
// inside the Joints panel — store (default and typed names, replacing after the question), apply,
// as goal, rename (button, inline, refused names), delete, the requests it signals, and a state
// that does not fit the robot refused with what is wrong. The panel owns no states: an owner
// here plays the document's part, keeping the states and handing them back.
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>
#include <vector>

#include "engine/model/robot_loader.hpp"
#include "panels/joints_panel.hpp"
#include "panels/stored_states_panel.hpp"

using kinetic::JointVector;
using kinetic::panels::StoredState;
using kinetic::panels::StoredStatesPanel;

Q_DECLARE_METATYPE(kinetic::JointVector)
Q_DECLARE_METATYPE(kinetic::panels::StoredState)

namespace {

// What the document does with the panel's requests, in a few lines.
struct Owner {
  std::vector<StoredState> states;
  explicit Owner(StoredStatesPanel& panel) {
    QObject::connect(&panel, &StoredStatesPanel::storeRequested, &panel,
                     [this, &panel](const StoredState& state) {
                       const int index = kinetic::panels::find_stored_state(states, state.name);
                       if (index >= 0)
                         states[static_cast<std::size_t>(index)] = state;
                       else
                         states.push_back(state);
                       panel.set_states(states);
                     });
    QObject::connect(
        &panel, &StoredStatesPanel::renameRequested, &panel,
        [this, &panel](const QString& from, const QString& to) {
          states[static_cast<std::size_t>(kinetic::panels::find_stored_state(states, from))].name =
              to;
          panel.set_states(states);
        });
    QObject::connect(
        &panel, &StoredStatesPanel::deleteRequested, &panel, [this, &panel](const QString& name) {
          states.erase(states.begin() + kinetic::panels::find_stored_state(states, name));
          panel.set_states(states);
        });
  }
};

QStringList listed(const StoredStatesPanel& panel) {
  QStringList names;
  for (int row = 0; row < panel.list()->count(); ++row) names << panel.list()->item(row)->text();
  return names;
}

}  // namespace

class StoredStatesPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void stores_the_current_joints_under_default_and_typed_names() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    Owner owner(panel);
    JointVector current = robot->named_pose("home");
    panel.set_current_source([&current] { return current; });
    // Without a robot there is nothing to store.
    QVERIFY(!panel.store_button()->isEnabled());
    QVERIFY(!panel.store());
    panel.set_robot(robot);
    QVERIFY(panel.store_button()->isEnabled());
    QCOMPARE(panel.name_edit()->placeholderText(), QStringLiteral("state 1"));

    QSignalSpy stored(&panel, &StoredStatesPanel::storeRequested);
    panel.store_button()->click();  // the name field empty: the default name
    QCOMPARE(stored.count(), 1);
    const auto first = qvariant_cast<StoredState>(stored.at(0).at(0));
    QCOMPARE(first.name, QStringLiteral("state 1"));
    QCOMPARE(first.joints.size(), std::size_t(6));
    QCOMPARE(first.joints[0].first, std::string("joint1"));  // by joint name, in the robot's order
    QCOMPARE(first.joints[5].first, std::string("joint6"));
    for (int v = 0; v < 6; ++v) QCOMPARE(first.joints[std::size_t(v)].second, current[v]);
    QCOMPARE(listed(panel), QStringList{QStringLiteral("state 1")});
    QCOMPARE(panel.selected_name(), QStringLiteral("state 1"));
    QCOMPARE(panel.name_edit()->placeholderText(), QStringLiteral("state 2"));

    // A typed name (trimmed), stored with Return in the field.
    current[0] = 0.75;
    panel.name_edit()->setText(QStringLiteral("  above bin "));
    QTest::keyClick(panel.name_edit(), Qt::Key_Return);
    QCOMPARE(stored.count(), 2);
    QCOMPARE(listed(panel), (QStringList{QStringLiteral("state 1"), QStringLiteral("above bin")}));
    QCOMPARE(panel.selected_name(), QStringLiteral("above bin"));
    QCOMPARE(owner.states[1].joints[0].second, 0.75);
    QVERIFY(panel.name_edit()->text().isEmpty());  // ready for the next one
    // The default fills the first gap, not the count.
    QCOMPARE(panel.default_name(), QStringLiteral("state 2"));
  }

  void storing_under_a_name_in_use_replaces_it_only_when_the_user_agrees() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    Owner owner(panel);
    JointVector current = robot->zero_configuration();
    panel.set_current_source([&current] { return current; });
    panel.set_robot(robot);
    QVERIFY(panel.store(QStringLiteral("above bin")));
    QStringList asked;
    bool agree = false;
    panel.set_replace_question([&](QWidget*, const QString& name) {
      asked << name;
      return agree;
    });
    QSignalSpy stored(&panel, &StoredStatesPanel::storeRequested);
    current[1] = -1.0;
    QVERIFY(!panel.store(QStringLiteral("above bin")));  // declined: kept as it was
    QCOMPARE(asked, QStringList{QStringLiteral("above bin")});
    QCOMPARE(stored.count(), 0);
    QCOMPARE(owner.states[0].joints[1].second, 0.0);
    QVERIFY2(panel.last_message().contains(QStringLiteral("'above bin' was kept")),
             qPrintable(panel.last_message()));
    agree = true;
    QVERIFY(panel.store(QStringLiteral("above bin")));
    QCOMPARE(stored.count(), 1);
    QCOMPARE(owner.states.size(), std::size_t(1));  // replaced, not added
    QCOMPARE(owner.states[0].joints[1].second, -1.0);
    // A new name is not asked about.
    asked.clear();
    QVERIFY(panel.store(QStringLiteral("beside it")));
    QVERIFY(asked.isEmpty());
  }

  void apply_and_as_goal_signal_the_states_joints() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    Owner owner(panel);
    const JointVector home = robot->named_pose("home");
    panel.set_current_source([home] { return home; });
    panel.set_robot(robot);
    QVERIFY(!panel.apply_button()->isEnabled());  // nothing selected
    QVERIFY(panel.store(QStringLiteral("home copy")));
    QVERIFY(panel.apply_button()->isEnabled() && panel.goal_button()->isEnabled());

    QSignalSpy applied(&panel, &StoredStatesPanel::applyRequested);
    QSignalSpy goal(&panel, &StoredStatesPanel::goalRequested);
    panel.apply_button()->click();
    QCOMPARE(applied.count(), 1);
    QCOMPARE(applied.at(0).at(0).toString(), QStringLiteral("home copy"));
    QCOMPARE(qvariant_cast<JointVector>(applied.at(0).at(1)), home);
    panel.goal_button()->click();
    QCOMPARE(goal.count(), 1);
    QCOMPARE(goal.at(0).at(0).toString(), QStringLiteral("home copy"));
    QCOMPARE(qvariant_cast<JointVector>(goal.at(0).at(1)), home);
    QVERIFY(!panel.apply(QStringLiteral("nowhere")));
    QVERIFY2(panel.last_message().contains(QStringLiteral("no stored state named 'nowhere'")),
             qPrintable(panel.last_message()));
    QCOMPARE(applied.count(), 1);
  }

  void a_state_outside_the_limits_is_clamped_and_said() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    StoredState state = kinetic::panels::stored_state_of(*robot, QStringLiteral("too far"),
                                                         robot->zero_configuration());
    state.joints[1].second = robot->upper_limits()[1] + 0.5;  // stored with a robot of wider limits
    panel.set_robot(robot);
    panel.set_states({state});
    QSignalSpy applied(&panel, &StoredStatesPanel::applyRequested);
    QVERIFY(panel.apply(QStringLiteral("too far")));
    QCOMPARE(qvariant_cast<JointVector>(applied.at(0).at(1))[1], robot->upper_limits()[1]);
    QVERIFY2(panel.last_message().contains(QStringLiteral(
                 "'too far' lies outside the limits of joint2; it was clamped into them.")),
             qPrintable(panel.last_message()));
  }

  void a_state_of_another_robot_is_refused_saying_why() {
    const auto ur5e = kinetic::load_builtin_robot("ur5e");
    const auto panda = kinetic::load_builtin_robot("panda");
    StoredStatesPanel panel;
    panel.set_robot(ur5e);
    // A Panda's state names a joint the UR5e lacks; a state from a UR URDF of ROS names none of
    // its joints (those robots call them shoulder_pan_joint ...).
    const StoredState panda_state = kinetic::panels::stored_state_of(
        *panda, QStringLiteral("panda pose"), panda->zero_configuration());
    StoredState ros_ur{QStringLiteral("ros pose"), {}};
    for (const char* joint : {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                              "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"})
      ros_ur.joints.emplace_back(joint, 0.0);
    panel.set_states({panda_state, ros_ur});
    // Listed (they are the user's), marked as not fitting.
    QCOMPARE(listed(panel),
             (QStringList{QStringLiteral("panda pose"), QStringLiteral("ros pose")}));
    QVERIFY(panel.list()->item(0)->font().italic());
    QVERIFY2(panel.list()->item(0)->toolTip().contains(QStringLiteral("Does not fit this robot")),
             qPrintable(panel.list()->item(0)->toolTip()));

    QSignalSpy applied(&panel, &StoredStatesPanel::applyRequested);
    QSignalSpy goal(&panel, &StoredStatesPanel::goalRequested);
    QVERIFY(!panel.apply(QStringLiteral("panda pose")));
    QCOMPARE(
        panel.last_message(),
        QStringLiteral("Cannot apply 'panda pose': it names joint 'joint7', which robot 'ur5e' "
                       "does not have. Store it again with this robot, or delete it."));
    QVERIFY(!panel.set_as_goal(QStringLiteral("ros pose")));
    QCOMPARE(panel.last_message(), QStringLiteral("Cannot set as goal 'ros pose': it names joints "
                                                  "'shoulder_pan_joint', 'shoulder_lift_joint', "
                                                  "'elbow_joint' and 3 more, which robot 'ur5e' "
                                                  "does not have; it gives no value for joints "
                                                  "'joint1', 'joint2', 'joint3' and 3 more. Store "
                                                  "it again with this robot, or delete it."));
    // The other way round: a UR5e state on the Panda has no value for its seventh joint.
    panel.set_robot(panda);
    panel.set_states({kinetic::panels::stored_state_of(*ur5e, QStringLiteral("ur pose"),
                                                       ur5e->zero_configuration())});
    QVERIFY(!panel.apply(QStringLiteral("ur pose")));
    QCOMPARE(
        panel.last_message(),
        QStringLiteral("Cannot apply 'ur pose': it gives no value for joint 'joint7'. Store it "
                       "again with this robot, or delete it."));
    QCOMPARE(applied.count() + goal.count(), 0);  // never half a state
  }

  void rename_with_the_button_inline_and_refused_names() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    Owner owner(panel);
    panel.set_current_source([robot] { return robot->zero_configuration(); });
    panel.set_robot(robot);
    QVERIFY(panel.store(QStringLiteral("a")));
    QVERIFY(panel.store(QStringLiteral("b")));
    QSignalSpy renamed(&panel, &StoredStatesPanel::renameRequested);

    QVERIFY(panel.rename(QStringLiteral("a"), QStringLiteral(" above bin ")));
    QCOMPARE(renamed.count(), 1);
    QCOMPARE(renamed.at(0).at(0).toString(), QStringLiteral("a"));
    QCOMPARE(renamed.at(0).at(1).toString(), QStringLiteral("above bin"));
    QCOMPARE(listed(panel), (QStringList{QStringLiteral("above bin"), QStringLiteral("b")}));
    QCOMPARE(panel.selected_name(), QStringLiteral("above bin"));

    // Names in use and empty names are refused, saying so; the state keeps its name.
    QVERIFY(!panel.rename(QStringLiteral("b"), QStringLiteral("above bin")));
    QVERIFY2(
        panel.last_message().contains(QStringLiteral("Another stored state is named 'above bin'")),
        qPrintable(panel.last_message()));
    QVERIFY(!panel.rename(QStringLiteral("b"), QStringLiteral("  ")));
    QVERIFY2(panel.last_message().contains(QStringLiteral("needs a name")),
             qPrintable(panel.last_message()));
    QCOMPARE(renamed.count(), 1);

    // Inline, as a double-click and typing does: the item's text edited.
    panel.select(QStringLiteral("b"));
    panel.list()->item(1)->setText(QStringLiteral("home for cell 2"));
    QCOMPARE(renamed.count(), 2);
    QCOMPARE(listed(panel),
             (QStringList{QStringLiteral("above bin"), QStringLiteral("home for cell 2")}));
    // A refused inline name goes back to the state's own.
    panel.list()->item(1)->setText(QStringLiteral("above bin"));
    QCOMPARE(renamed.count(), 2);
    QCOMPARE(listed(panel),
             (QStringList{QStringLiteral("above bin"), QStringLiteral("home for cell 2")}));

    // The Rename button opens the selected item's editor; typing a name and Return renames it.
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.select(QStringLiteral("above bin"));
    panel.rename_button()->click();
    QLineEdit* editor = nullptr;
    QTRY_VERIFY((editor = panel.list()->viewport()->findChild<QLineEdit*>()) != nullptr);
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("over the bin"));
    QTest::keyClick(editor, Qt::Key_Return);  // the delegate commits on the next event-loop turn
    QTRY_COMPARE(renamed.count(), 3);
    QCOMPARE(listed(panel),
             (QStringList{QStringLiteral("over the bin"), QStringLiteral("home for cell 2")}));
  }

  void delete_signals_the_selected_state() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    StoredStatesPanel panel;
    Owner owner(panel);
    panel.set_current_source([robot] { return robot->zero_configuration(); });
    panel.set_robot(robot);
    QVERIFY(panel.store(QStringLiteral("a")));
    QVERIFY(panel.store(QStringLiteral("b")));
    QSignalSpy deleted(&panel, &StoredStatesPanel::deleteRequested);
    panel.select(QStringLiteral("a"));
    panel.delete_button()->click();
    QCOMPARE(deleted.count(), 1);
    QCOMPARE(deleted.at(0).at(0).toString(), QStringLiteral("a"));
    QCOMPARE(listed(panel), QStringList{QStringLiteral("b")});
    QVERIFY(!panel.remove(QStringLiteral("a")));
    QCOMPARE(deleted.count(), 1);
    panel.set_states({});
    QVERIFY(!panel.delete_button()->isEnabled());
  }

  void inside_the_joints_panel_it_stores_the_sliders_values() {
    const auto robot = kinetic::load_builtin_robot("ur5e");
    kinetic::panels::JointsPanel joints;
    StoredStatesPanel* panel = joints.stored_states();
    QVERIFY(panel);
    Owner owner(*panel);
    joints.set_robot(robot);  // handed on to the stored states
    QVERIFY(panel->store_button()->isEnabled());
    joints.slider(2)->setValue(joints.slider(2)->maximum());
    QVERIFY(panel->store());
    QCOMPARE(owner.states[0].joints[2].second, robot->upper_limits()[2]);
    // Another robot: the state stays listed, marked as not fitting it.
    joints.set_robot(kinetic::load_builtin_robot("panda"));
    QCOMPARE(listed(*panel), QStringList{QStringLiteral("state 1")});
    QVERIFY(panel->list()->item(0)->font().italic());
    QVERIFY(!panel->apply(QStringLiteral("state 1")));
  }
};

QTEST_MAIN(StoredStatesPanelTest)
#include "stored_states_panel_test.moc"
