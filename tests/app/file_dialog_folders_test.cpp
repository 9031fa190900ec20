// Qt Test: every kind of file dialog (trajectory, scene, mesh, session, robot) opens in the folder
// the last one of its kind was used in, remembered across runs in QSettings, and the trajectory
// export suggests a file-system-safe name ("plan-3-rrt-connect.json"). Native dialogs cannot be
// driven, so Qt's own dialog is used: the test reads where it opened and what it suggested, then
// accepts or cancels it.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>

#include "app/document/studio_document.hpp"
#include "app/session/data_features.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "panels/file_dialog_folders.hpp"
#include "panels/safe_file_name.hpp"
#include "panels/scene_panel.hpp"
#include "panels/trajectory_panel.hpp"

using namespace kinetic;
using namespace kinetic::panels;

namespace {

// Where a file dialog opened and the file it offered.
struct DialogSeen {
  bool shown = false;
  QString folder;     // canonical
  QString suggested;  // the first selected file, "" when none
};

void cancel(QFileDialog& dialog) {
  dialog.reject();
}

// Calls `open`, which shows a file dialog and waits for it; reads the dialog, then lets `answer`
// accept or cancel it (it must close it).
DialogSeen drive_file_dialog(const std::function<void()>& open,
                             const std::function<void(QFileDialog&)>& answer = cancel) {
  DialogSeen seen;
  QTimer poll;
  poll.setInterval(10);
  QObject::connect(&poll, &QTimer::timeout, [&] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) return;
    poll.stop();
    seen.shown = true;
    seen.folder = QFileInfo(dialog->directory().absolutePath()).canonicalFilePath();
    const QStringList files = dialog->selectedFiles();
    seen.suggested = files.isEmpty() ? QString() : files.first();
    answer(*dialog);
  });
  poll.start();
  open();
  return seen;
}

// Answers the dialog with `path` (a new file to save, an existing one to open).
std::function<void(QFileDialog&)> choose(const QString& path) {
  return [path](QFileDialog& dialog) {
    // The file name field takes a selection only while it does not have the focus.
    if (QWidget* field = dialog.focusWidget()) field->clearFocus();
    dialog.selectFile(path);
    static_cast<QDialog&>(dialog).accept();   // QFileDialog's own accept(), protected there
    if (dialog.isVisible()) dialog.reject();  // not taken: let the test fail rather than hang
  };
}

QString canonical(const QString& folder) {
  return QFileInfo(folder).canonicalFilePath();
}

QAction* action_named(QObject& owner, const QString& text) {
  for (QAction* action : owner.findChildren<QAction*>())
    if (action->text() == text) return action;
  return nullptr;
}

QPushButton* button_named(QWidget& owner, const QString& text) {
  for (QPushButton* button : owner.findChildren<QPushButton*>())
    if (button->text() == text) return button;
  return nullptr;
}

}  // namespace

class FileDialogFoldersTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // Never the user's settings: QSettings goes under QStandardPaths' test folder, in a file of
    // this test's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("KineticTests"));
    QCoreApplication::setApplicationName(QStringLiteral("file-dialog-folders-test"));
    // Qt's own dialogs, which a test can read and answer.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
  }

  void init() { QSettings().remove(QStringLiteral("file_dialogs")); }

  void safe_names_data() {
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("safe");
    QTest::newRow("plan") << QStringLiteral("plan 3 · RRT-Connect")
                          << QStringLiteral("plan-3-rrt-connect");
    QTest::newRow("star") << QStringLiteral("plan 4 · RRT*") << QStringLiteral("plan-4-rrt");
    QTest::newRow("orientation")
        << QStringLiteral("plan 1 · RRT-Connect, TCP orientation kept within 5.0°")
        << QStringLiteral("plan-1-rrt-connect-tcp-orientation-kept-within-5-0");
    QTest::newRow("pick") << QStringLiteral("Pick box1") << QStringLiteral("pick-box1");
    QTest::newRow("accents") << QStringLiteral("Trajectoire élevée")
                             << QStringLiteral("trajectoire-elevee");
    QTest::newRow("separators") << QStringLiteral("  --a//b.. c\\d:e ")
                                << QStringLiteral("a-b-c-d-e");
    QTest::newRow("underscore") << QStringLiteral("cell_2 approach")
                                << QStringLiteral("cell_2-approach");
    QTest::newRow("nothing left") << QStringLiteral("· → ·") << QStringLiteral("untitled");
    QTest::newRow("empty") << QString() << QStringLiteral("untitled");
    QTest::newRow("long") << QString(100, QLatin1Char('a')) << QString(64, QLatin1Char('a'));
    QTest::newRow("cut at a separator")
        << QString(63, QLatin1Char('a')) + QStringLiteral(" b") << QString(63, QLatin1Char('a'));
  }

  void safe_names() {
    QFETCH(QString, display);
    QFETCH(QString, safe);
    QCOMPARE(safe_file_name(display), safe);
  }

  void each_kind_remembers_its_own_folder() {
    QTemporaryDir scenes, meshes;
    QCOMPARE(last_dialog_folder(FileDialogKind::Scene),
             QString());  // the dialog's default at first
    remember_dialog_folder(FileDialogKind::Scene, scenes.filePath(QStringLiteral("cell.json")));
    remember_dialog_folder(FileDialogKind::Mesh, meshes.filePath(QStringLiteral("gripper.stl")));
    remember_dialog_folder(FileDialogKind::Mesh, QString());  // a cancelled dialog changes nothing
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Scene)), canonical(scenes.path()));
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Mesh)), canonical(meshes.path()));
    for (FileDialogKind other :
         {FileDialogKind::Trajectory, FileDialogKind::Session, FileDialogKind::Robot})
      QCOMPARE(last_dialog_folder(other), QString());
    QCOMPARE(in_last_dialog_folder(FileDialogKind::Scene, QStringLiteral("next.json")),
             QDir(last_dialog_folder(FileDialogKind::Scene)).filePath(QStringLiteral("next.json")));
    QCOMPARE(in_last_dialog_folder(FileDialogKind::Session, QStringLiteral("a.kinetic-session")),
             QStringLiteral("a.kinetic-session"));
  }

  // The folders are in the settings file on disk, where the next run reads them.
  void remembered_folders_outlive_the_run() {
    QTemporaryDir sessions;
    remember_dialog_folder(FileDialogKind::Session,
                           sessions.filePath(QStringLiteral("work.kinetic-session")));
    QSettings written;
    written.sync();
    QVERIFY(written.fileName().startsWith(
        QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)));
    QSettings next_run(written.fileName(), QSettings::NativeFormat);
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Session, next_run)),
             canonical(sessions.path()));
  }

  void a_folder_that_is_gone_is_forgotten() {
    QString gone;
    {
      QTemporaryDir robots;
      gone = robots.path();
      remember_dialog_folder(FileDialogKind::Robot, robots.filePath(QStringLiteral("arm.urdf")));
      QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Robot)), canonical(gone));
    }
    QVERIFY(!QFileInfo::exists(gone));
    QCOMPARE(last_dialog_folder(FileDialogKind::Robot), QString());
    QCOMPARE(in_last_dialog_folder(FileDialogKind::Robot, QStringLiteral("arm.urdf")),
             QStringLiteral("arm.urdf"));
  }

  void a_settings_file_keeps_its_own_folders() {
    QTemporaryDir dir;
    QSettings ini(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    remember_dialog_folder(FileDialogKind::Robot, dir.filePath(QStringLiteral("arm.urdf")), ini);
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Robot, ini)), canonical(dir.path()));
    QCOMPARE(last_dialog_folder(FileDialogKind::Robot), QString());  // not the application's
  }

  void trajectory_export_suggests_a_safe_name_in_the_remembered_folder() {
    QTemporaryDir exported, elsewhere;
    remember_dialog_folder(FileDialogKind::Trajectory,
                           exported.filePath(QStringLiteral("earlier.json")));
    TrajectoryPanel panel;
    const TrajectoryLimits limits = TrajectoryLimits::from_model(*load_builtin_robot("ur5e"));
    panel.set_trajectories(
        {{QStringLiteral("plan 3 · RRT-Connect"),
          trapezoidal(JointPath{JointVector::Zero(6), JointVector::Constant(6, 0.5)}, limits)}});
    panel.set_current(0);
    panel.select({0});
    QPushButton* export_button = button_named(panel, QStringLiteral("Export…"));
    QVERIFY(export_button);
    QVERIFY(export_button->isEnabled());
    QSignalSpy exported_to(&panel, &TrajectoryPanel::exportRequested);

    // The dialog starts on JSON, in the folder remembered, with the name made safe.
    const DialogSeen offered = drive_file_dialog([&] { export_button->click(); });
    QVERIFY(offered.shown);
    QCOMPARE(offered.folder, canonical(exported.path()));
    QCOMPARE(QFileInfo(offered.suggested).fileName(), QStringLiteral("plan-3-rrt-connect.json"));
    QCOMPARE(exported_to.count(), 0);  // cancelled

    // Exporting elsewhere moves the trajectory folder there, for Import too.
    const QString target = elsewhere.filePath(QStringLiteral("for-the-cell.csv"));
    QVERIFY(drive_file_dialog([&] { export_button->click(); }, choose(target)).shown);
    QCOMPARE(exported_to.count(), 1);
    QCOMPARE(canonical(QFileInfo(exported_to.first().at(1).toString()).absolutePath()),
             canonical(elsewhere.path()));
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Trajectory)),
             canonical(elsewhere.path()));
    QPushButton* import_button = button_named(panel, QStringLiteral("Import…"));
    QVERIFY(import_button);
    QCOMPARE(drive_file_dialog([&] { import_button->click(); }).folder,
             canonical(elsewhere.path()));
  }

  void scene_panel_dialogs_use_the_scene_and_mesh_folders() {
    QTemporaryDir scenes, meshes;
    remember_dialog_folder(FileDialogKind::Scene, scenes.filePath(QStringLiteral("cell.json")));
    remember_dialog_folder(FileDialogKind::Mesh, meshes.filePath(QStringLiteral("part.stl")));
    ScenePanel panel;
    QPushButton* load = button_named(panel, QStringLiteral("Load…"));
    QPushButton* save = button_named(panel, QStringLiteral("Save…"));
    QAction* mesh = action_named(panel, QStringLiteral("Mesh file…"));
    QVERIFY(load && save && mesh);
    QCOMPARE(drive_file_dialog([&] { load->click(); }).folder, canonical(scenes.path()));
    QCOMPARE(drive_file_dialog([&] { mesh->trigger(); }).folder, canonical(meshes.path()));

    // Saving elsewhere: the next scene dialog opens there; the mesh folder stays.
    QTemporaryDir other;
    QVERIFY(drive_file_dialog([&] { save->click(); },
                              choose(other.filePath(QStringLiteral("new.json"))))
                .shown);
    QVERIFY(QFileInfo::exists(other.filePath(QStringLiteral("new.json"))));
    QCOMPARE(drive_file_dialog([&] { load->click(); }).folder, canonical(other.path()));
    QCOMPARE(drive_file_dialog([&] { mesh->trigger(); }).folder, canonical(meshes.path()));
  }

  // The studio's File menu keeps robot and session folders in its settings (an INI file here).
  void studio_robot_and_session_dialogs_remember_their_folders() {
    QTemporaryDir dir, robots, sessions;
    const QString settings_file = dir.filePath(QStringLiteral("settings.ini"));
    {
      QSettings ini(settings_file, QSettings::IniFormat);
      remember_dialog_folder(FileDialogKind::Robot, robots.filePath(QStringLiteral("arm.urdf")),
                             ini);
    }
    app::StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QMainWindow window;
    app::DataFeatureOptions options;
    options.autosave_path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    options.settings_file = settings_file;
    options.offer_recovery = false;
    QStringList errors;
    options.report_error = [&](const QString& title, const QString& message) {
      errors << title + ": " + message;
    };
    const auto features = app::install_data_features(window, document, options);
    QAction* open_robot =
        action_named(window, QStringLiteral("Open URDF with SRDF / kinetic.toml…"));
    QAction* open_session = action_named(window, QStringLiteral("Open session…"));
    QAction* save_session_as = action_named(window, QStringLiteral("Save session as…"));
    QVERIFY(open_robot && open_session && save_session_as);

    QCOMPARE(drive_file_dialog([&] { open_robot->trigger(); }).folder, canonical(robots.path()));
    const QString saved = sessions.filePath(QStringLiteral("cell.kinetic-session"));
    QVERIFY(drive_file_dialog([&] { save_session_as->trigger(); }, choose(saved)).shown);
    QVERIFY2(QFileInfo::exists(saved), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(drive_file_dialog([&] { open_session->trigger(); }).folder,
             canonical(sessions.path()));
    QSettings ini(settings_file, QSettings::IniFormat);
    QCOMPARE(canonical(last_dialog_folder(FileDialogKind::Session, ini)),
             canonical(sessions.path()));
    QCOMPARE(last_dialog_folder(FileDialogKind::Session),
             QString());  // not the application's settings
  }
};

QTEST_MAIN(FileDialogFoldersTest)
#include "file_dialog_folders_test.moc"
