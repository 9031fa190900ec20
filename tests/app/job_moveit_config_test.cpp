// Qt Test: a headless job whose robot is a MoveIt config package (Kinova's Gen3 lite config of
// ../shared/robots, as its authors ship it): the run says what came from which of its files, and a
// step that sets no scaling moves at the package's default_velocity_scaling_factor (0.1), as
// MoveIt plans a request that sets none; a step's own scaling wins.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <string>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"
#include "headless_job_run.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

// A job moving the arm group from the package's initial pose; `scaling` "" leaves it unset.
std::string job_text(const std::string& config, const std::string& robots,
                     const std::string& scaling) {
  return "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": {\"urdf\": " + quoted(config) +
         ", \"package_paths\": [" + quoted(robots) +
         "], \"group\": \"arm\"}, \"steps\": [{\"name\": \"reach\", " +
         "\"goal\": {\"joints\": [0.8, 0.4, 1.2, 0.3, 0.5, -0.6]}" +
         (scaling.empty()
              ? std::string()
              : ", \"velocity_scaling\": " + scaling + ", \"acceleration_scaling\": " + scaling) +
         "}]}";
}

}  // namespace

class JobMoveItConfigTest : public QObject {
  Q_OBJECT
 private slots:
  void a_moveit_config_says_its_files_and_moves_at_its_default_scaling() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Kinova MoveIt config is skipped");
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    const std::string robots = kinetic::test::shared_robots_dir();
    const std::string config =
        robots + "/ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config";

    const JobResult slow =
        kinetic::test::planned(parse_job(job_text(config, robots, ""), "job.json", folder));
    std::string said;
    for (const std::string& line : slow.robot_files) said += line + "\n";
    QVERIFY2(kinetic::test::mentions(said, "MoveIt config: kinova_gen3_lite_moveit_config"),
             said.c_str());
    QVERIFY2(kinetic::test::mentions(said, "URDF: config/gen3_lite.urdf.xacro"), said.c_str());
    QVERIFY2(kinetic::test::mentions(said, "SRDF: config/gen3_lite.srdf"), said.c_str());
    QVERIFY2(kinetic::test::mentions(said, "default scaling: velocity 0.1, acceleration 0.1"),
             said.c_str());
    QVERIFY2(kinetic::test::mentions(said, "initial pose: config/initial_positions.yaml"),
             said.c_str());
    QVERIFY2(!kinetic::test::mentions(said, "srdf: none found"), said.c_str());
    QCOMPARE(slow.limits.velocity_scaling, 0.1);

    const JobResult full =
        kinetic::test::planned(parse_job(job_text(config, robots, "1.0"), "job.json", folder));
    QCOMPARE(slow.steps.size(), std::size_t{1});
    QCOMPARE(full.steps.size(), std::size_t{1});
    const double slow_s = slow.steps[0].trajectory.duration(),
                 full_s = full.steps[0].trajectory.duration();
    // A tenth of the speed and acceleration: several times longer (not exactly ten: the same path
    // is not planned twice, and acceleration phases scale by another factor).
    QVERIFY2(slow_s > 3.0 * full_s,
             (std::to_string(slow_s) + " s vs " + std::to_string(full_s) + " s").c_str());
  }

  // The run's printed summary carries the same lines (a run from the command line or a job file).
  void the_printed_run_names_the_package_files() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Kinova MoveIt config is skipped");
    QTemporaryDir dir;
    const std::string robots = kinetic::test::shared_robots_dir();
    const std::string config =
        robots +
        "/ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config/config/gen3_lite.srdf";
    const kinetic::test::HeadlessRun run =
        kinetic::test::run_job_text(job_text(config, robots, "0.5"), dir.path().toStdString());
    QVERIFY2(run.code == 0, (run.out + run.err).c_str());
    QVERIFY2(kinetic::test::mentions(run.out, "joint limits: config/joint_limits.yaml"),
             run.out.c_str());
    QVERIFY2(kinetic::test::mentions(run.out, "IK: config/kinematics.yaml (group arm"),
             run.out.c_str());
  }
};

QTEST_MAIN(JobMoveItConfigTest)
#include "job_moveit_config_test.moc"
