// Qt Test: install_data_features on a plain QMainWindow with a real document (offscreen): docks,
// menu entries, robot library loading, autosave path, recovery offer, and reload on file change.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

#include "app/document/studio_document.hpp"
#include "app/robot/joints_panel_binding.hpp"
#include "app/robot/model_file_watcher.hpp"
#include "app/robot/package_paths_dialog.hpp"
#include "app/session/data_features.hpp"
#include "app/session/session_file.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/rest_pose.hpp"
#include "panels/joints_panel.hpp"
#include "panels/robot_library_panel.hpp"
#include "panels/scene_panel.hpp"
#include "support/test_paths.hpp"

using kinetic::app::DataFeatureOptions;
using kinetic::app::RecoveryChoice;
using kinetic::app::StudioDocument;

namespace {

QStringList action_texts(QMenu* menu) {
  QStringList out;
  for (QAction* action : menu->actions()) out << action->text();
  return out;
}

QMenu* menu_named(QMainWindow& window, const QString& title) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && action->text().remove('&') == title) return action->menu();
  return nullptr;
}

void write_file(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  QCOMPARE(file.write(bytes), qint64(bytes.size()));
}

void replace_file(const QString& path, const QByteArray& bytes) {
  // Like many editors: write a new file and rename it over the old one.
  const QString temporary = path + QStringLiteral(".new");
  write_file(temporary, bytes);
  QVERIFY(QFile::remove(path));
  QVERIFY(QFile::rename(temporary, path));
}

// Options that keep a test's autosave and settings in `dir` and collect what is reported.
DataFeatureOptions isolated_options(const QTemporaryDir& dir, QStringList& reported) {
  DataFeatureOptions options;
  options.autosave_path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
  options.settings_file = dir.filePath(QStringLiteral("settings.ini"));
  options.report_error = [&reported](const QString& title, const QString& message) {
    reported << title + ": " + message;
  };
  return options;
}

// The UR5e in a document and the data features on a plain window: autosave and settings in
// `dir`, no recovery offer, what they report collected in `errors`.
struct InstalledFeatures {
  explicit InstalledFeatures(const QTemporaryDir& dir) {
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    DataFeatureOptions options = isolated_options(dir, errors);
    options.offer_recovery = false;
    features = kinetic::app::install_data_features(window, document, options);
  }
  StudioDocument document;
  QMainWindow window;
  QStringList errors;
  kinetic::app::DataFeatures features;
};

// The library marks `name` (only it) and has it as the current row.
void panels_library_check(kinetic::panels::RobotLibraryPanel* library, const QString& name) {
  QVERIFY(library);
  QCOMPARE(library->loaded_name(), name);
  QCOMPARE(library->current_name(), name);
}

}  // namespace

class DataFeaturesTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void installs_docks_and_menus_into_an_existing_file_menu() {
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QMainWindow window;
    QMenu* file = window.menuBar()->addMenu(QStringLiteral("&File"));
    QAction* quit = file->addAction(QStringLiteral("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    auto* joints = new kinetic::panels::JointsPanel(&window);
    joints->set_robot(document.robot());
    DataFeatureOptions options;
    options.autosave_path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    options.settings_file = dir.filePath(QStringLiteral("settings.ini"));
    QStringList errors;
    options.report_error = [&](const QString& title, const QString& message) {
      errors << title + ": " + message;
    };
    const auto features = kinetic::app::install_data_features(window, document, options);

    QVERIFY(features.scene_panel && features.robot_library && features.autosave &&
            features.file_watcher);
    QCOMPARE(window.findChildren<QDockWidget*>().size(), 2);
    QCOMPARE(menu_named(window, QStringLiteral("File")), file);  // reused, not duplicated
    const QStringList entries = action_texts(file);
    for (const char* wanted :
         {"New session", "Open session…", "Save session", "Save session as…", "Load scene…",
          "Save scene…", "Reload robot", "Recent files", "Open URDF with SRDF / kinetic.toml…"})
      QVERIFY2(entries.contains(QString::fromUtf8(wanted)), wanted);
    QCOMPARE(file->actions().last(), quit);  // Quit stays last
    QVERIFY(menu_named(window, QStringLiteral("Settings")) != nullptr);
    QCOMPARE(features.autosave->path(), options.autosave_path);

    // The robot library loads through the document (in the background); a scene edit lands on
    // the undo stack.
    emit features.robot_library->loadRequested(QStringLiteral("panda"));
    QTRY_COMPARE_WITH_TIMEOUT(document.robot_reference(), QStringLiteral("panda"), 10000);
    QVERIFY(errors.isEmpty());
    QVERIFY(features.scene_panel->add_primitive(kinetic::Shape::Type::Box).isEmpty());
    QVERIFY(document.scene().has_obstacle("box1"));
    QCOMPARE(document.undo_stack().count(), 1);

    // The joints panel got a real collision check: a random pose is collision-free.
    joints->set_robot(document.robot());
    joints->set_random_seed(3);
    QVERIFY(joints->apply_random_free());
    QVERIFY2(joints->last_message().isEmpty(), qPrintable(joints->last_message()));
  }

  // A scene the checker cannot take (a mesh whose file is gone, as a session may open with) is
  // left out of the random pose's check, and the joints panel says so, naming the object.
  void the_random_pose_says_when_the_scene_could_not_be_checked() {
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QMainWindow window;
    auto* joints = new kinetic::panels::JointsPanel(&window);
    joints->set_robot(document.robot());
    joints->set_random_seed(5);
    kinetic::app::bind_joints_panel_extras(*joints, document);
    const QString gone = dir.filePath(QStringLiteral("fixture.stl"));
    kinetic::PlanningScene scene;
    scene.add_obstacle("fixture", kinetic::Shape::mesh(gone.toStdString()),
                       kinetic::Pose::Identity());
    document.set_scene(scene);
    QVERIFY(joints->apply_random_free());
    const QString said = joints->last_message();
    QVERIFY2(said.startsWith(QStringLiteral("The scene was not checked: object 'fixture': ")) &&
                 said.contains(gone) &&
                 said.contains(QStringLiteral("free of self-collision only")),
             qPrintable(said));
    // With the object gone, the scene is checked again and nothing is said.
    document.set_scene(kinetic::PlanningScene());
    QVERIFY(joints->apply_random_free());
    QVERIFY2(joints->last_message().isEmpty(), qPrintable(joints->last_message()));
  }

  void creates_a_file_menu_and_offers_recovery() {
    QTemporaryDir dir;
    const QString autosave = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    {
      StudioDocument earlier;
      QVERIFY(earlier.load_robot(QStringLiteral("iiwa7")).isEmpty());
      QVERIFY(kinetic::app::save_session(earlier, autosave).isEmpty());
    }
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QMainWindow window;
    DataFeatureOptions options;
    options.autosave_path = autosave;
    options.settings_file = dir.filePath(QStringLiteral("settings.ini"));
    int asked = 0;
    options.recovery_question = [&](const QString&) {
      ++asked;
      return RecoveryChoice::Restore;
    };
    kinetic::app::install_data_features(window, document, options);
    QVERIFY(menu_named(window, QStringLiteral("File")) != nullptr);
    QTRY_COMPARE(asked, 1);  // on the next event-loop turn
    QCOMPARE(document.robot_reference(), QStringLiteral("iiwa7"));
  }

  void a_robot_with_a_missing_collision_mesh_loads_with_a_warning() {
    // The link is left without collision geometry; loading used to say only "Loaded".
    QTemporaryDir dir;
    QFile source(QDir(QString::fromStdString(kinetic::builtin_robot_directory()))
                     .filePath(QStringLiteral("ur5e/robot.urdf")));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray text = source.readAll();
    const qsizetype geometry = text.indexOf("<geometry>", text.indexOf("<collision>"));
    const qsizetype end =
        text.indexOf("</geometry>", geometry) + qsizetype(std::strlen("</geometry>"));
    QVERIFY(geometry > 0 && end > geometry);
    text.replace(geometry, end - geometry,
                 "<geometry><mesh filename=\"package://gone_pkg/meshes/base.stl\"/></geometry>");
    const QString urdf = dir.filePath(QStringLiteral("arm.urdf"));
    write_file(urdf, text);
    InstalledFeatures studio(dir);
    const StudioDocument& document = studio.document;
    const QStringList& errors = studio.errors;
    emit studio.features.robot_library->loadRequested(urdf);
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, 10000);
    QCOMPARE(document.robot_reference(), urdf);
    QVERIFY2(errors[0].contains(QStringLiteral("with warnings")) &&
                 errors[0].contains(QStringLiteral("gone_pkg")) &&
                 errors[0].contains(QStringLiteral("Package search paths")),
             qPrintable(errors[0]));

    // An automatic reload after the file changed says it again (the mesh is still missing).
    text.replace("name=\"ur5e\"", "name=\"edited\"");
    replace_file(urdf, text);
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 2, 5000);
    QVERIFY2(errors[1].contains(QStringLiteral("Reloaded after")) &&
                 errors[1].contains(QStringLiteral("with warnings")) &&
                 errors[1].contains(QStringLiteral("gone_pkg")),
             qPrintable(errors[1]));
  }

  // A robot opens in its rest pose, also after another robot: the shared Panda in its SRDF's
  // "default" pose (it opened upright at zero, joint 4 clamped to -4°, as no UR5e joint carried
  // over). A reload keeps the pose the user set.
  void a_robot_opens_in_its_rest_pose() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    const QString panda = QString::fromStdString(kinetic::test::example_robot_data_dir() +
                                                 "/robots/panda_description");
    const QStringList package_paths{QString::fromStdString(kinetic::test::shared_robots_dir())};
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QCOMPARE(document.joints(), document.robot()->named_pose("home"));
    QVERIFY(
        document
            .load_robot(panda + "/urdf/panda.urdf", panda + "/srdf/panda.srdf", {}, package_paths)
            .isEmpty());
    const kinetic::JointVector rest = document.robot()->named_pose("default");
    QCOMPARE(document.joints(), rest);
    kinetic::JointVector moved = rest;
    moved[0] = 0.5;
    document.set_joints(moved);
    QVERIFY(document.reload_robot().isEmpty());
    QCOMPARE(document.joints(), moved);
  }

  // Another robot opens in its own rest pose whatever was loaded before: the built-in Panda after
  // the UR5e at its home, although both name their joints joint1..joint6 (it sat at the UR5e's
  // -90°/-90° while the pose box said "home"), and with no goal left from the UR5e.
  void another_robot_opens_in_its_own_rest_pose_whatever_shares_its_joint_names() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    kinetic::JointVector goal = document.joints();
    goal[0] = 0.4;
    document.set_goal({goal, std::nullopt});
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    QCOMPARE(document.joints(), kinetic::rest_pose(document.robot()).q);
    QCOMPARE(document.joints(), document.robot()->named_pose("home"));
    QVERIFY(document.goal().empty());
    // And back: the UR5e at its home, not at the Panda's values.
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QCOMPARE(document.joints(), document.robot()->named_pose("home"));
  }

  // The Robot library lists the robot packages on the package search paths beside the built-ins:
  // a MoveIt config row opens the package (its description, SRDF and YAML files), the status bar
  // says what came from where, and the row is marked loaded.
  void the_robot_library_lists_and_opens_moveit_configs() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the package rows of the Robot library are skipped");
    QTemporaryDir dir;
    {
      QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
      kinetic::app::store_package_paths(
          settings, {QString::fromStdString(kinetic::test::shared_robots_dir())});
    }
    InstalledFeatures studio(dir);
    kinetic::panels::RobotLibraryPanel* library = studio.features.robot_library;
    QTRY_VERIFY_WITH_TIMEOUT(library->package_count() > 10, 20000);
    library->set_filter(QStringLiteral("moveit lite"));
    QCOMPARE(library->visible_names(),
             QStringList{QStringLiteral("kinova_gen3_lite_moveit_config")});
    library->load_current();
    QTRY_COMPARE_WITH_TIMEOUT(
        QString::fromStdString(studio.document.robot() ? studio.document.robot()->name() : ""),
        QStringLiteral("gen3_lite"), 20000);
    const QString message = studio.window.statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("MoveIt config: kinova_gen3_lite_moveit_config")) &&
                 message.contains(QStringLiteral("joint limits: config/joint_limits.yaml")),
             qPrintable(message));
    QCOMPARE(library->loaded_name(), QStringLiteral("kinova_gen3_lite_moveit_config"));
    QVERIFY2(studio.errors.isEmpty() ||
                 studio.errors.join(QString()).contains(QStringLiteral("with warnings")),
             qPrintable(studio.errors.join(QStringLiteral("\n"))));
  }

  // The Robot library marks the robot loaded now, and follows a load from elsewhere (the File
  // menu's built-in robots, a session).
  void the_robot_library_marks_the_loaded_robot() {
    QTemporaryDir dir;
    InstalledFeatures installed(dir);
    panels_library_check(installed.features.robot_library, QStringLiteral("ur5e"));
    QVERIFY(installed.document.load_robot(QStringLiteral("panda")).isEmpty());
    panels_library_check(installed.features.robot_library, QStringLiteral("panda"));
  }

  // A reload of the same robot (F5, the file saved, the generated collision matrix) keeps the undo
  // history: the same joints and links, so each step still applies. Another robot clears it.
  void a_reload_keeps_the_undo_history_and_another_robot_clears_it() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const kinetic::JointVector home = document.joints();
    kinetic::JointVector moved = home;
    moved[0] += 0.5;
    document.edit_joints(moved);
    QCOMPARE(document.undo_stack().count(), 1);
    QVERIFY(document.reload_robot().isEmpty());
    QCOMPARE(document.undo_stack().count(), 1);
    QCOMPARE(document.joints(), moved);
    document.undo_stack().undo();
    QCOMPARE(document.joints(), home);
    document.undo_stack().redo();
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    QCOMPARE(document.undo_stack().count(), 0);
  }

  // Where package search paths are set is said only when a package:// file was not found: the
  // shared Kinova's SRDF quirks came with that advice, which could not help.
  void the_package_path_advice_comes_only_with_a_missing_package_file() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("arm.urdf"));
    const QByteArray arm = R"(<robot name="arm"><link name="base"/>
      <link name="upper"><visual><geometry><box size="0.1 0.1 0.1"/></geometry><material name="undefined"/></visual></link>
      <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.5"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)";
    write_file(urdf, arm);
    InstalledFeatures studio(dir);
    const StudioDocument& document = studio.document;
    const QStringList& errors = studio.errors;
    emit studio.features.robot_library->loadRequested(urdf);
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 1, 10000);
    QVERIFY2(errors[0].contains(QStringLiteral("material 'undefined'")) &&
                 !errors[0].contains(QStringLiteral("Package search paths")),
             qPrintable(errors[0]));
    QVERIFY(document.robot()->unresolved_files().empty());

    // A plain relative path that is missing: no search path finds it either.
    QByteArray relative = arm;
    relative.replace("<box size=\"0.1 0.1 0.1\"/>", "<mesh filename=\"meshes/gone.stl\"/>");
    replace_file(urdf, relative);
    QTRY_COMPARE_WITH_TIMEOUT(errors.size(), 2, 5000);
    QVERIFY2(errors[1].contains(QStringLiteral("meshes/gone.stl")) &&
                 !errors[1].contains(QStringLiteral("Package search paths")),
             qPrintable(errors[1]));
    QCOMPARE(document.robot()->unresolved_files(), std::vector<std::string>{"meshes/gone.stl"});
  }

  void a_folder_as_the_robot_is_named_as_a_file() {
    // It was looked up as a built-in name ("no built-in robot named '/tmp/...'").
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    for (const QString& reference : {dir.path(), dir.filePath(QStringLiteral("gone/arm"))}) {
      const QString error = document.load_robot(reference);
      QVERIFY2(error.contains(reference) && !error.contains(QStringLiteral("built-in")),
               qPrintable(error));
      QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
    }
  }

  void a_corrupt_autosave_at_start_up_is_reported_not_fatal() {
    // A number beyond a double in the autosave aborted the studio at every start-up.
    QTemporaryDir dir;
    const QString autosave = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    write_file(
        autosave,
        R"({"format": "kinetic-session", "version": 1e400, "robot": {"reference": "iiwa7"}})");
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QMainWindow window;
    QStringList errors;
    DataFeatureOptions options = isolated_options(dir, errors);
    options.recovery_question = [](const QString&) { return RecoveryChoice::Restore; };
    kinetic::app::install_data_features(window, document, options);
    QTRY_COMPARE(errors.size(), 1);
    QVERIFY2(errors[0].contains(QStringLiteral("Could not restore")) &&
                 errors[0].contains(QStringLiteral("1e400")) &&
                 !errors[0].contains(QStringLiteral("json.exception")),
             qPrintable(errors[0]));
    QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
    QVERIFY(QFileInfo::exists(autosave + QStringLiteral(".failed")));
  }

  void reloads_when_the_urdf_changes_on_disk() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("arm.urdf"));
    const QString source = QDir(QString::fromStdString(kinetic::builtin_robot_directory()))
                               .filePath(QStringLiteral("ur5e/robot.urdf"));
    QVERIFY(QFile::copy(source, urdf));
    QFile::setPermissions(urdf, QFile::ReadOwner | QFile::WriteOwner);
    StudioDocument document;
    QVERIFY(document.load_robot(urdf).isEmpty());
    kinetic::JointVector q = document.robot()->mid_configuration();
    q[0] = 0.3;
    document.set_joints(q);

    kinetic::app::ModelFileWatcher watcher(document);
    watcher.set_debounce_ms(50);
    QCOMPARE(watcher.watched_files(), QStringList{QFileInfo(urdf).absoluteFilePath()});
    QSignalSpy reloaded(&watcher, &kinetic::app::ModelFileWatcher::reloaded);
    QSignalSpy failed(&watcher, &kinetic::app::ModelFileWatcher::reloadFailed);

    // Rename the robot in the file: the reloaded model carries the new name, joints are kept.
    QFile in(urdf);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    in.close();
    const QByteArray old_name =
        "name=\"" + QByteArray::fromStdString(document.robot()->name()) + "\"";
    QVERIFY(text.contains(old_name));
    text.replace(old_name, "name=\"edited_arm\"");
    replace_file(urdf, text);
    QVERIFY(reloaded.wait(5000));
    QCOMPARE(QString::fromStdString(document.robot()->name()), QStringLiteral("edited_arm"));
    QCOMPARE(document.joints()[0], 0.3);

    // A second edit after the replace is still seen (the path was watched again); a broken file
    // keeps the robot and reports the reason.
    replace_file(urdf, "<robot name=\"broken\"><link name=\"a\"></robot>");
    QVERIFY(failed.wait(5000));
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("arm.urdf")));
    QCOMPARE(QString::fromStdString(document.robot()->name()), QStringLiteral("edited_arm"));
    replace_file(urdf, text);
    QVERIFY(reloaded.wait(5000));
    QCOMPARE(reloaded.count(), 2);
  }

  // A xacro robot is also made of the files it includes: editing a macro there reloads it.
  void reloads_when_a_file_the_xacro_includes_changes() {
    QTemporaryDir dir;
    const QString xacro = dir.filePath(QStringLiteral("arm.urdf.xacro"));
    const QString parts = dir.filePath(QStringLiteral("parts.xacro"));
    const QByteArray macro =
        "<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
        "<xacro:macro name=\"arm\" params=\"limit\">\n"
        "<link name=\"base\"/><link name=\"bar\"/>\n"
        "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"bar\"/>"
        "<axis xyz=\"0 0 1\"/><limit lower=\"${-limit}\" upper=\"${limit}\" velocity=\"1\" "
        "effort=\"1\"/></joint>\n"
        "</xacro:macro></robot>\n";
    write_file(parts, macro);
    write_file(xacro,
               "<robot name=\"arm\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
               "<xacro:include filename=\"parts.xacro\"/><xacro:arm limit=\"1.5\"/></robot>\n");
    StudioDocument document;
    QVERIFY(document.load_robot(xacro).isEmpty());
    QCOMPARE(document.robot()->upper_limits()[0], 1.5);

    kinetic::app::ModelFileWatcher watcher(document);
    watcher.set_debounce_ms(50);
    QVERIFY(watcher.watched_files().contains(QFileInfo(parts).absoluteFilePath()));
    QSignalSpy reloaded(&watcher, &kinetic::app::ModelFileWatcher::reloaded);
    QByteArray edited = macro;
    edited.replace("upper=\"${limit}\"", "upper=\"${limit / 2}\"");
    replace_file(parts, edited);
    QVERIFY(reloaded.wait(5000));
    QCOMPARE(document.robot()->upper_limits()[0], 0.75);
  }
};

QTEST_MAIN(DataFeaturesTest)
#include "data_features_test.moc"
