// Qt Test: session files — round trip, bad files leave the document unchanged, missing robot files.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <nlohmann/json.hpp>

#include "app/document/studio_document.hpp"
#include "app/session/session_file.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"

using kinetic::JointVector;
using kinetic::Pose;
using kinetic::Shape;
using kinetic::app::StudioDocument;

namespace {

kinetic::Trajectory two_sample_trajectory(const kinetic::RobotModel& robot) {
  std::vector<kinetic::TrajectorySample> samples(2);
  for (int i = 0; i < 2; ++i) {
    samples[i].t = 0.5 * i;
    samples[i].position = robot.mid_configuration() * (0.3 + 0.1 * i);
    samples[i].velocity = JointVector::Constant(robot.dof(), 0.1 * i);
    samples[i].acceleration = JointVector::Zero(robot.dof());
  }
  std::vector<kinetic::PositionUnit> units(static_cast<std::size_t>(robot.dof()),
                                           kinetic::PositionUnit::Radian);
  return kinetic::Trajectory(robot.name(), robot.variable_names(), units, samples);
}

// A document with something in every part of the session.
void fill(StudioDocument& document) {
  QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
  JointVector q = document.robot()->mid_configuration();
  q[1] = 0.123456789012345;
  document.set_joints(q);
  kinetic::PlanningScene scene;
  scene.add_obstacle("table", Shape::box({1.0, 0.8, 0.05}),
                     kinetic::pose_from_xyz_rpy({0.5, 0, -0.03}, {0, 0, 0.1}));
  scene.add_obstacle("ball", Shape::sphere(0.07),
                     kinetic::pose_from_xyz_rpy({0.4, 0.2, 0.3}, {0, 0, 0}));
  const kinetic::PlanningScene before_grasp = scene;
  scene.attach_obstacle("ball", "tool0", Pose::Identity());
  scene.allow("table", "link0");
  document.set_scene(scene);
  kinetic::app::GoalState goal;
  goal.joints = document.robot()->zero_configuration();
  goal.tcp_pose = kinetic::pose_from_xyz_rpy({0.3, -0.2, 0.5}, {3.1, 0.2, -0.4});
  document.set_goal(goal);
  // Two stored states of the user's, one at values a decimal print would round.
  JointVector above_bin = document.robot()->mid_configuration();
  above_bin[0] = 0.1 + 0.2;
  document.set_stored_states(
      {kinetic::panels::stored_state_of(*document.robot(), QStringLiteral("above bin"), above_bin),
       kinetic::panels::stored_state_of(*document.robot(), QStringLiteral("home for cell 2"),
                                        document.robot()->zero_configuration())});
  // The ball is picked up half way (a pick and place's scene changes).
  document.set_trajectories({{QStringLiteral("pick"),
                              two_sample_trajectory(*document.robot()),
                              {{0.0, before_grasp}, {0.25, scene}}}});
}

// Scenes equal up to rounding (a pose's rotation goes through a quaternion in the file).
bool same_saved_scene(const kinetic::PlanningScene& a, const kinetic::PlanningScene& b) {
  if (a.obstacles().size() != b.obstacles().size() ||
      a.attached_objects().size() != b.attached_objects().size() || a.overrides() != b.overrides())
    return false;
  for (std::size_t i = 0; i < a.obstacles().size(); ++i) {
    const auto &x = a.obstacles()[i], &y = b.obstacles()[i];
    if (x.name != y.name || x.shape.type != y.shape.type || x.shape.box_size != y.shape.box_size ||
        x.shape.radius != y.shape.radius || x.shape.length != y.shape.length ||
        !x.pose.isApprox(y.pose, 1e-12))
      return false;
  }
  for (std::size_t i = 0; i < a.attached_objects().size(); ++i) {
    const auto &x = a.attached_objects()[i], &y = b.attached_objects()[i];
    if (x.name != y.name || x.link != y.link || x.shape.type != y.shape.type ||
        x.shape.radius != y.shape.radius || x.shape.box_size != y.shape.box_size ||
        !x.pose.isApprox(y.pose, 1e-12))
      return false;
  }
  return true;
}

std::string document_snapshot(const StudioDocument& document) {
  return kinetic::app::session_to_json(document);
}

void write(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(bytes);
}

}  // namespace

