#include "panels/trajectory_plot.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace kinetic::panels {

namespace {

const QColor kJointColours[] = {QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0xd62728),
                                QColor(0x9467bd), QColor(0x8c564b), QColor(0xe377c2), QColor(0x7f7f7f),
                                QColor(0xbcbd22), QColor(0x17becf)};

QString axis_title(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::Position: return QObject::tr("q");
    case PlotQuantity::Velocity: return QObject::tr("q̇ (/s)");
    case PlotQuantity::Acceleration: return QObject::tr("q̈ (/s²)");
    case PlotQuantity::Jerk: return QObject::tr("jerk (/s³)");
  }
  return {};
}

}  // namespace

TrajectoryPlot::TrajectoryPlot(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setMargins(QMargins(2, 2, 2, 2));
  setChart(chart);
  setRenderHint(QPainter::Antialiasing, false);
  setMinimumHeight(160);
  setToolTip(tr("Click to seek"));
  rebuild();
}

void TrajectoryPlot::set_trajectory(const Trajectory& trajectory, const TrajectoryLimits& limits) {
  trajectory_ = trajectory;
  limits_ = limits;
  cursor_ = trajectory_.start_time();
  rebuild();
}

void TrajectoryPlot::set_quantity(PlotQuantity quantity) {
  if (quantity == quantity_) return;
  quantity_ = quantity;
  rebuild();
}

void TrajectoryPlot::set_cursor(double t) {
  cursor_ = t;
  if (!cursor_series_ || !axis_y_) return;
  cursor_series_->replace(QList<QPointF>{{t, axis_y_->min()}, {t, axis_y_->max()}});
}

void TrajectoryPlot::rebuild() {
  QChart* chart = this->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  joint_series_.clear();
  limit_series_.clear();
  cursor_series_ = nullptr;
  axis_x_ = new QValueAxis;
  axis_x_->setTitleText(tr("t (s)"));
  axis_y_ = new QValueAxis;
  axis_y_->setTitleText(axis_title(quantity_));
  chart->addAxis(axis_x_, Qt::AlignBottom);
  chart->addAxis(axis_y_, Qt::AlignLeft);
  if (trajectory_.empty()) return;

  // Evenly spaced instants (the decimation); jerk is the finite difference of q̈ between them.
  const int n = kPointsPerSeries;
  const double t0 = trajectory_.start_time(), duration = std::max(trajectory_.duration(), 1e-9);
  const double dt = duration / (n - 1);
  std::vector<double> times(n);
  std::vector<JointVector> values(n);
  std::vector<JointVector> acceleration;
  for (int i = 0; i < n; ++i) {
    times[i] = t0 + i * dt;
    const TrajectoryState s = trajectory_.sample(times[i]);
    switch (quantity_) {
      case PlotQuantity::Position: values[i] = s.position; break;
      case PlotQuantity::Velocity: values[i] = s.velocity; break;
      case PlotQuantity::Acceleration:
      case PlotQuantity::Jerk: values[i] = s.acceleration; break;
    }
  }
  if (quantity_ == PlotQuantity::Jerk) {
    acceleration = values;
    for (int i = 0; i < n; ++i) {
      const int a = std::max(0, i - 1), b = std::min(n - 1, i + 1);
      values[i] = (acceleration[b] - acceleration[a]) / (times[b] - times[a]);
    }
  }

  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const int dof = trajectory_.dof();
  for (int j = 0; j < dof; ++j) {
    const QColor colour = kJointColours[j % std::size(kJointColours)];
    auto* series = new QLineSeries;
    series->setName(QString::fromStdString(trajectory_.joint_names()[j]));
    series->setPen(QPen(colour, 1.5));
    QList<QPointF> points;
    points.reserve(n);
    for (int i = 0; i < n; ++i) {
      const double v = values[i][j];
      points.append({times[i], v});
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    series->replace(points);
    chart->addSeries(series);
    series->attachAxis(axis_x_);
    series->attachAxis(axis_y_);
    joint_series_.push_back(series);

    // The joint's limits for this quantity, dashed, not in the legend.
    const auto it = std::find(limits_.joint_names.begin(), limits_.joint_names.end(), trajectory_.joint_names()[j]);
    if (it == limits_.joint_names.end()) continue;
    const int k = static_cast<int>(it - limits_.joint_names.begin());
    std::vector<double> bounds;
    switch (quantity_) {
      case PlotQuantity::Position:
        if (k < limits_.lower.size() && std::isfinite(limits_.lower[k])) bounds.push_back(limits_.lower[k]);
        if (k < limits_.upper.size() && std::isfinite(limits_.upper[k])) bounds.push_back(limits_.upper[k]);
        break;
      case PlotQuantity::Velocity:
        if (k < limits_.velocity.size()) bounds = {-limits_.velocity[k], limits_.velocity[k]};
        break;
      case PlotQuantity::Acceleration:
        if (k < limits_.acceleration.size()) bounds = {-limits_.acceleration[k], limits_.acceleration[k]};
        break;
      case PlotQuantity::Jerk:
        if (k < limits_.jerk.size()) bounds = {-limits_.jerk[k], limits_.jerk[k]};
        break;
    }
    for (double bound : bounds) {
      auto* limit = new QLineSeries;
      QPen pen(colour, 1.0, Qt::DashLine);
      limit->setPen(pen);
      limit->append(t0, bound);
      limit->append(t0 + duration, bound);
      chart->addSeries(limit);
      limit->attachAxis(axis_x_);
      limit->attachAxis(axis_y_);
      chart->legend()->markers(limit).value(0)->setVisible(false);
      limit_series_.push_back(limit);
      // Keep limits on screen only when the motion comes near them (else they flatten the plot).
      if (std::abs(bound) < 2.0 * std::max(std::abs(lo), std::abs(hi)) + 1e-9) {
        lo = std::min(lo, bound);
        hi = std::max(hi, bound);
      }
    }
  }
  if (!(hi > lo)) {
    lo -= 1.0;
    hi += 1.0;
  }
  const double pad = 0.05 * (hi - lo);
  axis_x_->setRange(t0, t0 + duration);
  axis_y_->setRange(lo - pad, hi + pad);

  cursor_series_ = new QLineSeries;
  cursor_series_->setPen(QPen(Qt::black, 1.0));
  chart->addSeries(cursor_series_);
  cursor_series_->attachAxis(axis_x_);
  cursor_series_->attachAxis(axis_y_);
  chart->legend()->markers(cursor_series_).value(0)->setVisible(false);
  set_cursor(cursor_);
}

double TrajectoryPlot::time_at(const QPoint& position) const {
  const QPointF scene = mapToScene(position);
  const QPointF in_chart = chart()->mapFromScene(scene);
  return chart()->mapToValue(in_chart, joint_series_.empty() ? nullptr : joint_series_.front()).x();
}

void TrajectoryPlot::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && !trajectory_.empty() &&
      chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->pos())))) {
    const double t = std::clamp(time_at(event->pos()), trajectory_.start_time(), trajectory_.end_time());
    emit seekRequested(t);
    event->accept();
    return;
  }
  QChartView::mousePressEvent(event);
}

}  // namespace kinetic::panels
