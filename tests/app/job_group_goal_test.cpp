// Qt Test: a job's joint goal given for the planning group alone, on a real robot package (the
// PR2 with its MoveIt SRDF): the robot's other joints stay where the step starts, both when the
// goal is checked and in the motion. (The goal used to be checked with every other joint at zero.)
// A pose goal for one hand of a group of two arms (the dual-arm Panda) names the hand.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"
#include "engine/collision/acm_generator.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "headless_job_run.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

std::string json_numbers(const JointVector& values) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (Eigen::Index i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  out << "]";
  return out.str();
}

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

}  // namespace

class JobGroupGoalTest : public QObject {
  Q_OBJECT
 private slots:
  void a_group_goal_keeps_the_other_joints_at_the_start() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real PR2 is skipped");
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    const std::string robots = kinetic::test::shared_robots_dir();
    const std::string urdf = robots + "/moveit_resources/pr2_description/urdf/robot.xml";
    const std::string srdf = robots + "/moveit_resources/pr2_description/srdf/robot.xml";
    LoadOptions options;
    options.package_paths = {robots};
    // PR2's test SRDF disables two link pairs (its casters touch the base at every pose): the pairs
    // are generated first, as MoveIt's Setup Assistant does, into the kinetic.toml the job names.
    AcmGeneratorOptions acm;
    acm.samples = 300;
    const fs::path toml = folder / "kinetic.toml";
    std::ofstream(toml) << skip_pairs_toml(
        generate_allowed_collisions(load_robot_file(urdf, srdf, "", options), acm));
    const RobotModelPtr model = load_robot_file(urdf, srdf, toml.string(), options);

    // The left arm swung out; a right-arm goal across the front, where the left arm is at zero.
    JointVector start = model->zero_configuration();
    start[model->variable_index("l_shoulder_pan_joint")] = 1.5;
    const std::vector<int> group = model->group_variables("right_arm");
    JointVector goal(static_cast<Eigen::Index>(group.size()));
    goal << 0.45, 0.0, -1.77, -1.01, -1.8, -2.08, 1.32;
    JointVector at_start = start, at_zero = model->zero_configuration();
    for (std::size_t i = 0; i < group.size(); ++i) {
      at_start[group[i]] = goal[static_cast<Eigen::Index>(i)];
      at_zero[group[i]] = goal[static_cast<Eigen::Index>(i)];
    }
    CollisionChecker checker(model);
    QVERIFY(!checker.in_collision(start));
    QVERIFY(!checker.in_collision(at_start));
    QVERIFY(checker.in_collision(at_zero));  // what the goal used to be checked as

    // (No raw strings in this file: moc does not find the test class past some of them.)
    const std::string job =
        "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": {\"urdf\": " + quoted(urdf) +
        ", \"srdf\": " + quoted(srdf) + ", \"config\": " + quoted(toml.string()) +
        ", \"package_paths\": [" + quoted(robots) + "], \"group\": \"right_arm\"}, " +
        "\"start\": {\"joints\": " + json_numbers(start) +
        "}, \"steps\": [{\"name\": \"reach\", \"goal\": {\"joints\": " + json_numbers(goal) +
        "}}]}";
    const JobResult result = kinetic::test::planned(parse_job(job, "job.json", folder));
    QCOMPARE(result.steps.size(), std::size_t{1});
    const JointVector end = result.steps[0].end;
    QVERIFY(end.isApprox(at_start, 1e-9));
  }

