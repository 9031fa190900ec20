#pragma once
// TrajectoryPlot: q, q̇, q̈ or jerk (finite difference of q̈) of every joint over time, one series
// per joint, each joint's limits as dashed lines in its colour, and a vertical cursor at the
// playback time; or the TCP's linear and angular speed. Clicking the plot asks to seek there.
// Clicking a legend entry hides that curve (and its limits; the entry stays, greyed) or shows it
// again; the hidden names are kept across trajectories and quantities, and the y range fits the
// visible curves. The trajectory is sampled at ~1000 evenly spaced instants, so long trajectories
// draw as fast as short ones.
#include <QChartView>
#include <QSet>
#include <QString>
#include <vector>

#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"
#include "panels/tcp_speed.hpp"

class QAction;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace kinetic::panels {

enum class PlotQuantity { Position, Velocity, Acceleration, Jerk, TcpSpeed };

class TrajectoryPlot : public QChartView {
  Q_OBJECT
 public:
  static constexpr int kPointsPerSeries = 1000;

  explicit TrajectoryPlot(QWidget* parent = nullptr);

  // limits: matched to the trajectory's joints by name (joints without limits draw none).
  void set_trajectory(const Trajectory& trajectory, const TrajectoryLimits& limits);
  void set_quantity(PlotQuantity quantity);
  PlotQuantity quantity() const { return quantity_; }
  // The robot and TCP that PlotQuantity::TcpSpeed follows (without one it says why it is empty).
  void set_tcp_source(const TcpPlotSource& source);
  void set_cursor(double t);
  double cursor() const { return cursor_; }

  // Curves hidden by name (a joint's, or a TCP series'), as a legend click does.
  void set_hidden(const QString& name, bool hidden);
  const QSet<QString>& hidden() const { return hidden_; }
  void show_all_joints();

  // Test access: data series (one per joint; the TCP's linear and angular speed), limit series
  // (dashed), the context menu's "Show all joints", the chart's title (the TCP's link) and the
  // message shown instead of an empty plot (why TcpSpeed has nothing to show).
  const std::vector<QLineSeries*>& joint_series() const { return joint_series_; }
  const std::vector<QLineSeries*>& tcp_series() const { return tcp_series_; }
  const std::vector<QLineSeries*>& limit_series() const { return limit_series_; }
  QAction* show_all_action() const { return show_all_; }
  QString title() const;
  QString message() const;
  double time_at(const QPoint& position) const;

 signals:
  void seekRequested(double t);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // A legend entry and what it hides: its series and its limit lines.
  struct Curve {
    QLineSeries* series = nullptr;
    std::vector<QLineSeries*> limits;
    std::vector<double> bounds;  // the limits' values
    double lo = 0.0, hi = 0.0;   // of the data
    bool greyed = false;         // the legend entry is drawn as hidden
  };

  void rebuild();
  void add_joint_curves(const std::vector<double>& times);
  void add_tcp_curves(const std::vector<double>& times);
  QLineSeries* add_curve(const QString& name, const QColor& colour,
                         const std::vector<double>& times, const std::vector<double>& values);
  void add_limit(Curve& curve, const QColor& colour, double bound);
  void apply_visibility();  // series, limits, legend entries and the y range

  Trajectory trajectory_;
  TrajectoryLimits limits_;
  TcpPlotSource tcp_source_;
  PlotQuantity quantity_ = PlotQuantity::Position;
  double cursor_ = 0.0;
  QSet<QString> hidden_;
  std::vector<Curve> curves_;
  std::vector<QLineSeries*> joint_series_, tcp_series_, limit_series_;
  QLineSeries* cursor_series_ = nullptr;
  QValueAxis *axis_x_ = nullptr, *axis_y_ = nullptr;
  QAction* show_all_ = nullptr;
  QLabel* message_ = nullptr;  // over the empty plot, wrapped (a chart title would be cut short)
};

}  // namespace kinetic::panels
