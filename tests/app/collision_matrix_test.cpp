// The studio's collision-matrix generation: the background job reports progress and a result
// (or stops when cancelled), and saving writes the skipped pairs into the robot's kinetic.toml and
// reloads the robot so they apply; a built-in robot's pairs go to a new file seeded with its
// configuration; an unwritable target is reported and nothing changes.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "app/collision/collision_matrix_feature.hpp"
#include "app/collision/collision_matrix_job.hpp"
#include "app/document/studio_document.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/model/config_loader.hpp"
#include "engine/model/robot_loader.hpp"

using namespace kinetic;
using namespace kinetic::app;

class CollisionMatrixTest : public QObject {
  Q_OBJECT
 private slots:
  void generates_with_progress() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    CollisionMatrixJob job;
    QSignalSpy progress(&job, &CollisionMatrixJob::progress);
    QSignalSpy finished(&job, &CollisionMatrixJob::finished);
    job.start(document.robot(), 2000);
    QVERIFY(job.running());
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QVERIFY(!job.running());
    QCOMPARE(job.result().samples, 2000);
    QVERIFY(!job.result().disabled.empty());
    QVERIFY(!job.result().enabled.empty());  // e.g. the wrist against the upper arm
    QVERIFY(progress.count() >= 1);
    QCOMPARE(progress.last().at(1).toInt(), 2000);
    const QString summary = describe_collision_matrix(job.result());
    QVERIFY2(
        summary.contains(QStringLiteral("adjacent")) && summary.contains(QStringLiteral("2000")),
        qPrintable(summary));
  }

  void cancel_stops_without_a_result() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("panda")).isEmpty());
    CollisionMatrixJob job;
    QSignalSpy finished(&job, &CollisionMatrixJob::finished);
    job.start(document.robot(), 1000000);
    job.cancel();
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), CollisionMatrixJob::tr("cancelled"));
    QVERIFY(job.result().disabled.empty());
  }

  void saving_into_the_robots_file_reloads_it() {
    QTemporaryDir dir;
    const std::string builtin = builtin_robot_directory() + "/ur5e";
    const QString urdf = dir.filePath(QStringLiteral("robot.urdf")),
                  toml = dir.filePath(QStringLiteral("kinetic.toml"));
    QVERIFY(QFile::copy(QString::fromStdString(builtin + "/robot.urdf"), urdf));
    QVERIFY(QFile::copy(QString::fromStdString(builtin + "/kinetic.toml"), toml));
    QFile::setPermissions(toml, QFile::ReadOwner | QFile::WriteOwner);
    StudioDocument document;
    QVERIFY(document.load_robot(urdf, {}, toml).isEmpty());
    QVERIFY(document.robot()->config().collision.skip_pairs.empty());
    QCOMPARE(robot_config_file(document), toml);
    JointVector q = document.robot()->named_pose("ready");
    document.set_joints(q);

    AcmGeneratorResult result;
    result.samples = 10;
    result.disabled = {{"base_link", "link1", DisableReason::Adjacent}};
    const RobotModelPtr before = document.robot();
    QVERIFY(save_collision_matrix(document, result, toml).isEmpty());
    QVERIFY(document.robot() != before);  // reloaded
    const auto& pairs = document.robot()->config().collision.skip_pairs;
    QCOMPARE(pairs.size(), std::size_t(1));
    QCOMPARE(pairs.front().first, std::string("base_link"));
    QVERIFY((document.joints() - q).norm() < 1e-12);  // the pose survives the reload
  }

  void builtin_robot_pairs_go_to_a_new_seeded_file() {
    QTemporaryDir dir;
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    QVERIFY(robot_config_file(document).endsWith(QStringLiteral("ur5e/kinetic.toml")));
    AcmGeneratorResult result;
    result.samples = 10;
    result.disabled = {{"base_link", "link1", DisableReason::Adjacent}};
    const QString target = dir.filePath(QStringLiteral("my_ur5e.toml"));
    const RobotModelPtr before = document.robot();
    QVERIFY(save_collision_matrix(document, result, target).isEmpty());
    QVERIFY(document.robot() == before);  // not the robot's own file: nothing to reload
    const RobotConfig config = load_robot_config_file(target.toStdString());
    QCOMPARE(config.name, std::string("ur5e"));  // seeded with the built-in configuration
    QCOMPARE(config.collision.skip_pairs.size(), std::size_t(1));

    const QString unwritable = dir.filePath(QStringLiteral("no/such/folder/kinetic.toml"));
    const QString error = save_collision_matrix(document, result, unwritable);
    QVERIFY2(error.contains(unwritable), qPrintable(error));
    QVERIFY(!QFileInfo::exists(unwritable));
  }
};

QTEST_MAIN(CollisionMatrixTest)
#include "collision_matrix_test.moc"
