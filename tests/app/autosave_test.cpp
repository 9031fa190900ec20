// Qt Test: autosave after a change, removal on clean shutdown, recovery restoring scene + joints
// and the camera.
#include <sys/wait.h>
#include <unistd.h>

#include <QApplication>
#include <QFileInfo>
#include <QLockFile>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/session/autosave.hpp"
#include "app/session/session_file.hpp"

using kinetic::Shape;
using kinetic::app::Autosave;
using kinetic::app::RecoveryChoice;
using kinetic::app::StudioDocument;

class AutosaveTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void default_location_is_app_local_data() {
    QVERIFY(Autosave::default_path().startsWith(
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)));
    QVERIFY(Autosave::default_path().endsWith(QStringLiteral("autosave.kinetic-session")));
  }

  void written_after_a_change_and_removed_on_clean_shutdown() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/autosave.kinetic-session"));
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    {
      Autosave autosave(document, path);
      autosave.set_interval_seconds(1);
      QCOMPARE(autosave.interval_seconds(), 1);
      QVERIFY(!autosave.has_unsaved_changes());
      QVERIFY(autosave.save_if_changed().isEmpty());
      QVERIFY(!QFileInfo::exists(path));  // nothing changed: nothing written
      document.edit_joints(document.robot()->mid_configuration());
      QVERIFY(autosave.has_unsaved_changes());
      QSignalSpy saved(&autosave, &Autosave::saved);
      QVERIFY(saved.wait(3000));  // the timer writes it
      QVERIFY(QFileInfo::exists(path));
      QVERIFY(!autosave.has_unsaved_changes());
    }
    QVERIFY(!QFileInfo::exists(path));  // clean shutdown
  }

  void recovery_restores_scene_and_joints() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    kinetic::JointVector q;
    {
      StudioDocument crashed;
      QVERIFY(crashed.load_robot(QStringLiteral("panda")).isEmpty());
      Autosave autosave(crashed, path);
      q = crashed.robot()->mid_configuration();
      q[2] = 0.25;
      crashed.edit_joints(q);
      kinetic::PlanningScene scene;
      scene.add_obstacle("pillar", Shape::cylinder(0.1, 1.0), kinetic::Pose::Identity());
      crashed.edit_scene(scene, QStringLiteral("Add pillar"));
      // What the autosave wrote before the crash (a crash never runs the destructor).
      QVERIFY(autosave.save_if_changed().isEmpty());
      QVERIFY(QFileInfo::exists(path));
      QVERIFY(QFile::copy(path, path + QStringLiteral(".crash")));
    }
    QVERIFY(QFile::rename(path + QStringLiteral(".crash"), path));
    StudioDocument fresh;
    QVERIFY(fresh.load_robot(QStringLiteral("ur5e")).isEmpty());
    QString asked;
    const auto result = kinetic::app::offer_recovery(fresh, path, [&](const QString& p) {
      asked = p;
      return RecoveryChoice::Restore;
    });
    QCOMPARE(asked, path);
    QVERIFY(result.offered);
    QVERIFY2(result.restored, qPrintable(result.error));
    QCOMPARE(fresh.robot_reference(), QStringLiteral("panda"));
    QCOMPARE(fresh.joints(), q);
    QVERIFY(fresh.scene().has_obstacle("pillar"));
  }

  void the_camera_is_autosaved_and_recovered() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    kinetic::app::SessionCamera camera;
    camera.target = kinetic::Vector3(0.3, -0.1, 0.4);
    camera.distance = 1.7;
    camera.azimuth = 0.9;
    camera.elevation = 0.35;
    {
      StudioDocument crashed;
      QVERIFY(crashed.load_robot(QStringLiteral("ur5e")).isEmpty());
      Autosave autosave(crashed, path);
      autosave.set_camera_source([&] { return std::optional(camera); });
      crashed.edit_joints(crashed.robot()->mid_configuration());
      QVERIFY(autosave.save_if_changed().isEmpty());
      QVERIFY(QFile::copy(path, path + QStringLiteral(".crash")));
    }
    QVERIFY(QFile::rename(path + QStringLiteral(".crash"), path));
    StudioDocument fresh;
    const auto result = kinetic::app::offer_recovery(
        fresh, path, [](const QString&) { return RecoveryChoice::Restore; });
    QVERIFY2(result.restored, qPrintable(result.error));
    QVERIFY(result.camera.has_value());
    QVERIFY(result.camera->target.isApprox(camera.target, 1e-12));
    QCOMPARE(result.camera->distance, camera.distance);
    QCOMPARE(result.camera->azimuth, camera.azimuth);
    QCOMPARE(result.camera->elevation, camera.elevation);
  }

  void discard_removes_the_autosave_and_keeps_the_document() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    {
      StudioDocument other;
      QVERIFY(other.load_robot(QStringLiteral("panda")).isEmpty());
      QVERIFY(kinetic::app::save_session(other, path).isEmpty());
    }
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const auto result = kinetic::app::offer_recovery(
        document, path, [](const QString&) { return RecoveryChoice::Discard; });
    QVERIFY(result.offered);
    QVERIFY(!result.restored);
    QVERIFY(!QFileInfo::exists(path));
    QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
    // No autosave: nothing is asked.
    bool asked = false;
    QVERIFY(!kinetic::app::offer_recovery(document, path, [&](const QString&) {
               asked = true;
               return RecoveryChoice::Restore;
             }).offered);
    QVERIFY(!asked);
  }

  void a_broken_autosave_is_reported_and_kept_aside() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"kinetic-session\", \"vers");
    file.close();
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const auto result = kinetic::app::offer_recovery(
        document, path, [](const QString&) { return RecoveryChoice::Restore; });
    QVERIFY(!result.restored);
    QVERIFY(result.error.contains(QStringLiteral("not valid JSON")));
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".failed")));
    QVERIFY(!QFileInfo::exists(path));
    QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
  }

  void an_autosave_with_an_out_of_range_number_is_reported_not_fatal() {
    // JSON numbers beyond a double (1e400) threw out of offer_recovery: the studio aborted at
    // start-up, and again at every start while the autosave stayed.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "kinetic-session", "version": 1, "robot": {"reference": "ur5e"},
                   "joints": {"names": ["joint1"], "values": [1e400]}})");
    file.close();
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("iiwa7")).isEmpty());
    kinetic::app::RecoveryResult result;
    try {
      result = kinetic::app::offer_recovery(document, path,
                                            [](const QString&) { return RecoveryChoice::Restore; });
    } catch (const std::exception& error) {
      QFAIL(qPrintable(QStringLiteral("exception escaped: %1").arg(error.what())));
    }
    QVERIFY(!result.restored);
    QVERIFY2(result.error.contains(QStringLiteral("1e400")), qPrintable(result.error));
    QVERIFY2(!result.error.contains(QStringLiteral("json.exception")), qPrintable(result.error));
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".failed")));  // not offered again next start
    QCOMPARE(document.robot_reference(), QStringLiteral("iiwa7"));
  }

  // Every studio has its own autosave: a second one running beside the first neither offers the
  // first's autosave as a crash nor removes it at its clean exit (they shared one file).
  void a_second_studio_leaves_the_running_ones_autosave_alone() {
    QTemporaryDir dir;
    const QString first_path = dir.filePath(QStringLiteral("studio-1.autosave.kinetic-session"));
    const QString second_path = dir.filePath(QStringLiteral("studio-2.autosave.kinetic-session"));
    StudioDocument first_document;
    QVERIFY(first_document.load_robot(QStringLiteral("ur5e")).isEmpty());
    Autosave first(first_document, first_path);
    first_document.edit_joints(first_document.robot()->mid_configuration());
    QVERIFY(first.save_if_changed().isEmpty());
    QVERIFY(QFileInfo::exists(first_path));
    {
      StudioDocument second_document;
      Autosave second(second_document, second_path);
      QVERIFY(kinetic::app::orphaned_autosaves(second_path).isEmpty());
      bool asked = false;
      const auto result =
          kinetic::app::offer_orphaned_autosave(second_document, second_path, [&](const QString&) {
            asked = true;
            return RecoveryChoice::Discard;
          });
      QVERIFY(!result.offered && !asked);
    }
    QVERIFY(QFileInfo::exists(first_path));  // the second's clean exit removed only its own
  }

  // A studio that crashed left its autosave and a lock no process holds: offered, naming the file.
  void a_dead_studios_autosave_is_offered_and_restored_as_ones_own() {
    QTemporaryDir dir;
    const QString crashed_path =
        dir.filePath(QStringLiteral("studio-99999.autosave.kinetic-session"));
    const QString own_path = dir.filePath(QStringLiteral("studio-1.autosave.kinetic-session"));
    {
      StudioDocument crashed;
      QVERIFY(crashed.load_robot(QStringLiteral("panda")).isEmpty());
      QVERIFY(kinetic::app::save_session(crashed, crashed_path).isEmpty());
    }
    // The lock a killed studio leaves: its process is gone.
    const pid_t child = ::fork();
    if (child == 0) {
      QLockFile lock(crashed_path + QStringLiteral(".lock"));
      lock.tryLock(0);
      ::_exit(0);  // without unlocking
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(QFileInfo::exists(crashed_path + QStringLiteral(".lock")));
    StudioDocument document;
    Autosave own(document, own_path);
    QString asked_about;
    const auto result =
        kinetic::app::offer_orphaned_autosave(document, own_path, [&](const QString& path) {
          asked_about = path;
          return RecoveryChoice::Restore;
        });
    QVERIFY(result.offered && result.restored);
    QCOMPARE(asked_about, crashed_path);
    QCOMPARE(document.robot_reference(), QStringLiteral("panda"));
    QVERIFY(!QFileInfo::exists(crashed_path));
    QVERIFY(QFileInfo::exists(own_path));  // now this studio's, removed at its clean exit
  }

  // --quit-after (or the session ending) while the Recover question is open answers nothing: the
  // autosave stays for the next start (it counted as Discard and was deleted).
  void quitting_while_the_question_is_open_keeps_the_autosave() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("studio-7.autosave.kinetic-session"));
    {
      StudioDocument other;
      QVERIFY(other.load_robot(QStringLiteral("panda")).isEmpty());
      QVERIFY(kinetic::app::save_session(other, path).isEmpty());
    }
    QString text;
    QTimer::singleShot(300, [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        text = box->text();
      QCoreApplication::exit(0);
    });
    StudioDocument document;
    const auto result = kinetic::app::offer_recovery(document, path);  // the real message box
    QVERIFY(result.offered && !result.restored);
    QVERIFY(QFileInfo::exists(path));
    // The question says when and which.
    QVERIFY2(text.contains(QFileInfo(path).absoluteFilePath()), qPrintable(text));
    QVERIFY2(text.contains(QFileInfo(path).lastModified().toString(Qt::TextDate)),
             qPrintable(text));
  }
};

QTEST_MAIN(AutosaveTest)
#include "autosave_test.moc"