class SessionFileTest : public QObject {
  Q_OBJECT
 private slots:
  void round_trip_restores_everything() {
    QTemporaryDir dir;
    StudioDocument original;
    fill(original);
    const QString path = dir.filePath(QStringLiteral("work.kinetic-session"));
    QVERIFY(kinetic::app::save_session(original, path).isEmpty());

    StudioDocument restored;
    QVERIFY(restored.load_robot(QStringLiteral("ur5e")).isEmpty());
    const auto result = kinetic::app::load_session(restored, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QCOMPARE(restored.robot_reference(), QStringLiteral("panda"));
    QCOMPARE(restored.joints(), original.joints());  // bit-exact (shortest round-trip doubles)
    QVERIFY(same_saved_scene(restored.scene(), original.scene()));
    QVERIFY(restored.goal().tcp_pose->isApprox(*original.goal().tcp_pose, 1e-12));
    QCOMPARE(*restored.goal().joints, *original.goal().joints);
    QCOMPARE(restored.trajectories().size(), std::size_t{1});
    QCOMPARE(restored.trajectories()[0].name, QStringLiteral("pick"));
    QVERIFY(restored.trajectories()[0].trajectory == original.trajectories()[0].trajectory);
    const auto& changes = restored.trajectories()[0].scene_changes;
    QCOMPARE(changes.size(), std::size_t{2});
    for (std::size_t i = 0; i < changes.size(); ++i) {
      QCOMPARE(changes[i].time, original.trajectories()[0].scene_changes[i].time);
      QVERIFY(
          same_saved_scene(changes[i].scene, original.trajectories()[0].scene_changes[i].scene));
    }
    QVERIFY(changes[1].scene.has_attached("ball") && !changes[0].scene.has_attached("ball"));
    QVERIFY(restored.stored_states() ==
            original.stored_states());  // names, joint order, values bit-exact
    QCOMPARE(restored.undo_stack().count(), 0);
    // Saving what was opened writes the same file: the orientations' last bits used to wander on
    // every save (a diff for a session saved unchanged).
    QCOMPARE(kinetic::app::session_to_json(restored), kinetic::app::session_to_json(original));
  }

  void scene_changes_are_optional_and_checked() {
    StudioDocument source;
    fill(source);
    const std::string text = kinetic::app::session_to_json(source);
    const auto edited = [&](const std::function<void(nlohmann::json&)>& edit) {
      nlohmann::json doc = nlohmann::json::parse(text);
      edit(doc["trajectories"][0]["scene_changes"]);
      return doc.dump();
    };
    // A session written before scene changes existed opens, its trajectory a plain motion.
    nlohmann::json old_style = nlohmann::json::parse(text);
    old_style["trajectories"][0].erase("scene_changes");
    StudioDocument document;
    auto result =
        kinetic::app::apply_session_json(document, old_style.dump(), QStringLiteral("old"), {});
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QCOMPARE(document.trajectories().size(), std::size_t{1});
    QVERIFY(document.trajectories()[0].scene_changes.empty());
    // Bad changes refuse the file, naming the field; the document keeps what it had.
    const std::string before = document_snapshot(document);
    const std::pair<std::function<void(nlohmann::json&)>, QString> bad[] = {
        {[](nlohmann::json& changes) { changes[1]["time"] = -1.0; },
         QStringLiteral(
             "trajectories[0].scene_changes[1].time: -1 s comes before the change above it (0 s)")},
        {[](nlohmann::json& changes) {
           changes[1]["scene"]["attached"][0]["link"] = "no_such_link";
         },
         QStringLiteral("trajectories[0].scene_changes[1].scene.attached[0].link: robot 'panda' "
                        "has no link 'no_such_link'")},
        {[](nlohmann::json& changes) { changes[0].erase("scene"); },
         QStringLiteral("trajectories[0].scene_changes[0].scene: missing")},
        {[](nlohmann::json& changes) { changes = 3; },
         QStringLiteral("trajectories[0].scene_changes: expected an array")},
    };
    for (const auto& [edit, message] : bad) {
      result = kinetic::app::apply_session_json(document, edited(edit), QStringLiteral("bad"), {});
      QVERIFY2(result.error.contains(message), qPrintable(result.error));
      QCOMPARE(document_snapshot(document), before);
    }
  }

  void robot_file_reference_and_camera() {
    QTemporaryDir dir;
    const QString urdf = QDir(QString::fromStdString(kinetic::builtin_robot_directory()))
                             .filePath(QStringLiteral("ur5e/robot.urdf"));
    StudioDocument document;
    QVERIFY(document.load_robot(urdf).isEmpty());
    kinetic::app::SessionCamera camera;
    camera.target = {0.1, 0.2, 0.3};
    camera.distance = 2.5;
    const QString path = dir.filePath(QStringLiteral("file.kinetic-session"));
    QVERIFY(kinetic::app::save_session(document, path, camera).isEmpty());
    StudioDocument restored;
    const auto result = kinetic::app::load_session(restored, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(restored.robot_reference(), QFileInfo(urdf).absoluteFilePath());
    QVERIFY(result.camera.has_value());
    QCOMPARE(result.camera->distance, 2.5);
    QCOMPARE(result.camera->target.y(), 0.2);
  }

  void malformed_and_truncated_files_change_nothing() {
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    const QByteArray good = QByteArray::fromStdString(kinetic::app::session_to_json(source));

    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    document.edit_joints(document.robot()->mid_configuration());
    const std::string before = document_snapshot(document);

    struct Case {
      const char* name;
      QByteArray bytes;
      const char* expected;  // in the message
    };
    QByteArray bad_joint = good;
    bad_joint.replace("\"values\": [", "\"values\": [\"x\", ");
    QByteArray bad_version = good;
    bad_version.replace("\"version\": 1", "\"version\": 7");
    QByteArray bad_scene = good;
    bad_scene.replace("\"radius\": 0.07", "\"radius\": -0.07");
    QByteArray bad_link = good;
    bad_link.replace("\"link\": \"tool0\"", "\"link\": \"no_such_link\"");
    const std::vector<Case> cases{
        {"truncated.kinetic-session", good.left(good.size() / 2), "not valid JSON"},
        {"empty.kinetic-session", QByteArray(), "not valid JSON"},
        {"not-a-session.kinetic-session", R"({"format": "kinetic-scene", "version": 1})", "format"},
        {"version.kinetic-session", bad_version, "version 7"},
        {"joint.kinetic-session", bad_joint, "joints.values"},
        {"scene.kinetic-session", bad_scene, "scene"},
        {"link.kinetic-session", bad_link, "no_such_link"},
    };
    for (const Case& c : cases) {
      const QString path = dir.filePath(QString::fromLatin1(c.name));
      write(path, c.bytes);
      const auto result = kinetic::app::load_session(document, path);
      QVERIFY2(!result.ok(), c.name);
      QVERIFY2(result.error.contains(QString::fromLatin1(c.name)), qPrintable(result.error));
      QVERIFY2(result.error.contains(QString::fromLatin1(c.expected)), qPrintable(result.error));
      QCOMPARE(document_snapshot(document), before);
      QCOMPARE(document.undo_stack().count(), 1);  // history kept too
    }
  }

  // A headless job opened as a session says how to run it; a missing session file says so once
  // (the studio shows it under "Could not open the session", which it repeated).
  void a_job_or_a_missing_file_is_said_plainly() {
    QTemporaryDir dir;
    StudioDocument document;
    const QString job = dir.filePath(QStringLiteral("job.json"));
    write(
        job,
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "steps": [], "outputs": {}})");
    const auto as_session = kinetic::app::load_session(document, job);
    QCOMPARE(as_session.error,
             QStringLiteral("session file %1: format: this is a headless job file, not a session: "
                            "run it with kinetic-studio --headless %1")
                 .arg(job));
    QVERIFY2(as_session.warnings.isEmpty(), qPrintable(as_session.warnings.join('\n')));

    const QString missing = dir.filePath(QStringLiteral("gone.kinetic-session"));
    const auto gone = kinetic::app::load_session(document, missing);
    QCOMPARE(gone.error, QStringLiteral("session file %1 does not exist").arg(missing));
  }

  void out_of_range_numbers_and_garbage_are_plain_errors() {
    // 1e400 is valid JSON syntax that nlohmann refuses with out_of_range, not parse_error: it
    // escaped load_session and aborted the studio (an autosave holding one, at every start-up).
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    QByteArray overflow = QByteArray::fromStdString(kinetic::app::session_to_json(source));
    overflow.replace("\"values\": [", "\"values\": [1e400, ");
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const std::string before = document_snapshot(document);
    QByteArray garbage;
    for (int i = 0; i < 512; ++i) garbage.append(char((i * 7919) & 0xff));
    for (const auto& [name, bytes] : {std::pair{"overflow.kinetic-session", overflow},
                                      std::pair{"garbage.kinetic-session", garbage},
                                      std::pair{"empty.kinetic-session", QByteArray()}}) {
      const QString path = dir.filePath(QString::fromLatin1(name));
      write(path, bytes);
      kinetic::app::SessionLoadResult result;
      try {
        result = kinetic::app::load_session(document, path);
      } catch (const std::exception& error) {
        QFAIL(qPrintable(QStringLiteral("%1: exception escaped: %2").arg(name, error.what())));
      }
      QVERIFY2(!result.ok(), name);
      QVERIFY2(result.error.contains(QString::fromLatin1(name)), qPrintable(result.error));
      QVERIFY2(result.error.contains(QStringLiteral("not valid JSON")), qPrintable(result.error));
      QVERIFY2(!result.error.contains(QStringLiteral("json.exception")), qPrintable(result.error));
      QCOMPARE(document_snapshot(document), before);
    }
    write(dir.filePath(QStringLiteral("o.kinetic-session")), overflow);
    QVERIFY(kinetic::app::load_session(document, dir.filePath(QStringLiteral("o.kinetic-session")))
                .error.contains(QStringLiteral("number overflow parsing '1e400'")));
  }

  void unknown_and_repeated_keys_open_with_warnings() {
    // A hand edit's typo used to be dropped silently ("trajectoriez": the trajectories vanished).
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    std::string text = kinetic::app::session_to_json(source);
    text.replace(text.find("\"trajectories\""), std::string("\"trajectories\"").size(),
                 "\"trajectoriez\"");
    text.replace(text.find("\"reference\""), std::string("\"reference\"").size(),
                 "\"srdf\": \"\", \"reference\"");
    const QString path = dir.filePath(QStringLiteral("typo.kinetic-session"));
    write(path, QByteArray::fromStdString(text));
    StudioDocument document;
    const auto result = kinetic::app::load_session(document, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    const QString warnings = result.warnings.join('\n');
    QVERIFY2(warnings.contains(QStringLiteral("(top level): unknown key \"trajectoriez\" was "
                                              "ignored (did you mean 'trajectories'?)")),
             qPrintable(warnings));
    QVERIFY2(warnings.contains(QStringLiteral("robot: key \"srdf\" is given twice")),
             qPrintable(warnings));
  }

  void deep_nesting_is_refused_and_a_control_character_key_is_printed_escaped() {
    // A scene or trajectory 100,000 arrays deep overflowed the stack when the session was read
    // (nlohmann writes a value out for scene_from_json recursively). Found by fuzzing.
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const std::string before = document_snapshot(document);
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    for (const char* field : {"scene", "trajectories"}) {
      const QString path = dir.filePath(QStringLiteral("deep.kinetic-session"));
      const std::string head =
          "{\"format\": \"kinetic-session\", \"version\": 1, \"robot\": {\"reference\": "
          "\"ur5e\"}, ";
      write(path, QByteArray::fromStdString(head + "\"" + field + "\": " + deep + "}"));
      const auto result = kinetic::app::load_session(document, path);
      QVERIFY2(!result.ok(), field);
      QVERIFY2(result.error.contains(QStringLiteral("nest more than 256 levels deep")),
               qPrintable(result.error));
      QCOMPARE(document_snapshot(document), before);
    }

    // A key holding a NUL is named with the NUL escaped, not cut off there.
    StudioDocument source;
    fill(source);
    std::string text = kinetic::app::session_to_json(source);
    text.insert(1, "\"\\u0000odd\": 1, ");
    const QString path = dir.filePath(QStringLiteral("nul.kinetic-session"));
    write(path, QByteArray::fromStdString(text));
    const auto result = kinetic::app::load_session(document, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.join('\n').contains(
                 QStringLiteral("unknown key \"\\u0000odd\" was ignored")),
             qPrintable(result.warnings.join('\n')));
  }

  void an_unusable_camera_is_dropped_with_a_warning_and_versions_print_exactly() {
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    kinetic::app::SessionCamera camera;
    camera.distance = -1.0;
    const QString path = dir.filePath(QStringLiteral("camera.kinetic-session"));
    write(path, QByteArray::fromStdString(kinetic::app::session_to_json(source, camera)));
    StudioDocument document;
    const auto result = kinetic::app::load_session(document, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY(!result.camera);
    QVERIFY2(result.warnings.join('\n').contains(
                 QStringLiteral("camera: the saved view (distance -1 m) cannot be shown")),
             qPrintable(result.warnings.join('\n')));

    // 1.0000001 was printed as "version 1 is not supported (this build reads version 1)".
    std::string text = kinetic::app::session_to_json(source);
    text.replace(text.rfind("\"version\": 1"), std::string("\"version\": 1").size(),
                 "\"version\": 1.0000001");  // the top level's (keys are sorted)
    write(path, QByteArray::fromStdString(text));
    const auto odd = kinetic::app::load_session(document, path);
    QVERIFY2(odd.error.contains(QStringLiteral("version 1.0000001 is not supported")),
             qPrintable(odd.error));
  }

  void planner_settings_come_back_and_unusable_ones_are_dropped_with_a_warning() {
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    kinetic::panels::PlannerSettings settings;
    settings.options = kinetic::offline_preset();
    settings.options.planner = kinetic::PlannerType::RrtStar;
    settings.options.seed = 1234567890123ULL;
    settings.random_seed = false;
    settings.cartesian_options.max_translation_step = 0.004;
    settings.keep_orientation = true;
    settings.orientation_tolerance = 0.1;
    settings.timing = QStringLiteral("trapezoidal");
    settings.velocity_scaling = 0.4;
    source.set_planner_settings(settings);
    const QString path = dir.filePath(QStringLiteral("settings.kinetic-session"));
    QVERIFY(kinetic::app::save_session(source, path).isEmpty());

    StudioDocument restored;
    QSignalSpy loaded(&restored, &StudioDocument::plannerSettingsLoaded);
    const auto result = kinetic::app::load_session(restored, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QCOMPARE(loaded.count(), 1);
    QVERIFY(restored.planner_settings().has_value());
    const kinetic::panels::PlannerSettings& back = *restored.planner_settings();
    QCOMPARE(back.options.planner, kinetic::PlannerType::RrtStar);
    QCOMPARE(back.options.timeout_ms, kinetic::offline_preset().timeout_ms);
    QCOMPARE(back.options.seed, 1234567890123ULL);
    QVERIFY(!back.random_seed);
    QCOMPARE(back.cartesian_options.max_translation_step, 0.004);
    QVERIFY(back.keep_orientation);
    QCOMPARE(back.orientation_tolerance, 0.1);
    QCOMPARE(back.timing, QStringLiteral("trapezoidal"));
    QCOMPARE(back.velocity_scaling, 0.4);
    QCOMPARE(kinetic::app::session_to_json(restored), kinetic::app::session_to_json(source));

    // A value out of range drops the settings, not the session, and says which.
    nlohmann::json doc = nlohmann::json::parse(kinetic::app::session_to_json(source));
    doc["settings"]["timing"]["velocity_scaling"] = 1.5;
    write(path, QByteArray::fromStdString(doc.dump(1)));
    StudioDocument other;
    const auto bad = kinetic::app::load_session(other, path);
    QVERIFY2(bad.ok(), qPrintable(bad.error));
    QVERIFY2(bad.warnings.join('\n').contains(
                 QStringLiteral("settings.timing.velocity_scaling: must be in (0, 1]")),
             qPrintable(bad.warnings.join('\n')));
    QVERIFY(!other.planner_settings().has_value());
    // An unknown planner is named with the known ones; an unknown key is a warning of its own.
    doc["settings"]["timing"]["velocity_scaling"] = 0.5;
    doc["settings"]["planner"] = "rrt_conect";
    doc["settings"]["options"]["timeout"] = 5;
    write(path, QByteArray::fromStdString(doc.dump(1)));
    const auto unknown = kinetic::app::load_session(other, path);
    const QString said = unknown.warnings.join('\n');
    QVERIFY2(said.contains(QStringLiteral("settings.planner:")) &&
                 said.contains(QStringLiteral("rrt_connect")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("settings.options: unknown key \"timeout\"")),
             qPrintable(said));
    // A session without settings (older files) leaves the document's as they were.
    doc.erase("settings");
    write(path, QByteArray::fromStdString(doc.dump(1)));
    StudioDocument kept;
    kept.set_planner_settings(settings);
    QVERIFY(kinetic::app::load_session(kept, path).ok());
    QCOMPARE(kept.planner_settings()->velocity_scaling, 0.4);
  }

  void retime_settings_come_back_and_unusable_ones_are_dropped_with_a_warning() {
    QTemporaryDir dir;
    StudioDocument source;
    fill(source);
    kinetic::panels::PlannerSettings planner;
    planner.velocity_scaling = 0.4;
    planner.replace_last_plan = true;
    source.set_planner_settings(planner);
    kinetic::panels::RetimeSettings settings;
    settings.timing = QStringLiteral("cubic_spline");
    settings.velocity_scaling = 0.3;
    settings.acceleration_scaling = 0.2;
    settings.replace_selected = true;
    source.set_retime_settings(settings);
    const QString path = dir.filePath(QStringLiteral("retime.kinetic-session"));
    QVERIFY(kinetic::app::save_session(source, path).isEmpty());

    StudioDocument restored;
    QSignalSpy loaded(&restored, &StudioDocument::retimeSettingsLoaded);
    const auto result = kinetic::app::load_session(restored, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QCOMPARE(loaded.count(), 1);
    QVERIFY(restored.retime_settings().has_value());
    const kinetic::panels::RetimeSettings& back = *restored.retime_settings();
    QCOMPARE(back.timing, QStringLiteral("cubic_spline"));
    QCOMPARE(back.velocity_scaling, 0.3);
    QCOMPARE(back.acceleration_scaling, 0.2);
    QVERIFY(back.replace_selected);
    QCOMPARE(restored.planner_settings()->velocity_scaling,
             0.4);  // beside the planner's, not instead
    QVERIFY(restored.planner_settings()->replace_last_plan);
    QCOMPARE(kinetic::app::session_to_json(restored), kinetic::app::session_to_json(source));

    // A value out of range drops the re-time settings, not the planner's nor the session, and says
    // which.
    const nlohmann::json saved = nlohmann::json::parse(kinetic::app::session_to_json(source));
    nlohmann::json doc = saved;
    doc["settings"]["retiming"]["acceleration_scaling"] = 0;
    write(path, QByteArray::fromStdString(doc.dump(1)));
    StudioDocument other;
    const auto bad = kinetic::app::load_session(other, path);
    QVERIFY2(bad.ok(), qPrintable(bad.error));
    QCOMPARE(bad.warnings.size(), 1);
    QVERIFY2(
        bad.warnings[0].contains(
            QStringLiteral("settings.retiming.acceleration_scaling: must be in (0, 1]")) &&
            bad.warnings[0].contains(QStringLiteral("re-time settings were left as they were")),
        qPrintable(bad.warnings[0]));
    QVERIFY(!other.retime_settings().has_value());
    QCOMPARE(other.planner_settings()->velocity_scaling, 0.4);
    // A value of the wrong type, an unknown parameterization (named with the known ones), and an
    // unknown key (a warning of its own, pointing at the keys it may have meant).
    doc = saved;
    doc["settings"]["retiming"]["replace_selected"] = "yes";
    write(path, QByteArray::fromStdString(doc.dump(1)));
    QString said = kinetic::app::load_session(other, path).warnings.join('\n');
    QVERIFY2(
        said.contains(QStringLiteral("settings.retiming.replace_selected: expected true or false")),
        qPrintable(said));
    doc = saved;
    doc["settings"]["retiming"]["parameterization"] = "quintic";
    doc["settings"]["retiming"]["velocity"] = 0.5;
    write(path, QByteArray::fromStdString(doc.dump(1)));
    said = kinetic::app::load_session(other, path).warnings.join('\n');
    QVERIFY2(said.contains(QStringLiteral("settings.retiming.parameterization: expected one of")) &&
                 said.contains(QStringLiteral("scurve")),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("settings.retiming: unknown key \"velocity\"")) &&
                 said.contains(QStringLiteral("velocity_scaling")),
             qPrintable(said));
    QVERIFY(!other.retime_settings().has_value());

    // Sessions written before re-time settings were kept (settings without "retiming", or no
    // settings at all) open without a word and leave the document's as they were.
    for (const bool with_planner_settings : {true, false}) {
      doc = saved;
      if (with_planner_settings)
        doc["settings"].erase("retiming");
      else
        doc.erase("settings");
      write(path, QByteArray::fromStdString(doc.dump(1)));
      StudioDocument kept;
      kept.set_retime_settings(settings);
      QSignalSpy kept_loaded(&kept, &StudioDocument::retimeSettingsLoaded);
      const auto older = kinetic::app::load_session(kept, path);
      QVERIFY2(older.ok(), qPrintable(older.error));
      QVERIFY2(older.warnings.isEmpty(), qPrintable(older.warnings.join('\n')));
      QCOMPARE(kept_loaded.count(), 0);
      QCOMPARE(kept.retime_settings()->timing, QStringLiteral("cubic_spline"));
    }
    // Fields left out are the panel's defaults.
    doc = saved;
    doc["settings"]["retiming"] = {{"velocity_scaling", 0.6}};
    write(path, QByteArray::fromStdString(doc.dump(1)));
    QVERIFY(kinetic::app::load_session(other, path).ok());
    QCOMPARE(other.retime_settings()->velocity_scaling, 0.6);
    QCOMPARE(other.retime_settings()->timing, kinetic::panels::RetimeSettings().timing);
    QVERIFY(!other.retime_settings()->replace_selected);
  }

  void missing_robot_file_is_a_clear_error() {
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("gone.kinetic-session"));
    write(session, R"({"format": "kinetic-session", "version": 1,
                       "robot": {"reference": "/nonexistent/folder/arm.urdf"}})");
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const auto result = kinetic::app::load_session(document, session);
    QVERIFY(!result.ok());
    QVERIFY2(result.error.contains(QStringLiteral("robot.reference")), qPrintable(result.error));
    QVERIFY2(result.error.contains(QStringLiteral("/nonexistent/folder/arm.urdf")),
             qPrintable(result.error));
    QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
    // Unknown built-in names too, and a missing session file.
    write(session,
          R"({"format": "kinetic-session", "version": 1, "robot": {"reference": "ur5f"}})");
    QVERIFY(kinetic::app::load_session(document, session).error.contains(QStringLiteral("ur5f")));
    QVERIFY(kinetic::app::load_session(document, dir.filePath(QStringLiteral("none")))
                .error.contains(QStringLiteral("none")));
    QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
  }

  void a_missing_scene_mesh_opens_with_a_warning() {
    // The session opens (the object keeps its path; putting the file back heals it), but the user
    // is told: the mesh used to be missed silently until a plan failed.
    QTemporaryDir dir;
    StudioDocument source;
    QVERIFY(source.load_robot(QStringLiteral("ur5e")).isEmpty());
    const QString gone = dir.filePath(QStringLiteral("fixture.stl"));
    kinetic::PlanningScene scene;
    scene.add_obstacle("fixture", Shape::mesh(gone.toStdString()), Pose::Identity());
    source.set_scene(scene);
    const QString path = dir.filePath(QStringLiteral("mesh.kinetic-session"));
    QVERIFY(kinetic::app::save_session(source, path).isEmpty());
    StudioDocument document;
    const auto result = kinetic::app::load_session(document, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY(document.scene().has_obstacle("fixture"));
    const QString warnings = result.warnings.join('\n');
    QVERIFY2(warnings.contains(QStringLiteral("'fixture'")) &&
                 warnings.contains(QStringLiteral("fixture.stl")) &&
                 warnings.contains(QStringLiteral("planning fails")),
             qPrintable(warnings));
  }

  void control_characters_in_values_are_printed_escaped() {
    // An engine message quoting a NUL in the robot name ended there ("... named 'ur5"); a joint
    // name's NUL went raw into a warning. Found by fuzzing.
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("nul.kinetic-session"));
    write(bad,
          "{\"format\": \"kinetic-session\", \"version\": 1, \"robot\": {\"reference\": "
          "\"ur5\\u0000e\"}}");
    StudioDocument document;
    const auto refused = kinetic::app::load_session(document, bad);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.contains(QStringLiteral("'ur5\\u0000e'")), qPrintable(refused.error));
    const QString odd = dir.filePath(QStringLiteral("joint.kinetic-session"));
    write(odd,
          "{\"format\": \"kinetic-session\", \"version\": 1, \"robot\": {\"reference\": \"ur5e\"}, "
          "\"joints\": {\"names\": [\"j\\u0000\\u001b[2J\"], \"values\": [1]}}");
    const auto opened = kinetic::app::load_session(document, odd);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    const QString warnings = opened.warnings.join('\n');
    QVERIFY2(warnings.contains(QStringLiteral("joint 'j\\u0000\\u001b[2J' is not a joint")),
             qPrintable(warnings));
  }

  void a_builtin_name_is_the_builtin_whatever_the_current_directory_holds() {
    // A file named "ur5e" in the current directory made the built-in's session fail ("the robot
    // file <session folder>/ur5e does not exist"), and a save there wrote that file's path.
    QTemporaryDir cwd, sessions;
    QFile decoy(cwd.filePath(QStringLiteral("ur5e")));
    QVERIFY(decoy.open(QIODevice::WriteOnly) && decoy.write("not a robot") > 0);
    decoy.close();
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(cwd.path()));
    StudioDocument document;
    const QString loaded = document.load_robot(QStringLiteral("ur5e"));
    const QString session = sessions.filePath(QStringLiteral("builtin.kinetic-session"));
    const QString saved = kinetic::app::save_session(document, session);
    StudioDocument reopened;
    const auto result = kinetic::app::load_session(reopened, session);
    QDir::setCurrent(before);
    QVERIFY2(loaded.isEmpty(), qPrintable(loaded));
    QVERIFY(!document.robot_is_file());
    QVERIFY2(saved.isEmpty(), qPrintable(saved));
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(reopened.robot_reference(), QStringLiteral("ur5e"));
    QVERIFY(!reopened.robot_is_file());

    // A bare word naming no built-in robot is a file beside the session, not in the current
    // directory.
    const QString urdf = QDir(QString::fromStdString(kinetic::builtin_robot_directory()))
                             .filePath(QStringLiteral("ur5e/robot.urdf"));
    QVERIFY(QFile::copy(urdf, sessions.filePath(QStringLiteral("my_arm"))));
    const QString beside = sessions.filePath(QStringLiteral("beside.kinetic-session"));
    write(beside,
          "{\"format\": \"kinetic-session\", \"version\": 1, \"robot\": {\"reference\": "
          "\"my_arm\"}}");
    StudioDocument third;
    const auto opened = kinetic::app::load_session(third, beside);
    QVERIFY2(opened.ok(), qPrintable(opened.error));
    QVERIFY(third.robot_is_file());
    QCOMPARE(third.robot_reference(), sessions.filePath(QStringLiteral("my_arm")));
  }

