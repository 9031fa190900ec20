// Qt Test (offscreen): the Task panel's setup as one value (what a session keeps): every field
// comes back as it was set, set_settings is not an edit while the user's edits are, and an object
// the scene lacks is kept, said, and chosen again once the scene has it.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "panels/task_panel.hpp"
#include "support/units.hpp"

using kinetic::GripperSpec;
using kinetic::Pose;
using kinetic::Vector3;
using kinetic::panels::TaskObject;
using kinetic::panels::TaskPanel;
using kinetic::panels::TaskSettings;

namespace {

using kinetic::test::kDegree;

TaskObject object_at(const QString& name, const Vector3& position) {
  Pose pose = Pose::Identity();
  pose.translation() = position;
  return {name, QStringLiteral("box"), pose};
}

// Every field away from its default (values the panel's boxes show exactly).
TaskSettings edited_settings() {
  TaskSettings s;
  s.object = QStringLiteral("box");
  s.place_position = {0.45, 0.35, 0.035};
  s.place_yaw = 30.0 * kDegree;
  s.place_follows_object = false;
  s.place_yaw_steps = 6;
  s.gripper = GripperSpec::Kind::Suction;
  s.max_opening = 0.0625;
  s.finger_depth = 0.012;
  s.touch_links = {QStringLiteral("link6"), QStringLiteral("link4")};
  s.approach_distance = 0.06;
  s.lift_distance = 0.04;
  return s;
}

void compare(const TaskSettings& a, const TaskSettings& b) {
  QCOMPARE(a.object, b.object);
  for (std::size_t i = 0; i < 3; ++i) QCOMPARE(a.place_position[i], b.place_position[i]);
  QVERIFY2(std::abs(a.place_yaw - b.place_yaw) < 1e-12, qPrintable(QString::number(a.place_yaw)));
  QCOMPARE(a.place_follows_object, b.place_follows_object);
  QCOMPARE(a.place_yaw_steps, b.place_yaw_steps);
  QCOMPARE(a.gripper, b.gripper);
  QVERIFY(std::abs(a.max_opening - b.max_opening) < 1e-12);
  QVERIFY(std::abs(a.finger_depth - b.finger_depth) < 1e-12);
  QCOMPARE(a.touch_links, b.touch_links);
  QVERIFY(std::abs(a.approach_distance - b.approach_distance) < 1e-12);
  QVERIFY(std::abs(a.lift_distance - b.lift_distance) < 1e-12);
}

}  // namespace

class TaskPanelSettingsTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    panel_ = std::make_unique<TaskPanel>();
    panel_->set_robot_available(true);
    panel_->set_objects({object_at(QStringLiteral("part"), Vector3(0.5, -0.35, 0.035)),
                         object_at(QStringLiteral("box"), Vector3(0.5, 0.0, 0.15))});
  }
  void cleanup() { panel_.reset(); }

  void every_field_comes_back_as_it_was_set() {
    // The defaults are the engine's request's, the place following the first object.
    const TaskSettings defaults = panel_->settings();
    QCOMPARE(defaults.object, QStringLiteral("part"));
    QVERIFY(defaults.place_follows_object);
    QCOMPARE(defaults.place_position[1], -0.35);
    QCOMPARE(defaults.place_yaw_steps, kinetic::PickPlaceRequest{}.place_yaw_steps);
    QCOMPARE(defaults.gripper, GripperSpec::Kind::Parallel);
    QVERIFY(defaults.touch_links.isEmpty());

    QSignalSpy edited(panel_.get(), &TaskPanel::settingsChanged);
    QSignalSpy place(panel_.get(), &TaskPanel::placeChanged);
    panel_->set_settings(edited_settings());
    QCOMPARE(edited.count(), 0);  // set, not edited
    QCOMPARE(place.count(), 1);   // the place marker follows
    compare(panel_->settings(), edited_settings());
    // The fields show it, in the panel's units.
    QCOMPARE(panel_->object(), QStringLiteral("box"));
    QCOMPARE(panel_->place_position_box(0)->value(), 0.45);
    QCOMPARE(panel_->place_yaw_box()->value(), 30.0);
    QCOMPARE(panel_->place_rotations_box()->value(), 6);
    QCOMPARE(panel_->gripper_combo()->currentText(), QStringLiteral("Suction"));
    QCOMPARE(panel_->opening_box()->value(), 62.5);
    QCOMPARE(panel_->finger_depth_box()->value(), 12.0);
    QCOMPARE(panel_->touch_links_edit()->text(), QStringLiteral("link6, link4"));
    QCOMPARE(panel_->approach_box()->value(), 60.0);
    QCOMPARE(panel_->lift_box()->value(), 40.0);
    // What Plan asks for is what was set: an edited place stays where it was put.
    QVERIFY((panel_->request().place_pose.translation() - Vector3(0.45, 0.35, 0.035)).norm() <
            1e-12);
    QCOMPARE(panel_->request().gripper.kind, GripperSpec::Kind::Suction);
    QVERIFY(!panel_->missing_object_label()->isVisibleTo(panel_.get()));

    // A place that follows its object is taken from the object, not from the stale numbers.
    TaskSettings follows = edited_settings();
    follows.place_follows_object = true;
    panel_->set_settings(follows);
    QCOMPARE(panel_->place_position_box(2)->value(), 0.15);
    QVERIFY(panel_->settings().place_follows_object);
  }

  void every_user_edit_is_signalled() {
    QSignalSpy edited(panel_.get(), &TaskPanel::settingsChanged);
    // Each edit of the setup, as a user makes it (or as the view's drag and the scene make it).
    const std::vector<std::pair<const char*, std::function<void()>>> edits = {
        {"object", [this] { panel_->object_combo()->setCurrentIndex(1); }},
        {"place y", [this] { panel_->place_position_box(1)->setValue(0.2); }},
        {"yaw", [this] { panel_->place_yaw_box()->setValue(45.0); }},
        {"place rotations", [this] { panel_->place_rotations_box()->setValue(2); }},
        {"max opening", [this] { panel_->opening_box()->setValue(50.0); }},
        {"finger depth", [this] { panel_->finger_depth_box()->setValue(5.0); }},
        {"gripper", [this] { panel_->gripper_combo()->setCurrentIndex(1); }},
        {"touch links", [this] { panel_->touch_links_edit()->setText(QStringLiteral("link6")); }},
        {"approach", [this] { panel_->approach_box()->setValue(20.0); }},
        {"lift", [this] { panel_->lift_box()->setValue(30.0); }},
        {"from object",
         [this] { QTest::mouseClick(panel_->from_object_button(), Qt::LeftButton); }},
        {"place dragged in the view",
         [this] {
           Pose dragged = Pose::Identity();
           dragged.translation() = Vector3(0.1, 0.2, 0.3);
           panel_->move_place(dragged);
         }},
    };
    for (const auto& [what, edit] : edits) {
      const auto before = edited.count();
      edit();
      QVERIFY2(edited.count() > before, what);
    }
    QVERIFY(!panel_->settings().place_follows_object);  // typed: it no longer follows the object

    // The scene's objects moving the place that follows them is a change too.
    panel_->set_settings(TaskSettings{});
    const auto before = edited.count();
    panel_->set_objects({object_at(QStringLiteral("part"), Vector3(0.3, 0.0, 0.0))});
    QVERIFY(edited.count() > before);
    QCOMPARE(panel_->settings().place_position[0], 0.3);
  }

  void an_object_the_scene_lacks_is_kept_and_said() {
    TaskSettings wanted = edited_settings();
    wanted.object = QStringLiteral("gear");
    panel_->set_settings(wanted);
    // Nothing is chosen (Plan would not pick something else), the rest of the setup is there.
    QCOMPARE(panel_->object(), QString());
    QCOMPARE(panel_->object_combo()->currentIndex(), -1);
    QCOMPARE(panel_->missing_object(), QStringLiteral("gear"));
    QVERIFY(panel_->request().object.empty());
    QCOMPARE(panel_->settings().object, QStringLiteral("gear"));  // saved again as it was
    TaskSettings rest = panel_->settings();
    rest.object = edited_settings().object;
    compare(rest, edited_settings());
    QLabel* said = panel_->missing_object_label();
    QVERIFY(said->isVisibleTo(panel_.get()));
    QVERIFY2(said->text().contains(QStringLiteral("'gear' is not in the scene")),
             qPrintable(said->text()));

    // The scene changing without it keeps it; the scene having it again chooses it.
    panel_->set_objects({object_at(QStringLiteral("part"), Vector3::Zero())});
    QCOMPARE(panel_->missing_object(), QStringLiteral("gear"));
    QCOMPARE(panel_->object(), QString());
    panel_->set_objects({object_at(QStringLiteral("part"), Vector3::Zero()),
                         object_at(QStringLiteral("gear"), Vector3(0.2, 0.0, 0.0))});
    QCOMPARE(panel_->object(), QStringLiteral("gear"));
    QVERIFY(panel_->missing_object().isEmpty());
    QVERIFY(!said->isVisibleTo(panel_.get()));
    QVERIFY((panel_->request().place_pose.translation() - Vector3(0.45, 0.35, 0.035)).norm() <
            1e-12);  // kept

    // Choosing another object lets the missing one go.
    panel_->set_settings(wanted);
    panel_->set_objects({object_at(QStringLiteral("part"), Vector3::Zero())});
    panel_->object_combo()->setCurrentIndex(0);
    QCOMPARE(panel_->object(), QStringLiteral("part"));
    QVERIFY(panel_->missing_object().isEmpty());
    QCOMPARE(panel_->settings().object, QStringLiteral("part"));
    QVERIFY(!said->isVisibleTo(panel_.get()));
  }

 private:
  std::unique_ptr<TaskPanel> panel_;
};

QTEST_MAIN(TaskPanelSettingsTest)
#include "task_panel_settings_test.moc"
