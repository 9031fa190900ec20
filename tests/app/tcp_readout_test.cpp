// Qt Test (offscreen): the Goal panel's current TCP line. Moving a joint of a real robot (the
// built-in UR5e through the Joints panel's slider, the shared Panda from its URDF and SRDF) shows
// the forward kinematics of its TCP; playback shows the ghost's TCP, undo and Current ← goal the
// robot's; a robot without a chain says why; Copy copies the line and Set goal here sets the goal
// at the robot's joints. The line never widens the Goal dock (which would narrow the 3D view).
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <memory>
#include <numbers>

#include "app/goal/goal_controller.hpp"
#include "app/studio_window_factory.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "panels/goal_panel.hpp"
#include "panels/joints_panel.hpp"
#include "panels/tcp_readout.hpp"
#include "support/test_paths.hpp"
#include "support/units.hpp"

using namespace kinetic;
using kinetic::panels::TcpReadout;

namespace {

// The engine's forward kinematics of the robot's TCP (its planning group's chain, TCP offset
// included), in the chain's base link.
Pose tcp_fk(const RobotModelPtr& robot, const JointVector& q) {
  const KinematicChain chain = KinematicChain::from_config(robot);
  return chain.fk(chain.to_chain(q));
}

// The six numbers of a "Current TCP: x y z | r p y" line; empty when it is not one.
std::vector<double> numbers_of(const QString& line, const QString& prefix) {
  if (!line.startsWith(prefix)) return {};
  QString rest = line.mid(prefix.size());
  rest.replace(QLatin1Char('|'), QLatin1Char(' '));
  std::vector<double> out;
  for (const QString& word : rest.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    bool ok = false;
    out.push_back(word.toDouble(&ok));
    if (!ok) return {};
  }
  return out.size() == 6 ? out : std::vector<double>{};
}

// The line shows `pose` to its decimals (0.1 mm, 0.01°).
bool shows(const QString& line, const QString& prefix, const Pose& pose) {
  const std::vector<double> v = numbers_of(line, prefix);
  if (v.empty()) return false;
  const Eigen::Vector3d rpy = rpy_from_rotation(pose.linear()) * kinetic::test::kDegreesPerRadian;
  for (int i = 0; i < 3; ++i)
    if (std::abs(v[i] - pose.translation()[i]) > 0.6e-4 || std::abs(v[i + 3] - rpy[i]) > 0.6e-2)
      return false;
  return true;
}

// Two revolute joints on one base: movable joints that form no chain, and no planning group.
const char* kForkUrdf =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"fork\">\n"
    "  <link name=\"base\"/>\n"
    "  <link name=\"left\"/>\n"
    "  <link name=\"right\"/>\n"
    "  <joint name=\"a\" type=\"revolute\"><parent link=\"base\"/><child link=\"left\"/>\n"
    "    <axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" "
    "velocity=\"1\"/></joint>\n"
    "  <joint name=\"b\" type=\"revolute\"><parent link=\"base\"/><child link=\"right\"/>\n"
    "    <axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" "
    "velocity=\"1\"/></joint>\n"
    "</robot>\n";

}  // namespace

class TcpReadoutTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qputenv("KINETIC_NO_RECOVERY", "1"); }

  void init() {
    studio_ = app::create_studio(app::CommandLine{});
    QVERIFY(studio_);
    studio_->window->show();
    QCOMPARE(studio_->document->robot()->name(), std::string("ur5e"));
    readout_ = studio_->window->goal_panel()->tcp_readout();
    QVERIFY(readout_);
  }
  void cleanup() { studio_.reset(); }

  void the_line_formats_the_pose() {
    Pose pose = Pose::Identity();
    pose.translation() = Vector3(0.5, -0.00001, 1.23456);
    pose.linear() = rotation_from_rpy(std::numbers::pi, 0.0, std::numbers::pi / 2);
    QCOMPARE(panels::tcp_pose_text(pose),
             QStringLiteral("0.5000 0.0000 1.2346 | 180.00 0.00 90.00"));
  }

  void moving_a_joint_shows_the_forward_kinematics_of_the_tcp() {
    app::StudioDocument& document = *studio_->document;
    const RobotModelPtr robot = document.robot();
    QVERIFY2(
        shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(robot, document.joints())),
        qPrintable(readout_->text()));
    // A user's drag of joint 2's slider to a quarter of its range.
    const QString before = readout_->text();
    QSlider* slider = studio_->window->joints_panel()->slider(1);
    slider->setValue(slider->maximum() / 4);
    const JointVector moved = document.joints();
    QVERIFY(readout_->text() != before);
    QVERIFY2(shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(robot, moved)),
             qPrintable(readout_->text()));
    QCOMPARE(readout_->text(),
             QStringLiteral("Current TCP: ") + panels::tcp_pose_text(tcp_fk(robot, moved)));

    // Playback shows the ghost's TCP, then the robot's again.
    JointVector ghost = moved;
    ghost[0] += 0.7;
    document.set_playback_joints(ghost);
    QVERIFY2(shows(readout_->text(), QStringLiteral("Playback TCP: "), tcp_fk(robot, ghost)),
             qPrintable(readout_->text()));
    QVERIFY(!readout_->set_goal_action()->isEnabled());  // the robot is not there
    document.set_playback_joints(std::nullopt);
    QVERIFY(shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(robot, moved)));

    // Undo, and the robot sent to a goal solved by IK (Current ← goal), move the line with it.
    document.undo_stack().undo();
    QVERIFY(
        shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(robot, document.joints())));
    app::GoalController* goal = studio_->window->goal_controller();
    JointVector reachable = moved;  // a pose the arm can reach, away from where it stands
    reachable[0] += 0.3;
    reachable[2] += 0.4;
    const Pose target = tcp_fk(robot, reachable);
    goal->move_goal(target);
    QTRY_VERIFY_WITH_TIMEOUT(!goal->ik_busy() && document.goal().joints.has_value(), 20000);
    QVERIFY2(!goal->ik_failed(), qPrintable(goal->ik_status()));
    goal->current_from_goal();
    QCOMPARE(document.joints(), *document.goal().joints);
    QVERIFY2(
        shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(robot, document.joints())),
        qPrintable(readout_->text()));
    // Where the goal asked, to IK's tolerance.
    QVERIFY((tcp_fk(robot, document.joints()).translation() - target.translation()).norm() < 1e-3);
  }

  void the_shared_panda_shows_its_tcp() {
    if (!test::shared_robots_available())
      QSKIP("../shared/robots is absent: the real Panda is skipped");
    const QString panda =
        QString::fromStdString(test::example_robot_data_dir() + "/robots/panda_description");
    app::StudioDocument& document = *studio_->document;
    QCOMPARE(document.load_robot(panda + "/urdf/panda.urdf", panda + "/srdf/panda.srdf", {},
                                 {QString::fromStdString(test::shared_robots_dir())}),
             QString());
    JointVector q = document.joints();
    q[3] += 0.4;
    q[5] -= 0.3;
    document.set_joints(q);
    QVERIFY2(shows(readout_->text(), QStringLiteral("Current TCP: "), tcp_fk(document.robot(), q)),
             qPrintable(readout_->text()));
    QVERIFY2(readout_->label()->toolTip().contains(
                 QString::fromStdString(KinematicChain::from_config(document.robot()).base_link())),
             qPrintable(readout_->label()->toolTip()));
  }

  void a_robot_without_a_chain_says_why() {
    QTemporaryDir dir;
    const QString urdf = dir.filePath(QStringLiteral("fork.urdf"));
    std::ofstream(urdf.toStdString()) << kForkUrdf;
    QCOMPARE(studio_->document->load_robot(urdf, QString(), QString()), QString());
    QVERIFY(!readout_->available());
    QVERIFY2(readout_->text().startsWith(
                 QStringLiteral("No TCP: robot 'fork' defines no planning group")),
             qPrintable(readout_->text()));
    QVERIFY(!readout_->label()->toolTip().isEmpty());  // what to do about it
    QVERIFY(!readout_->copy_button()->isEnabled());
    QVERIFY(!readout_->set_goal_action()->isEnabled());
    // Another robot with a chain: the line is back.
    QCOMPARE(studio_->document->load_robot(QStringLiteral("ur5e")), QString());
    QVERIFY(readout_->available());
    QVERIFY(readout_->text().startsWith(QStringLiteral("Current TCP: ")));
  }

  void copy_and_set_goal_here() {
    app::StudioDocument& document = *studio_->document;
    QApplication::clipboard()->clear();
    QTest::mouseClick(readout_->copy_button(), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), readout_->text());
    QApplication::clipboard()->clear();
    readout_->copy_action()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), readout_->text());

    QVERIFY(!document.goal().joints.has_value());
    readout_->set_goal_action()->trigger();
    QVERIFY(document.goal().joints.has_value());
    QCOMPARE(*document.goal().joints, document.joints());
    QVERIFY(document.undo_stack().canUndo());  // an edit like the others
  }

  void the_line_never_widens_the_goal_dock() {
    panels::GoalPanel* panel = studio_->window->goal_panel();
    readout_->hide();  // the panel as it was without the line
    const int without = panel->sizeHint().width();
    readout_->show();
    QCOMPARE(panel->sizeHint().width(), without);
    readout_->set_unavailable(
        QStringLiteral("a reason long enough to be wider than any dock beside the "
                       "3D view, as an engine message naming links can be"));
    QCOMPARE(panel->sizeHint().width(), without);
    Pose far = Pose::Identity();
    far.translation() = Vector3(-1234.5678, -1234.5678, -1234.5678);
    readout_->set_pose(far, QStringLiteral("a_base_link_with_a_long_name"));
    QCOMPARE(panel->sizeHint().width(), without);
  }

 private:
  std::unique_ptr<app::Studio> studio_;
  TcpReadout* readout_ = nullptr;
};

QTEST_MAIN(TcpReadoutTest)
#include "tcp_readout_test.moc"
