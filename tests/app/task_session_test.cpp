// Qt Test (offscreen): the Task panel's setup goes with the session. Set through the panel's
// fields in one studio, saved, and opened (File → Open session's path) in a fresh one, every field
// comes back; the file holds it as settings.task. A session without it (written before it was
// kept) opens without a word and the panel shows its defaults; a bad value drops only the setup,
// with a warning naming it; an object the reopened scene lacks is kept and the panel says so.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/session/new_session.hpp"
#include "app/session/session_file.hpp"
#include "app/studio_window_factory.hpp"
#include "app/task/task_feature.hpp"
#include "engine/scene/scene_file.hpp"
#include "panels/task_panel.hpp"
#include "support/test_paths.hpp"
#include "user_actions.hpp"

using namespace kinetic;
using kinetic::panels::TaskPanel;
using kinetic::panels::TaskSettings;
using nlohmann::json;

namespace {

PlanningScene session_example_scene() {
  return load_scene(test::test_source_dir() + "/../examples/jobs/pick_and_place_scene.json");
}

std::unique_ptr<app::Studio> open_studio() {
  auto studio = app::create_studio(app::CommandLine{});
  if (studio) studio->window->show();
  return studio;
}

// The studio with the example's scene (a part on a table): where each case starts.
std::unique_ptr<app::Studio> open_studio_with_part() {
  auto studio = open_studio();
  if (studio) studio->document->set_scene(session_example_scene());
  return studio;
}

TaskPanel* task_panel(const app::Studio& studio) {
  return studio.window->task()->panel();
}

json read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return json::parse(file.readAll().toStdString());
}

bool write_json(const QString& path, const json& doc) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
         file.write(QByteArray::fromStdString(doc.dump(1))) > 0;
}

// Opens `path` as File → Open session does; false when it asked anything (an error or warnings).
bool open_quietly(app::Studio& studio, const QString& path) {
  test::ModalAnswers answers({});
  studio.window->open_session(path);
  return answers.unexpected() == 0;
}

// A setup away from the defaults: the work open before, which must not stay.
TaskSettings earlier_setup() {
  TaskSettings s;
  s.object = QStringLiteral("box");
  s.place_follows_object = false;
  s.gripper = GripperSpec::Kind::Suction;
  s.approach_distance = 0.02;
  s.touch_links = {QStringLiteral("link6")};
  return s;
}

}  // namespace

class TaskSessionTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void the_task_setup_comes_back_in_a_fresh_window() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("task.kinetic-session"));
    {
      auto first = open_studio_with_part();
      QVERIFY(first);
      TaskPanel* panel = task_panel(*first);
      // Every field away from its default, through the panel's own fields.
      panel->object_combo()->setCurrentIndex(
          panel->object_combo()->findText(QStringLiteral("part")));
      panel->place_position_box(0)->setValue(0.45);
      panel->place_position_box(1)->setValue(0.35);
      panel->place_position_box(2)->setValue(0.04);
      panel->place_yaw_box()->setValue(-90.0);
      panel->place_rotations_box()->setValue(2);
      panel->opening_box()->setValue(62.5);
      panel->finger_depth_box()->setValue(12.0);
      panel->touch_links_edit()->setText(QStringLiteral("link6 link4"));
      panel->approach_box()->setValue(60.0);
      panel->lift_box()->setValue(40.0);
      panel->gripper_combo()->setCurrentIndex(
          panel->gripper_combo()->findText(QStringLiteral("Suction")));
      QCOMPARE(app::save_session(*first->document, path), QString());
    }

    // The file holds it in engine units.
    const json saved = read_json(path);
    QVERIFY2(saved.contains("settings") && saved["settings"].contains("task"),
             saved.dump().c_str());
    const json& task = saved["settings"]["task"];
    QCOMPARE(task["object"].get<std::string>(), std::string("part"));
    QVERIFY2(task["place"]["xyz"] == json::array({0.45, 0.35, 0.04}), task.dump().c_str());
    QVERIFY(std::abs(task["place"]["yaw"].get<double>() + M_PI / 2) < 1e-12);
    QCOMPARE(task["place"]["follows_object"].get<bool>(), false);
    QCOMPARE(task["place_yaw_steps"].get<int>(), 2);
    QCOMPARE(task["gripper"]["type"].get<std::string>(), std::string("suction"));
    QCOMPARE(task["gripper"]["max_opening"].get<double>(), 0.0625);
    QCOMPARE(task["gripper"]["finger_depth"].get<double>(), 0.012);
    QVERIFY2(task["touch_links"] == json::array({"link6", "link4"}), task.dump().c_str());
    QCOMPARE(task["approach_distance"].get<double>(), 0.06);
    QCOMPARE(task["lift_distance"].get<double>(), 0.04);

    auto second = open_studio();
    QVERIFY(second);
    TaskPanel* panel = task_panel(*second);
    QVERIFY(panel->object().isEmpty());  // a fresh window: nothing to pick yet
    QVERIFY(open_quietly(*second, path));
    QCOMPARE(panel->object(), QStringLiteral("part"));
    QVERIFY(panel->missing_object().isEmpty());
    QCOMPARE(panel->place_position_box(0)->value(), 0.45);
    QCOMPARE(panel->place_position_box(1)->value(), 0.35);
    QCOMPARE(panel->place_position_box(2)->value(), 0.04);
    QCOMPARE(panel->place_yaw_box()->value(), -90.0);
    QVERIFY(!panel->settings().place_follows_object);
    QCOMPARE(panel->place_rotations_box()->value(), 2);
    QCOMPARE(panel->gripper_combo()->currentText(), QStringLiteral("Suction"));
    QCOMPARE(panel->opening_box()->value(), 62.5);
    QCOMPARE(panel->finger_depth_box()->value(), 12.0);
    QCOMPARE(panel->touch_links_edit()->text(), QStringLiteral("link6, link4"));
    QCOMPARE(panel->approach_box()->value(), 60.0);
    QCOMPARE(panel->lift_box()->value(), 40.0);
    // What Plan asks for, and what saving again writes, is the same.
    QCOMPARE(panel->request().place_yaw_steps, 2);
    QVERIFY((panel->request().place_pose.translation() - Vector3(0.45, 0.35, 0.04)).norm() < 1e-12);
    const json again = json::parse(app::session_to_json(*second->document));
    QVERIFY2(again["settings"]["task"] == task, again["settings"]["task"].dump().c_str());
  }

  void an_old_session_without_the_task_setup_opens_with_the_defaults() {
    QTemporaryDir dir;
    const QString old_path = dir.filePath(QStringLiteral("old.kinetic-session"));
    const QString set_path = dir.filePath(QStringLiteral("set.kinetic-session"));
    const TaskSettings before = earlier_setup();  // the work open before, which must not stay
    {
      app::StudioDocument old;  // no Task panel: its session has no settings.task
      QCOMPARE(old.load_robot(QStringLiteral("ur5e")), QString());
      old.set_scene(session_example_scene());
      QCOMPARE(app::save_session(old, old_path), QString());
      old.set_task_settings(before);
      QCOMPARE(app::save_session(old, set_path), QString());
    }
    QVERIFY(!read_json(old_path).contains("settings"));

    auto studio = open_studio();
    QVERIFY(studio);
    TaskPanel* panel = task_panel(*studio);
    QVERIFY(open_quietly(*studio, set_path));
    QCOMPARE(panel->object(), QStringLiteral("box"));
    QCOMPARE(panel->gripper_combo()->currentText(), QStringLiteral("Suction"));
    QVERIFY(open_quietly(*studio, old_path));
    const TaskSettings defaults;
    const TaskSettings now = panel->settings();
    QCOMPARE(now.object, QStringLiteral("table"));  // as in a fresh panel: the scene's first object
    QVERIFY(now.place_follows_object);
    QCOMPARE(now.place_position[0], 0.55);  // the table's
    QCOMPARE(now.gripper, defaults.gripper);
    QCOMPARE(now.place_yaw_steps, defaults.place_yaw_steps);
    QCOMPARE(now.max_opening, defaults.max_opening);
    QCOMPARE(now.finger_depth, defaults.finger_depth);
    QCOMPARE(now.approach_distance, defaults.approach_distance);
    QCOMPARE(now.lift_distance, defaults.lift_distance);
    QVERIFY(now.touch_links.isEmpty());
    QVERIFY(panel->missing_object().isEmpty());
  }

  // File → New session: the setup went with the old session's scene; the panel is back at its
  // defaults (it saved nothing of the old work into the next).
  void a_new_session_resets_the_task_setup() {
    auto studio = open_studio_with_part();
    QVERIFY(studio);
    const TaskSettings before = earlier_setup();
    studio->document->load_task_settings(before);
    TaskPanel* panel = task_panel(*studio);
    QCOMPARE(panel->object(), QStringLiteral("box"));
    QCOMPARE(panel->gripper_combo()->currentText(), QStringLiteral("Suction"));

    app::clear_to_new_session(*studio->document);
    const TaskSettings defaults;
    const TaskSettings now = panel->settings();
    QVERIFY(now.object.isEmpty());  // the new scene is empty
    QVERIFY(panel->missing_object().isEmpty());
    QVERIFY(now.place_follows_object);
    QCOMPARE(now.gripper, defaults.gripper);
    QCOMPARE(now.approach_distance, defaults.approach_distance);
    QVERIFY(now.touch_links.isEmpty());
    // The document keeps what the panel shows, so the next Save writes the defaults.
    QVERIFY(studio->document->task_settings());
    QCOMPARE(studio->document->task_settings()->gripper, defaults.gripper);
    QCOMPARE(studio->document->task_settings()->approach_distance, defaults.approach_distance);
  }

  void a_bad_value_drops_only_the_task_setup_with_a_warning() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.kinetic-session"));
    auto studio = open_studio_with_part();
    QVERIFY(studio);
    TaskPanel* panel = task_panel(*studio);
    panel->approach_box()->setValue(30.0);
    QCOMPARE(app::save_session(*studio->document, path), QString());
    json doc = read_json(path);
    doc["settings"]["task"]["gripper"]["type"] = "magnet";
    doc["settings"]["task"]["lift"] = 0.05;  // a key this build does not know
    doc["settings"]["timing"]["velocity_scaling"] = 0.5;
    QVERIFY(write_json(path, doc));

    const app::SessionLoadResult result = app::load_session(*studio->document, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    const QString said = result.warnings.join('\n');
    QVERIFY2(said.contains(QStringLiteral(
                 "settings.task.gripper.type: expected \"parallel\" or \"suction\"; the "
                 "Task panel's setup was reset to its defaults.")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("settings.task: unknown key \"lift\"")) &&
                 said.contains(QStringLiteral("lift_distance")),
             qPrintable(said));
    QCOMPARE(result.warnings.size(), 2);
    QCOMPARE(panel->approach_box()->value(), PickPlaceRequest{}.approach_distance * 1000.0);
    QVERIFY(studio->document->scene().has_obstacle("part"));  // the session opened
    QCOMPARE(studio->document->planner_settings()->velocity_scaling,
             0.5);  // and the planner's settings with it
  }

  void an_object_the_scene_lacks_is_kept_and_said() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("moved.kinetic-session"));
    auto studio = open_studio_with_part();
    QVERIFY(studio);
    TaskPanel* panel = task_panel(*studio);
    panel->object_combo()->setCurrentIndex(panel->object_combo()->findText(QStringLiteral("part")));
    panel->place_position_box(1)->setValue(0.3);
    panel->lift_box()->setValue(70.0);
    QCOMPARE(app::save_session(*studio->document, path), QString());
    // The part was taken out of the file's scene (an edit by hand, another tool).
    json doc = read_json(path);
    json& obstacles = doc["scene"]["obstacles"];
    for (auto it = obstacles.begin(); it != obstacles.end();)
      it = (*it)["name"] == "part" ? obstacles.erase(it) : it + 1;
    doc["scene"]["allowed"] = json::array();
    QVERIFY(write_json(path, doc));

    auto fresh = open_studio();
    QVERIFY(fresh);
    panel = task_panel(*fresh);
    QVERIFY(open_quietly(*fresh, path));
    QVERIFY(!fresh->document->scene().has_obstacle("part"));
    QCOMPARE(panel->missing_object(), QStringLiteral("part"));
    QVERIFY(panel->object().isEmpty());  // not silently another object
    QVERIFY(panel->missing_object_label()->isVisibleTo(panel));
    QVERIFY2(panel->missing_object_label()->text().contains(
                 QStringLiteral("'part' is not in the scene")),
             qPrintable(panel->missing_object_label()->text()));
    QCOMPARE(panel->place_position_box(1)->value(), 0.3);  // the rest of the setup is there
    QCOMPARE(panel->lift_box()->value(), 70.0);
    // Saved again, the setup still names it; Plan says what is missing.
    const json again = json::parse(app::session_to_json(*fresh->document));
    QCOMPARE(again["settings"]["task"]["object"].get<std::string>(), std::string("part"));
    fresh->window->task()->plan();
    QVERIFY2(panel->status_label()->text().contains(QStringLiteral("'part' is not in the scene")),
             qPrintable(panel->status_label()->text()));
    // The part put back (undo of a delete, a scene loaded): it is chosen again.
    fresh->document->set_scene(session_example_scene());
    QCOMPARE(panel->object(), QStringLiteral("part"));
    QVERIFY(panel->missing_object().isEmpty());
    QVERIFY(!panel->missing_object_label()->isVisibleTo(panel));
  }
};

QTEST_MAIN(TaskSessionTest)
#include "task_session_test.moc"