  void stored_states_are_written_by_joint_name() {
    StudioDocument source;
    fill(source);
    const nlohmann::json doc = nlohmann::json::parse(kinetic::app::session_to_json(source));
    QVERIFY(doc.contains("stored_states"));
    QCOMPARE(doc["stored_states"].size(), std::size_t{2});
    QCOMPARE(doc["stored_states"][0]["name"].get<std::string>(), std::string("above bin"));
    QCOMPARE(doc["stored_states"][0]["joints"]["joint1"].get<double>(), 0.1 + 0.2);
    QCOMPARE(doc["stored_states"][1]["joints"].size(), std::size_t(source.robot()->dof()));
    // No states: no field, so the file is what a build before stored states wrote.
    source.set_stored_states({});
    QVERIFY(
        !nlohmann::json::parse(kinetic::app::session_to_json(source)).contains("stored_states"));
  }

  void a_session_without_stored_states_opens_without_them() {
    // Written before stored states existed: it opens with none (the states of the session open
    // before do not stay behind), and says nothing about them.
    StudioDocument source;
    fill(source);
    nlohmann::json old_style = nlohmann::json::parse(kinetic::app::session_to_json(source));
    old_style.erase("stored_states");
    StudioDocument document;
    fill(document);
    QVERIFY(!document.stored_states().empty());
    const auto result =
        kinetic::app::apply_session_json(document, old_style.dump(), QStringLiteral("old"), {});
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join('\n')));
    QVERIFY(document.stored_states().empty());
    QCOMPARE(document.trajectories().size(), std::size_t{1});
  }

  void a_stored_state_that_does_not_fit_is_dropped_with_a_warning() {
    StudioDocument source;
    fill(source);
    nlohmann::json doc = nlohmann::json::parse(kinetic::app::session_to_json(source));
    nlohmann::json& states = doc["stored_states"];
    const nlohmann::json good = states[0];
    nlohmann::json other_robot = good;
    other_robot["name"] = "ur5e pose";
    other_robot["joints"]["shoulder_pan_joint"] = 0.5;
    nlohmann::json not_a_number = good;
    not_a_number["name"] = "broken";
    not_a_number["joints"]["joint4"] = nullptr;  // how JSON writes a NaN
    nlohmann::json incomplete = good;
    incomplete["name"] = "six of seven";
    incomplete["joints"].erase("joint7");
    const nlohmann::json twice = states[1];
    nlohmann::json nameless = good;
    nameless.erase("name");
    // "home for cell 2" twice: the second is dropped.
    states = nlohmann::json::array(
        {good, other_robot, not_a_number, incomplete, twice, nameless, twice, 7});
    StudioDocument document;
    const auto result =
        kinetic::app::apply_session_json(document, doc.dump(), QStringLiteral("bad states"), {});
    QVERIFY2(result.ok(), qPrintable(result.error));
    // The states that fit are kept, in their order; the session's other parts open as usual.
    QCOMPARE(document.stored_states().size(), std::size_t{2});
    QVERIFY(document.stored_states()[0] == source.stored_states()[0]);
    QVERIFY(document.stored_states()[1] == source.stored_states()[1]);
    QCOMPARE(document.trajectories().size(), std::size_t{1});
    // Each dropped one is named, with why.
    const QString warnings = result.warnings.join('\n');
    for (const QString& expected :
         {QStringLiteral("stored_states[1] \"ur5e pose\": joint 'shoulder_pan_joint' is not a "
                         "joint of robot 'panda'; "
                         "the state was dropped."),
          QStringLiteral("stored_states[2] \"broken\": joints.joint4: not a finite number (null, "
                         "as JSON writes "
                         "NaN); the state was dropped."),
          QStringLiteral("stored_states[3] \"six of seven\": no value for 'joint7' of robot "
                         "'panda'; the state "
                         "was dropped."),
          QStringLiteral("stored_states[6] \"home for cell 2\": a state above has this name; the "
                         "state was dropped."),
          QStringLiteral("stored_states[5]: name: expected a name (a string that is not empty); "
                         "the state was dropped."),
          QStringLiteral("stored_states[7]: expected an object with \"name\" and \"joints\"; the "
                         "state was dropped.")})
      QVERIFY2(warnings.contains(expected), qPrintable(warnings));
    QCOMPARE(result.warnings.size(), 6);
    // Not an array at all: no states, the session still opens.
    doc["stored_states"] = "above bin";
    const auto not_a_list =
        kinetic::app::apply_session_json(document, doc.dump(), QStringLiteral("bad states"), {});
    QVERIFY2(not_a_list.ok(), qPrintable(not_a_list.error));
    QVERIFY(document.stored_states().empty());
    QCOMPARE(not_a_list.warnings,
             QStringList{QStringLiteral(
                 "stored_states: expected an array of states; no stored state was read.")});
  }

  void joints_match_by_name_and_unknown_ones_warn() {
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("names.kinetic-session"));
    write(session, R"({"format": "kinetic-session", "version": 1, "robot": {"reference": "ur5e"},
                       "joints": {"names": ["joint3", "gripper_joint", "joint1"],
                                  "values": [0.5, 0.01, -0.25]}})");
    StudioDocument document;
    const auto result = kinetic::app::load_session(document, session);
    QVERIFY2(result.ok(), qPrintable(result.error));
    const int elbow = document.robot()->variable_index("joint3");
    const int pan = document.robot()->variable_index("joint1");
    QCOMPARE(document.joints()[elbow], 0.5);
    QCOMPARE(document.joints()[pan], -0.25);
    QVERIFY(result.warnings.join('\n').contains(QStringLiteral("gripper_joint")));
  }

  void a_joint_named_twice_warns() {
    // The first value was dropped without a word. Found by fuzzing.
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("twice.kinetic-session"));
    write(session, R"({"format": "kinetic-session", "version": 1, "robot": {"reference": "ur5e"},
                       "joints": {"names": ["joint1", "joint1"], "values": [0.5, -0.25]}})");
    StudioDocument document;
    const auto result = kinetic::app::load_session(document, session);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(document.joints()[document.robot()->variable_index("joint1")], -0.25);
    const QString warnings = result.warnings.join('\n');
    QVERIFY2(
        warnings.contains(QStringLiteral(
            "joints: joint 'joint1' is given more than once; its last value (-0.25) was used.")),
        qPrintable(warnings));
  }
};

QTEST_MAIN(SessionFileTest)
#include "session_file_test.moc"
