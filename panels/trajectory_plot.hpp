#pragma once
// TrajectoryPlot: q, q̇, q̈ or jerk (finite difference of q̈) of every joint over time, one series
// per joint, each joint's limits as dashed lines in its colour, and a vertical cursor at the
// playback time. Clicking the plot asks to seek there. The trajectory is sampled at ~1000 evenly
// spaced instants, so long trajectories draw as fast as short ones.
#include <QChartView>
#include <vector>

#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

class QLineSeries;
class QValueAxis;

namespace kinetic::panels {

enum class PlotQuantity { Position, Velocity, Acceleration, Jerk };

class TrajectoryPlot : public QChartView {
  Q_OBJECT
 public:
  static constexpr int kPointsPerSeries = 1000;

  explicit TrajectoryPlot(QWidget* parent = nullptr);

  // limits: matched to the trajectory's joints by name (joints without limits draw none).
  void set_trajectory(const Trajectory& trajectory, const TrajectoryLimits& limits);
  void set_quantity(PlotQuantity quantity);
  PlotQuantity quantity() const { return quantity_; }
  void set_cursor(double t);
  double cursor() const { return cursor_; }

  // Test access: data series (one per joint) and limit series (dashed).
  const std::vector<QLineSeries*>& joint_series() const { return joint_series_; }
  const std::vector<QLineSeries*>& limit_series() const { return limit_series_; }
  double time_at(const QPoint& position) const;

 signals:
  void seekRequested(double t);

 protected:
  void mousePressEvent(QMouseEvent* event) override;

 private:
  void rebuild();

  Trajectory trajectory_;
  TrajectoryLimits limits_;
  PlotQuantity quantity_ = PlotQuantity::Position;
  double cursor_ = 0.0;
  std::vector<QLineSeries*> joint_series_, limit_series_;
  QLineSeries* cursor_series_ = nullptr;
  QValueAxis *axis_x_ = nullptr, *axis_y_ = nullptr;
};

}  // namespace kinetic::panels
