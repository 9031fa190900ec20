// Qt Test (offscreen): an intended contact allowed from the studio (create_studio). A table flush
// under the UR5e's base collides with base_link; the Collisions panel's row carries that pair,
// Allow contact puts it in the document's scene as one undo step, the monitor then says free and
// the planner plans from that state; the Scene panel's Allowed contacts list shows the pair and
// Remove takes it away (one undo step); a session keeps it. A row of two robot links (a folded
// Panda) offers the collision matrix instead and writes no override.
#include <QAction>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>
#include <memory>
#include <random>

#include "app/collision/collision_monitor.hpp"
#include "app/collision/collisions_panel.hpp"
#include "app/session/session_file.hpp"
#include "app/studio_window_factory.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/planner.hpp"
#include "panels/allowed_contacts_group.hpp"
#include "panels/scene_panel.hpp"
#include "support/self_colliding_pose.hpp"

using kinetic::app::CollisionsPanel;
using kinetic::app::Studio;

namespace {

constexpr int kTimeoutMs = 10000;

// A 40 x 40 cm table whose top is 2 mm above the floor the base stands on: flush, touching.
kinetic::PlanningScene table_under_base() {
  kinetic::PlanningScene scene;
  kinetic::Pose pose = kinetic::Pose::Identity();
  pose.translation() = kinetic::Vector3(0.0, 0.0, -0.048);
  scene.add_obstacle("table", kinetic::Shape::box(kinetic::Vector3(0.4, 0.4, 0.1)), pose);
  return scene;
}

// The list row naming both bodies, or null.
QListWidgetItem* row_with_pair(QListWidget* list, const QString& a, const QString& b) {
  for (int i = 0; i < list->count(); ++i) {
    const QStringList pair = list->item(i)->data(CollisionsPanel::kPairRole).toStringList();
    if ((pair.value(0) == a && pair.value(1) == b) || (pair.value(0) == b && pair.value(1) == a))
      return list->item(i);
  }
  return nullptr;
}

bool allowed(const kinetic::PlanningScene& scene) {
  return scene.override_for("table", "base_link") == true;
}

}  // namespace

class AllowContactTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    studio_ = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio_);
    QVERIFY(studio_->document->load_robot(QStringLiteral("ur5e")).isEmpty());
    studio_->document->set_joints(studio_->document->robot()->named_pose("ready"));
  }
  void cleanup() { studio_.reset(); }

  void allow_contact_from_the_collisions_panel() {
    kinetic::app::StudioDocument& document = *studio_->document;
    CollisionsPanel* panel = studio_->window->collisions_panel();
    QVERIFY(panel);
    QVERIFY(!panel->allow_button()->isEnabled());  // nothing selected
    document.edit_scene(table_under_base(), QStringLiteral("Add table"));
    QTRY_VERIFY_WITH_TIMEOUT(row_with_pair(panel->list(), "table", "base_link"), kTimeoutMs);
    QListWidgetItem* row = row_with_pair(panel->list(), "table", "base_link");
    QVERIFY(!row->data(CollisionsPanel::kSelfPairRole).toBool());

    // The planner refuses this start, naming the pair.
    kinetic::Planner planner(document.robot(), document.scene());
    const kinetic::JointVector start = document.joints();
    QVERIFY_THROWS_EXCEPTION(kinetic::Error, planner.plan(start, kinetic::NamedGoal{"home"}));

    panel->list()->setCurrentItem(row);
    QVERIFY(panel->allow_button()->isEnabled());
    std::unique_ptr<QMenu> menu(panel->context_menu_for(row));
    QVERIFY(!menu->actions().isEmpty() && menu->actions().last()->isEnabled());
    const int steps = document.undo_stack().count();
    QTest::mouseClick(panel->allow_button(), Qt::LeftButton);
    QVERIFY(allowed(document.scene()));
    QCOMPARE(document.undo_stack().count(), steps + 1);
    QCOMPARE(document.undo_stack().undoText(), QStringLiteral("Allow table – base_link"));
    QTRY_VERIFY_WITH_TIMEOUT(
        studio_->window->collision_monitor()->report().valid &&
            studio_->window->collision_monitor()->report().current.contacts.empty(),
        kTimeoutMs);
    QVERIFY2(studio_->window->collision_monitor()->summary().startsWith(
                 QStringLiteral("collision: free")),
             qPrintable(studio_->window->collision_monitor()->summary()));

    // The planner's start check passes, and a plan comes back.
    planner.set_scene(document.scene());
    try {
      const kinetic::PlanResult result = planner.plan(start, kinetic::NamedGoal{"home"});
      QVERIFY(!result.path.empty());
    } catch (const kinetic::Error& error) {
      QFAIL(error.what());
    }

    document.undo_stack().undo();
    QVERIFY(!allowed(document.scene()));
    QTRY_VERIFY_WITH_TIMEOUT(row_with_pair(panel->list(), "table", "base_link"), kTimeoutMs);
  }

  void scene_panel_lists_and_removes_allowed_pairs() {
    kinetic::app::StudioDocument& document = *studio_->document;
    auto* scene_panel = studio_->window->findChild<kinetic::panels::ScenePanel*>();
    QVERIFY(scene_panel);
    kinetic::panels::AllowedContactsGroup* group = scene_panel->allowed_contacts();
    QVERIFY(!group->toggle()->isChecked());  // folded by default
    QVERIFY(!group->list()->isVisibleTo(scene_panel));
    QCOMPARE(group->list()->count(), 0);

    kinetic::PlanningScene scene = table_under_base();
    scene.allow("table", "base_link");  // as a loaded scene file's "allowed" list
    document.edit_scene(scene, QStringLiteral("Load scene"));
    QCOMPARE(group->list()->count(), 1);
    QVERIFY(group->list()->item(0)->text().contains(QStringLiteral("table")));
    QVERIFY(group->toggle()->text().contains(QStringLiteral("(1)")));

    group->toggle()->click();
    QVERIFY(group->list()->isVisibleTo(scene_panel));
    group->list()->setCurrentRow(0);
    QVERIFY(group->remove_button()->isEnabled());
    const int steps = document.undo_stack().count();
    group->remove_button()->click();
    QVERIFY(!allowed(document.scene()));
    QVERIFY(document.scene().has_obstacle("table"));  // only the pair went
    QCOMPARE(document.undo_stack().count(), steps + 1);
    QCOMPARE(group->list()->count(), 0);
    document.undo_stack().undo();
    QVERIFY(allowed(document.scene()));
    QCOMPARE(group->list()->count(), 1);
  }

  void session_keeps_allowed_pairs() {
    kinetic::app::StudioDocument& document = *studio_->document;
    kinetic::PlanningScene scene = table_under_base();
    scene.allow("table", "base_link");
    document.edit_scene(scene, QStringLiteral("Allow"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.kinetic-session"));
    QCOMPARE(kinetic::app::save_session(document, path), QString());
    kinetic::app::StudioDocument reopened;
    const kinetic::app::SessionLoadResult loaded = kinetic::app::load_session(reopened, path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QVERIFY(allowed(reopened.scene()));
  }

  // Two links of a folded Panda: no scene override; the row offers the collision matrix.
  void self_collision_row_writes_no_override() {
    kinetic::app::StudioDocument& document = *studio_->document;
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    const kinetic::JointVector folded = kinetic::test::self_colliding_pose(document.robot());
    QVERIFY2(folded.size() > 0, "no self-colliding pose among 10,000 random ones");
    document.set_joints(folded);
    CollisionsPanel* panel = studio_->window->collisions_panel();
    const auto self_row = [panel]() -> QListWidgetItem* {
      for (int i = 0; i < panel->list()->count(); ++i)
        if (panel->list()->item(i)->data(CollisionsPanel::kSelfPairRole).toBool())
          return panel->list()->item(i);
      return nullptr;
    };
    QTRY_VERIFY_WITH_TIMEOUT(self_row(), kTimeoutMs);
    QListWidgetItem* row = self_row();
    panel->list()->setCurrentItem(row);
    QVERIFY(!panel->allow_button()->isEnabled());
    QVERIFY(panel->allow_button()->toolTip().contains(QStringLiteral("Generate collision matrix")));
    std::unique_ptr<QMenu> menu(panel->context_menu_for(row));
    bool offers_matrix = false;
    for (QAction* action : menu->actions())
      offers_matrix |= action->text().contains(QStringLiteral("collision matrix"));
    QVERIFY(offers_matrix);
    const int steps = document.undo_stack().count();
    QVERIFY(!panel->allow_selected().isEmpty());
    panel->allow_action()->trigger();
    QCOMPARE(document.undo_stack().count(), steps);
    QVERIFY(document.scene().overrides().empty());
  }

 private:
  std::unique_ptr<Studio> studio_;
};

QTEST_MAIN(AllowContactTest)
#include "allow_contact_test.moc"
