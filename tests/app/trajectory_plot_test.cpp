// Qt Test: the Trajectories panel's plot — hiding joints from the legend (kept by name across
// trajectories and quantities, the y range fitting what is shown, Show all), and the TCP speed
// quantity (r·ω for one revolute joint, checked against FK; an empty plot that says why; the
// studio telling the plot its robot's TCP).
#include <QAction>
#include <QComboBox>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QMainWindow>
#include <QValueAxis>
#include <QtTest>
#include <cmath>

#include "app/document/studio_document.hpp"
#include "app/planning/planning_features.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "panels/trajectory_panel.hpp"
#include "panels/trajectory_plot.hpp"

using namespace kinetic;
using kinetic::panels::PlotQuantity;
using kinetic::panels::TrajectoryPanel;
using kinetic::panels::TrajectoryPlot;

namespace {

// Joint 0 swings by ±big, the others by ±small.
Trajectory swing(double big, double small, const TrajectoryLimits& limits) {
  JointVector out = JointVector::Constant(6, small), back = JointVector::Constant(6, -small);
  out[0] = big;
  back[0] = -big;
  return trapezoidal(JointPath{JointVector::Zero(6), out, back}, limits);
}

QValueAxis* y_axis(const TrajectoryPlot& plot) {
  return qobject_cast<QValueAxis*>(plot.chart()->axes(Qt::Vertical).value(0));
}

QLineSeries* series_named(const std::vector<QLineSeries*>& series, const QString& name) {
  for (QLineSeries* s : series)
    if (s->name() == name) return s;
  return nullptr;
}

QLegendMarker* marker_of(const TrajectoryPlot& plot, QLineSeries* series) {
  return plot.chart()->legend()->markers(series).value(0);
}

// The joint's two limit lines: the limit series whose pen has the joint's colour.
std::vector<QLineSeries*> limits_of(const TrajectoryPlot& plot, QLineSeries* series) {
  std::vector<QLineSeries*> out;
  for (QLineSeries* limit : plot.limit_series())
    if (limit->pen().color() == series->pen().color()) out.push_back(limit);
  return out;
}

// The TCP's position (link pose times the link -> TCP offset), straight from FK.
Vector3 tcp_position(const RobotModel& robot, const app::TcpFrame& tcp, const JointVector& q) {
  return (compute_link_poses(robot, q)[static_cast<std::size_t>(tcp.link)] * tcp.offset)
      .translation();
}

}  // namespace

class TrajectoryPlotTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    robot_ = load_builtin_robot("ur5e");
    limits_ = TrajectoryLimits::from_model(*robot_);
  }

  void a_legend_click_hides_a_joint_and_its_limits_and_the_range_fits_the_rest() {
    TrajectoryPanel panel;
    panel.set_limits(limits_);
    panel.set_trajectories({{QStringLiteral("big"), swing(2.0, 0.1, limits_)},
                            {QStringLiteral("other"), swing(1.5, 0.2, limits_)}});
    panel.set_current(0);
    panel.resize(1400, 400);  // the legend's entries are laid out (and visible) once shown
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    TrajectoryPlot* plot = panel.plot();
    const QString first = QString::fromStdString(limits_.joint_names[0]);
    QLineSeries* joint = series_named(plot->joint_series(), first);
    QVERIFY(joint);
    // The default look: no title, every joint shown, limits without legend entries.
    QVERIFY(plot->title().isEmpty());
    QVERIFY(!plot->show_all_action()->isEnabled());
    for (QLineSeries* s : plot->joint_series())
      QTRY_VERIFY(s->isVisible() && marker_of(*plot, s)->isVisible());
    for (QLineSeries* s : plot->limit_series()) QVERIFY(!marker_of(*plot, s)->isVisible());
    const double full_max = y_axis(*plot)->max();
    QVERIFY2(full_max > 2.0, qPrintable(QString::number(full_max)));

    panel.quantity_combo()->setCurrentIndex(
        panel.quantity_combo()->findData(int(PlotQuantity::Velocity)));
    joint = series_named(plot->joint_series(), first);
    QCOMPARE(limits_of(*plot, joint).size(), std::size_t(2));
    const double velocity_max = y_axis(*plot)->max();
    emit marker_of(*plot, joint)->clicked();  // what a click on the legend entry does
    QVERIFY(!joint->isVisible());
    for (QLineSeries* limit : limits_of(*plot, joint)) QVERIFY(!limit->isVisible());
    // The entry stays, faded, to be clicked again (once the legend is laid out: Qt hides its
    // entries until then).
    QTRY_VERIFY(marker_of(*plot, joint)->isVisible());
    QVERIFY(marker_of(*plot, joint)->labelBrush().color().alphaF() < 0.5);
    QVERIFY(series_named(plot->joint_series(), QString::fromStdString(limits_.joint_names[1]))
                ->isVisible());
    QVERIFY2(y_axis(*plot)->max() < velocity_max,
             qPrintable(QString::number(y_axis(*plot)->max())));
    QVERIFY(plot->show_all_action()->isEnabled());

    // Kept by name through another quantity and another trajectory; the range fits the others.
    panel.quantity_combo()->setCurrentIndex(
        panel.quantity_combo()->findData(int(PlotQuantity::Position)));
    QVERIFY(!series_named(plot->joint_series(), first)->isVisible());
    QVERIFY2(y_axis(*plot)->max() < 0.5 && y_axis(*plot)->max() >= 0.1,
             qPrintable(QString::number(y_axis(*plot)->max())));
    panel.set_current(1);
    joint = series_named(plot->joint_series(), first);
    QVERIFY(!joint->isVisible());
    for (QLineSeries* limit : limits_of(*plot, joint)) QVERIFY(!limit->isVisible());
    QVERIFY2(y_axis(*plot)->max() < 0.5 && y_axis(*plot)->max() >= 0.2,
             qPrintable(QString::number(y_axis(*plot)->max())));

    // A second click shows it again; so does Show all joints (the context menu's).
    emit marker_of(*plot, joint)->clicked();
    QVERIFY(joint->isVisible());
    QVERIFY(marker_of(*plot, joint)->labelBrush().color().alphaF() > 0.99);
    QVERIFY(y_axis(*plot)->max() > 1.5);
    QVERIFY(!plot->show_all_action()->isEnabled());
    for (std::size_t j : {0u, 3u, 5u})
      plot->set_hidden(QString::fromStdString(limits_.joint_names[j]), true);
    QCOMPARE(plot->hidden().size(), 3);
    plot->show_all_action()->trigger();
    QVERIFY(plot->hidden().isEmpty());
    for (QLineSeries* s : plot->joint_series()) QVERIFY(s->isVisible());
    for (QLineSeries* s : plot->limit_series())
      QVERIFY(s->isVisible() && !marker_of(*plot, s)->isVisible());
    QVERIFY(y_axis(*plot)->max() > 1.5);
  }

  // shoulder_pan turns alone at ω: the TCP moves on a circle about its axis at r·ω and turns at ω.
  void tcp_speed_of_one_turning_joint_is_r_omega() {
    const app::TcpFrame tcp = app::resolve_tcp_frame(*robot_, "");
    QVERIFY(tcp.link >= 0);
    const double omega = 0.8;
    JointVector q0(6);
    q0 << 0.2, -1.0, 1.2, -1.5, 0.4, 0.3;
    JointVector velocity = JointVector::Zero(6);
    velocity[0] = omega;
    const double duration = 1.5;
    const JointVector zero = JointVector::Zero(6);
    const Trajectory turn(
        robot_->name(), robot_->variable_names(),
        std::vector<PositionUnit>(6, PositionUnit::Radian),
        {{0.0, q0, velocity, zero}, {duration, q0 + duration * velocity, velocity, zero}});

    // Expected, from FK alone: the chord between two close poses over the time between them, and
    // r (the TCP's distance from the joint's axis line) times ω.
    const double dt = 1e-6;
    const Vector3 a = tcp_position(*robot_, tcp, q0),
                  b = tcp_position(*robot_, tcp, q0 + dt * velocity);
    const double differenced = (b - a).norm() / dt;
    const Joint& pan = robot_->joint(robot_->variable_names()[0]);
    const Pose pan_frame =
        compute_link_poses(*robot_, q0)[static_cast<std::size_t>(pan.child_link)];
    const Vector3 axis = (pan_frame.linear() * pan.axis).normalized();
    const double r = (a - pan_frame.translation()).cross(axis).norm();
    QVERIFY2(r > 0.3,
             qPrintable(QString::number(r)));  // a pose reaching out, not a degenerate check
    QVERIFY2(std::abs(differenced - r * omega) < 1e-5,
             qPrintable(QStringLiteral("%1 vs %2").arg(differenced).arg(r * omega)));

    TrajectoryPanel panel;
    panel.set_limits(limits_);
    panel.set_tcp_source({robot_, tcp.link, tcp.offset});
    panel.set_trajectories({{QStringLiteral("turn"), turn}});
    panel.set_current(0);
    const int tcp_item = panel.quantity_combo()->findData(int(PlotQuantity::TcpSpeed));
    QVERIFY(tcp_item >= 0);
    panel.quantity_combo()->setCurrentIndex(tcp_item);
    TrajectoryPlot* plot = panel.plot();
    QCOMPARE(plot->quantity(), PlotQuantity::TcpSpeed);
    QVERIFY(plot->joint_series().empty());
    QCOMPARE(plot->tcp_series().size(), std::size_t(2));
    QVERIFY2(plot->title().contains(
                 QString::fromStdString(robot_->links()[static_cast<std::size_t>(tcp.link)].name)),
             qPrintable(plot->title()));
    QVERIFY(plot->message().isEmpty());
    QCOMPARE(y_axis(*plot)->min(), 0.0);  // speeds from standstill up
    const QLineSeries *linear = plot->tcp_series()[0], *angular = plot->tcp_series()[1];
    QCOMPARE(linear->count(), TrajectoryPlot::kPointsPerSeries);
    for (int i = 0; i < linear->count(); i += 37) {
      QVERIFY2(std::abs(linear->at(i).y() - r * omega) < 1e-6,
               qPrintable(QStringLiteral("t %1: %2 m/s, r·ω %3")
                              .arg(linear->at(i).x())
                              .arg(linear->at(i).y())
                              .arg(r * omega)));
      QVERIFY2(std::abs(angular->at(i).y() - omega) < 1e-9,
               qPrintable(QString::number(angular->at(i).y())));
    }
    QVERIFY(std::abs(linear->at(linear->count() - 1).x() - duration) < 1e-12);
    // The cursor still follows playback on this quantity.
    panel.set_time(0.5);
    QCOMPARE(plot->cursor(), 0.5);
    // Hiding the angular curve fits the range to the linear one (below ω here).
    QVERIFY(y_axis(*plot)->max() > omega);
    emit marker_of(*plot, plot->tcp_series()[1])->clicked();
    QVERIFY(!plot->tcp_series()[1]->isVisible());
    QVERIFY2(y_axis(*plot)->max() < omega && y_axis(*plot)->max() > r * omega,
             qPrintable(QString::number(y_axis(*plot)->max())));

    // A TCP off its link (a tool 10 cm beside the flange's axis, 15 cm out) turned by the last
    // joint alone: it moves at 0.1 m/s per rad/s where the flange's centre stands still.
    app::TcpFrame tool = tcp;
    tool.offset.translation() = Vector3(0.1, 0.0, 0.15);
    JointVector wrist = JointVector::Zero(6);
    wrist[5] = omega;
    const Trajectory twist(
        robot_->name(), robot_->variable_names(),
        std::vector<PositionUnit>(6, PositionUnit::Radian),
        {{0.0, q0, wrist, zero}, {duration, q0 + duration * wrist, wrist, zero}});
    const double tool_speed =
        (tcp_position(*robot_, tool, q0 + dt * wrist) - tcp_position(*robot_, tool, q0)).norm() /
        dt;
    QVERIFY2(std::abs(tool_speed - 0.1 * omega) < 1e-5, qPrintable(QString::number(tool_speed)));
    panel.set_tcp_source({robot_, tool.link, tool.offset});
    panel.set_trajectories({{QStringLiteral("twist"), twist}});
    QCOMPARE(plot->tcp_series().size(), std::size_t(2));
    for (int i = 0; i < plot->tcp_series()[0]->count(); i += 37) {
      QVERIFY2(std::abs(plot->tcp_series()[0]->at(i).y() - tool_speed) < 1e-6,
               qPrintable(QString::number(plot->tcp_series()[0]->at(i).y())));
      QVERIFY(std::abs(plot->tcp_series()[1]->at(i).y() - omega) < 1e-9);
    }
  }

  // The studio gives the plot the loaded robot's TCP, and another robot's on a switch.
  void the_studio_tells_the_plot_its_robots_tcp() {
    QMainWindow window;
    app::StudioDocument document;
    QCOMPARE(document.load_robot(QStringLiteral("panda")), QString());
    app::PlanningFeatures* features = app::install_planning_features(window, document);
    const int dof = document.robot()->dof();
    const JointVector rest = document.robot()->default_configuration(),
                      still = JointVector::Zero(dof);
    JointVector end = rest;
    end[0] += 1.0;
    document.add_trajectory(
        QStringLiteral("pan"),
        Trajectory("panda", document.robot()->variable_names(),
                   std::vector<PositionUnit>(static_cast<std::size_t>(dof), PositionUnit::Radian),
                   {{0.0, rest, still, still}, {1.0, end, still, still}}));
    TrajectoryPanel* panel = features->trajectories().trajectory_panel();
    panel->set_current(0);
    panel->quantity_combo()->setCurrentIndex(
        panel->quantity_combo()->findData(int(PlotQuantity::TcpSpeed)));
    QCOMPARE(panel->plot()->tcp_series().size(), std::size_t(2));
    QVERIFY2(panel->plot()->title().contains(QStringLiteral("tool0")),
             qPrintable(panel->plot()->title()));
    QVERIFY(panel->plot()->message().isEmpty());

    // The UR5e has no joint7: the kept trajectory is another robot's.
    QCOMPARE(document.load_robot(QStringLiteral("ur5e")), QString());
    QCOMPARE(panel->list()->count(), 1);
    panel->set_current(0);
    QVERIFY(panel->plot()->tcp_series().empty());
    QVERIFY2(panel->plot()->message().contains(QStringLiteral("'joint7'")) &&
                 panel->plot()->message().contains(QStringLiteral("ur5e")),
             qPrintable(panel->plot()->message()));
  }

  void the_tcp_plot_says_why_it_is_empty() {
    TrajectoryPlot plot;
    plot.set_quantity(PlotQuantity::TcpSpeed);
    plot.set_trajectory(swing(1.0, 0.1, limits_), limits_);
    QVERIFY(plot.tcp_series().empty() && plot.joint_series().empty());
    QVERIFY2(plot.message().contains(QStringLiteral("no robot")), qPrintable(plot.message()));
    plot.set_cursor(0.3);  // nothing to draw it across, no crash
    plot.resize(500, 300);
    plot.show();
    QTest::mouseClick(plot.viewport(), Qt::LeftButton, {}, QPoint(250, 150));

    // Another robot's trajectory (joints joint_1 ... joint_6, which the UR5e does not have).
    const TrajectoryLimits other = TrajectoryLimits::uniform(6, 1.0, 2.0, 10.0);
    const app::TcpFrame tcp = app::resolve_tcp_frame(*robot_, "");
    plot.set_tcp_source({robot_, tcp.link, tcp.offset});
    plot.set_trajectory(
        trapezoidal(JointPath{JointVector::Zero(6), JointVector::Constant(6, 0.5)}, other), other);
    QVERIFY(plot.tcp_series().empty());
    QVERIFY2(plot.message().contains(QStringLiteral("joint_1")) &&
                 plot.message().contains(QStringLiteral("another robot")),
             qPrintable(plot.message()));

    // A robot without a known TCP link.
    plot.set_tcp_source({robot_, -1, Pose::Identity()});
    plot.set_trajectory(swing(1.0, 0.1, limits_), limits_);
    QVERIFY(plot.tcp_series().empty());
    QVERIFY2(plot.message().contains(QStringLiteral("has no TCP link")),
             qPrintable(plot.message()));

    // Back on the joints, the message goes.
    plot.set_quantity(PlotQuantity::Position);
    QVERIFY(plot.message().isEmpty() && plot.title().isEmpty());
    QCOMPARE(plot.joint_series().size(), std::size_t(6));
  }

 private:
  RobotModelPtr robot_;
  TrajectoryLimits limits_;
};

QTEST_MAIN(TrajectoryPlotTest)
#include "trajectory_plot_test.moc"
