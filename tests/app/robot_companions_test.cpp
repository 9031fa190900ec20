// Qt Test (offscreen): a URDF opened without an SRDF named gets the one its package keeps
// (find_robot_companions) wherever the studio opens it — the command line (--robot and the
// positional file), File → Open URDF with SRDF / kinetic.toml…, reload — says which it took, and
// loads none when asked (--srdf none, an emptied field). Sessions and recent files keep the SRDF
// used. A robot with new joints starts in its rest pose (rest_pose).
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMainWindow>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "app/command_line.hpp"
#include "app/document/studio_document.hpp"
#include "app/robot/robot_files_dialog.hpp"
#include "app/robot/robot_loader.hpp"
#include "app/session/data_features.hpp"
#include "app/session/recent_files.hpp"
#include "app/session/session_file.hpp"
#include "app/studio_window_factory.hpp"
#include "support/test_paths.hpp"
#include "user_actions.hpp"

using kinetic::app::CommandLine;
using kinetic::app::StudioDocument;

namespace {

QString panda_dir() {
  return QString::fromStdString(kinetic::test::example_robot_data_dir() +
                                "/robots/panda_description");
}
QString panda_urdf() {
  return panda_dir() + QStringLiteral("/urdf/panda.urdf");
}
QString panda_srdf() {
  return QDir::cleanPath(panda_dir() + QStringLiteral("/srdf/panda.srdf"));
}

bool has_pose(const StudioDocument& document, const std::string& name) {
  const auto names = document.robot()->named_pose_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::unique_ptr<kinetic::app::Studio> studio_from(const QStringList& arguments) {
  const std::optional<CommandLine> line =
      kinetic::app::parse_command_line(QStringList{QStringLiteral("kinetic-studio")} + arguments);
  if (!line) return nullptr;
  return kinetic::app::create_studio(*line);
}

void write_file(const QString& path, const QByteArray& text) {
  QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  QCOMPARE(file.write(text), qint64(text.size()));
}

// A base plate and a bar on two joints; at zero the bar hangs through the plate (as in
// tests/engine/planning_rest_pose_test.cpp).
const QByteArray kFoldingArm = R"(<robot name="folding">
  <link name="base"><collision><origin xyz="0 0 0.05"/><geometry><box size="0.3 0.3 0.1"/></geometry></collision></link>
  <link name="turret"><collision><origin xyz="0 0 0.2"/><geometry><sphere radius="0.02"/></geometry></collision></link>
  <link name="bar"><collision><origin xyz="0 0 -0.3"/><geometry><box size="0.05 0.05 0.6"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="turret"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
  <joint name="j2" type="revolute"><parent link="turret"/><child link="bar"/><origin xyz="0 0 0.4"/>
    <axis xyz="0 1 0"/><limit lower="-3.2" upper="3.2" velocity="1" effort="1"/></joint>
</robot>)";
const QByteArray kFoldingArmSrdf =
    R"(<robot name="folding"><group name="arm"><chain base_link="base" tip_link="bar"/></group>
  <group_state name="up" group="arm"><joint name="j1" value="0"/><joint name="j2" value="3.1"/></group_state></robot>)";

}  // namespace

class RobotCompanionsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  // `kinetic-studio --robot .../panda.urdf`: its ../srdf/panda.srdf is loaded (the rest pose
  // "default" comes from it) and the status bar says so; the positional URDF the same.
  void a_urdf_on_the_command_line_opens_with_the_srdf_found() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    for (const QStringList& arguments :
         {QStringList{QStringLiteral("--robot"), panda_urdf()}, QStringList{panda_urdf()}}) {
      auto studio = studio_from(arguments);
      QVERIFY(studio);
      const StudioDocument& document = *studio->document;
      QCOMPARE(document.robot()->name(), std::string("panda"));
      QCOMPARE(document.robot_srdf(), panda_srdf());
      QVERIFY(has_pose(document, "default"));
      QCOMPARE(document.joints(), document.robot()->named_pose("default"));
      QCOMPARE(studio->window->statusBar()->currentMessage(),
               QStringLiteral(
                   "Loaded panda (SRDF: ../srdf/panda.srdf, found in the package's srdf folder)"));
    }
  }

  // `--srdf none` loads the URDF alone, and says so.
  void srdf_none_loads_without_one() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    auto studio = studio_from({QStringLiteral("--robot"), panda_urdf(), QStringLiteral("--srdf"),
                               QStringLiteral("none")});
    QVERIFY(studio);
    QVERIFY(studio->document->robot_srdf().isEmpty());
    QVERIFY(studio->document->robot()->named_pose_names().empty());
    QCOMPARE(studio->window->statusBar()->currentMessage(),
             QStringLiteral("Loaded panda (without an SRDF, as asked)"));
  }

  // A session keeps the SRDF that was found: reopened, the robot has it again.
  void a_session_keeps_the_srdf_found() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("panda.kinetic-session"));
    {
      StudioDocument document;
      QCOMPARE(document.load_robot(panda_urdf()), QString());
      QCOMPARE(kinetic::app::save_session(document, path), QString());
    }
    StudioDocument reopened;
    const kinetic::app::SessionLoadResult result = kinetic::app::load_session(reopened, path);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(reopened.robot_srdf(), panda_srdf());
    QVERIFY(has_pose(reopened, "default"));
  }

  // File → Open URDF with SRDF / kinetic.toml…: the SRDF field is filled with what was found (how,
  // in its tooltip); emptied, the robot opens without one. The recent entry keeps what was used.
  void the_open_dialog_fills_in_the_srdf_found_and_an_emptied_field_means_none() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    QTemporaryDir dir;
    StudioDocument document;
    QCOMPARE(document.load_robot(QStringLiteral("ur5e")), QString());
    QMainWindow window;
    kinetic::app::DataFeatureOptions options;
    options.autosave_path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    options.settings_file = dir.filePath(QStringLiteral("settings.ini"));
    options.offer_recovery = false;
    QStringList reported;
    options.report_error = [&reported](const QString& title, const QString& message) {
      reported << title + ": " + message;
    };
    const kinetic::app::DataFeatures features =
        kinetic::app::install_data_features(window, document, options);
    window.show();
    kinetic::app::RecentFiles recent(*features.settings);

    for (const bool keep_the_guess : {true, false}) {
      QString guessed, tooltip;
      kinetic::test::ModalAnswers answers(
          {kinetic::test::choose_file(panda_urdf()), [&](QWidget* modal) {
             auto* dialog = dynamic_cast<kinetic::app::RobotFilesDialog*>(modal);
             QVERIFY2(dialog, "expected the robot files dialog");
             guessed = dialog->srdf_edit()->text();
             tooltip = dialog->srdf_edit()->toolTip();
             if (!keep_the_guess) dialog->srdf_edit()->clear();
             QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
           }});
      features.open_robot->trigger();
      QCOMPARE(answers.answered(), std::size_t(2));
      QTRY_VERIFY_WITH_TIMEOUT(!features.robot_loader->busy(),
                               20000);  // it loads in the background
      QVERIFY2(reported.isEmpty(), qPrintable(reported.join('\n')));
      QCOMPARE(QDir::cleanPath(guessed), panda_srdf());
      QCOMPARE(tooltip, QStringLiteral("../srdf/panda.srdf (found in the package's srdf folder)"));
      QCOMPARE(document.robot()->name(), std::string("panda"));
      QCOMPARE(has_pose(document, "default"), keep_the_guess);
      QCOMPARE(QDir::cleanPath(document.robot_srdf()), keep_the_guess ? panda_srdf() : QString());
      QCOMPARE(recent.entries().front().srdf, document.robot_srdf());
      QCOMPARE(window.statusBar()->currentMessage(),
               keep_the_guess ? QStringLiteral("Loaded panda (SRDF: ../srdf/panda.srdf)")
                              : QStringLiteral("Loaded panda (without an SRDF, as asked)"));
    }
  }

  // The dialog's guesses follow the URDF; what the user typed stays.
  void the_open_dialogs_guesses_follow_the_urdf() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the shared UR5 is skipped");
    const QString ur =
        QString::fromStdString(kinetic::test::example_robot_data_dir() + "/robots/ur_description");
    kinetic::app::RobotFilesDialog dialog(ur + QStringLiteral("/urdf/ur5_robot.urdf"));
    QCOMPARE(QDir::cleanPath(dialog.srdf()),
             QDir::cleanPath(ur + QStringLiteral("/srdf/ur5.srdf")));
    QCOMPARE(
        dialog.srdf_edit()->toolTip(),
        QStringLiteral(
            "../srdf/ur5.srdf (found in the package's srdf folder, named after the robot 'ur5')"));
    dialog.urdf_edit()->setText(ur + QStringLiteral("/urdf/ur10_robot.urdf"));
    QCOMPARE(dialog.srdf(), QString());  // its package has no SRDF for the UR10
    dialog.srdf_edit()->setText(QStringLiteral("/my/own.srdf"));
    dialog.urdf_edit()->setText(ur + QStringLiteral("/urdf/ur5_gripper.urdf"));
    QCOMPARE(dialog.srdf(), QStringLiteral("/my/own.srdf"));
    QCOMPARE(dialog.config(), QString());
  }

  // Reload looks again: an SRDF put beside the URDF since is taken; a robot opened with none
  // stays without. A robot with new joints starts in its rest pose: the bar's zero pose folds it
  // through the base, so it opens at "up"; a reload keeps the pose the user set.
  void reload_looks_for_the_srdf_again_and_a_new_robot_starts_at_rest() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("arm/urdf/folding.urdf"));
    write_file(urdf, kFoldingArm);
    StudioDocument document;
    QCOMPARE(document.load_robot(urdf), QString());
    QVERIFY(document.robot_srdf().isEmpty());
    QCOMPARE(document.joints(), document.robot()->zero_configuration());

    write_file(dir.filePath(QStringLiteral("arm/srdf/folding.srdf")), kFoldingArmSrdf);
    QCOMPARE(document.reload_robot(), QString());
    QCOMPARE(document.robot_srdf(), dir.filePath(QStringLiteral("arm/srdf/folding.srdf")));
    QVERIFY(has_pose(document, "up"));
    QCOMPARE(document.joints(), document.robot()->zero_configuration());  // reload keeps the pose

    StudioDocument fresh;
    QCOMPARE(fresh.load_robot(QStringLiteral("ur5e")), QString());
    QCOMPARE(fresh.load_robot(urdf), QString());
    QCOMPARE(fresh.joints(), fresh.robot()->named_pose("up"));
    kinetic::JointVector moved = fresh.joints();
    moved[0] = 0.5;
    fresh.set_joints(moved);
    QCOMPARE(fresh.reload_robot(), QString());
    QCOMPARE(fresh.joints(), moved);

    StudioDocument without;
    QCOMPARE(without.load_robot(urdf, QString()), QString());
    QVERIFY(without.robot_srdf().isEmpty());
    QCOMPARE(without.reload_robot(), QString());
    QVERIFY(without.robot_srdf().isEmpty());
  }

  // `kinetic-studio robot.urdf.xacro`: the xacro is expanded (here it includes the shared Panda
  // through $(find), found with --package-path), opened as a robot, not a session, and its
  // package's ../srdf/robot.srdf is found by the name "robot" as for robot.urdf.
  void a_xacro_on_the_command_line_opens_expanded_with_the_srdf_found() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    QTemporaryDir dir;
    const QString xacro = dir.filePath(QStringLiteral("arm_description/urdf/arm.urdf.xacro"));
    write_file(xacro,
               "<?xml version=\"1.0\"?>\n<robot name=\"$(arg name)\" "
               "xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
               "  <xacro:arg name=\"name\" default=\"panda\"/>\n"
               "  <xacro:include filename=\"$(find "
               "example-robot-data)/robots/panda_description/urdf/panda.urdf\"/>\n"
               "</robot>\n");
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("arm_description/srdf"))));
    QVERIFY(
        QFile::copy(panda_srdf(), dir.filePath(QStringLiteral("arm_description/srdf/arm.srdf"))));
    auto studio = studio_from({xacro, QStringLiteral("--package-path"),
                               QString::fromStdString(kinetic::test::shared_robots_dir())});
    QVERIFY(studio);
    const StudioDocument& document = *studio->document;
    QVERIFY(document.robot());
    QCOMPARE(document.robot()->name(), std::string("panda"));
    QCOMPARE(document.robot()->dof(), 8);
    QCOMPARE(document.robot_srdf(),
             QDir::cleanPath(dir.filePath(QStringLiteral("arm_description/srdf/arm.srdf"))));
    QVERIFY(has_pose(document, "default"));
  }

  // A file found but broken is named in the error, with how to do without it.
  void a_broken_srdf_found_is_named_in_the_error() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("folding.urdf"));
    write_file(urdf, kFoldingArm);
    write_file(dir.filePath(QStringLiteral("folding.srdf")),
               "<robot name=\"folding\"><group_state name=\"x\"");
    StudioDocument document;
    const QString error = document.load_robot(urdf);
    QVERIFY2(error.contains(QStringLiteral("folding.srdf")) &&
                 error.contains(QStringLiteral("SRDF folding.srdf (found beside the URDF)")) &&
                 error.contains(QStringLiteral("--srdf none")),
             qPrintable(error));
    QCOMPARE(document.load_robot(urdf, QString()), QString());
  }
};

QTEST_MAIN(RobotCompanionsTest)
#include "robot_companions_test.moc"