  // A pose goal for one hand of a group of two arms (the dual-arm Panda's both_arms): its
  // "end_effector" names the hand, whose arm reaches the pose while the other arm stays; a name the
  // group lacks is refused naming the hands it has.
  void a_pose_goal_names_the_hand_of_a_group_of_two_arms() {
    if (!kinetic::test::shared_robots_available())
      QSKIP("../shared/robots is absent: the dual-arm Panda is skipped");
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    const std::string robots = kinetic::test::shared_robots_dir();
    std::ifstream in(robots + "/moveit_resources/dual_arm_panda_moveit_config/config/panda.srdf");
    std::stringstream text;
    text << in.rdbuf();
    std::string srdf = text.str();
    srdf.insert(srdf.rfind("</robot>"),
                "<group name=\"both_arms\"><group name=\"left_panda_arm\"/><group "
                "name=\"right_panda_arm\"/></group>"
                "<group name=\"left_hand\"><link name=\"left_panda_hand\"/></group>"
                "<group name=\"right_hand\"><link name=\"right_panda_hand\"/></group>");
    std::ofstream(folder / "panda.srdf") << srdf;
    const std::string urdf = robots + "/expected/dual_arm_panda_moveit_config/config/panda.urdf";
    LoadOptions options;
    options.package_paths = {robots};
    const RobotModelPtr model =
        load_robot_file(urdf, (folder / "panda.srdf").string(), "", options);
    const JointVector start = model->named_pose("ready");
    JointVector reached = start;
    reached[model->variable_index("left_panda_joint1")] += 0.3;
    const KinematicChain left = KinematicChain::from_config(model, "left_panda_arm");
    const Pose target = left.fk(left.to_chain(reached));
    const Quaternion rotation(target.linear());
    std::ostringstream pose;
    pose.precision(17);
    pose << "{\"xyz\": [" << target.translation().x() << ", " << target.translation().y() << ", "
         << target.translation().z() << "], \"quaternion\": [" << rotation.x() << ", "
         << rotation.y() << ", " << rotation.z() << ", " << rotation.w() << "], \"end_effector\": ";
    auto job = [&](const std::string& hand) {
      return "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": {\"urdf\": " + quoted(urdf) +
             ", \"srdf\": \"panda.srdf\", \"config\": \"\", \"package_paths\": [" + quoted(robots) +
             "], \"group\": \"both_arms\"}, \"start\": {\"joints\": " + json_numbers(start) +
             "}, \"steps\": [{\"name\": \"reach\", \"goal\": {\"pose\": " + pose.str() +
             quoted(hand) + "}}}]}";
    };
    const JobResult result =
        kinetic::test::planned(parse_job(job("left_hand"), "job.json", folder));
    QCOMPARE(result.steps.size(), std::size_t{1});
    const JointVector end = result.steps[0].end;
    QVERIFY(left.fk(left.to_chain(end)).isApprox(target, 1e-3));
    for (const int v : model->group_variables("right_panda_arm")) QCOMPARE(end[v], start[v]);

    const kinetic::test::HeadlessRun wrong = kinetic::test::run_job_text(job("left_hnd"), folder);
    QVERIFY(wrong.code != 0);
    QVERIFY2(kinetic::test::mentions(wrong.err, "no end effector 'left_hnd'") &&
                 kinetic::test::mentions(wrong.err, "left_hand"),
             wrong.err.c_str());
  }

  // A robot problem found while the group's planner is made (a collision mesh that does not
  // resolve) is said as the robot's, not the group setting's; an unknown group is the group's.
  void only_an_unknown_group_is_blamed_on_the_group_field() {
    QTemporaryDir dir;
    const fs::path folder = dir.path().toStdString();
    std::ofstream(folder / "arm.urdf")
        << "<robot name=\"arm\"><link name=\"base\"><collision><geometry>"
           "<mesh filename=\"package://meshes/base.stl\"/></geometry></collision></link><link "
           "name=\"upper\"/>"
           "<joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child "
           "link=\"upper\"/>"
           "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" velocity=\"1\" "
           "effort=\"1\"/></joint></robot>";
    std::ofstream(folder / "arm.srdf")
        << "<robot name=\"arm\"><group name=\"arm\"><joint name=\"shoulder\"/></group></robot>";
    auto job = [](const std::string& group) {
      return "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": {\"urdf\": \"arm.urdf\", "
             "\"srdf\": \"arm.srdf\", \"config\": \"\", \"group\": " +
             quoted(group) +
             "}, \"start\": {\"joints\": [0]}, \"steps\": [{\"name\": \"m\", \"goal\": "
             "{\"joints\": [0.5]}}]}";
    };
    const kinetic::test::HeadlessRun mesh = kinetic::test::run_job_text(job("arm"), folder);
    QCOMPARE(mesh.code, kExitBadJob);
    QVERIFY2(kinetic::test::mentions(mesh.err, "robot: collision mesh 'package://meshes/base.stl'"),
             mesh.err.c_str());
    QVERIFY2(!kinetic::test::mentions(mesh.err, "robot.group"), mesh.err.c_str());
    const kinetic::test::HeadlessRun unknown = kinetic::test::run_job_text(job("arms"), folder);
    QCOMPARE(unknown.code, kExitBadJob);
    QVERIFY2(kinetic::test::mentions(unknown.err,
                                     "robot.group: robot 'arm' has no planning group 'arms'"),
             unknown.err.c_str());
  }
};

QTEST_GUILESS_MAIN(JobGroupGoalTest)
#include "job_group_goal_test.moc"
