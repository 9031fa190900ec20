#include "panels/trajectory_plot.hpp"

#include <QAction>
#include <QChart>
#include <QContextMenuEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace kinetic::panels {

namespace {

const QColor kJointColours[] = {
    QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0xd62728), QColor(0x9467bd),
    QColor(0x8c564b), QColor(0xe377c2), QColor(0x7f7f7f), QColor(0xbcbd22), QColor(0x17becf)};

QString axis_title(PlotQuantity quantity) {
  switch (quantity) {
    case PlotQuantity::Position:
      return QObject::tr("q");
    case PlotQuantity::Velocity:
      return QObject::tr("q̇ (/s)");
    case PlotQuantity::Acceleration:
      return QObject::tr("q̈ (/s²)");
    case PlotQuantity::Jerk:
      return QObject::tr("jerk (/s³)");
    case PlotQuantity::TcpSpeed:
      return QObject::tr("m/s, rad/s");
  }
  return {};
}

// A hidden curve's legend entry stays (to be clicked again), faded.
void fade(QLegendMarker* marker, bool faded) {
  const qreal alpha = faded ? 0.3 : 1.0;
  QBrush label = marker->labelBrush();
  QColor colour = label.color();
  colour.setAlphaF(alpha);
  label.setColor(colour);
  marker->setLabelBrush(label);
  QBrush brush = marker->brush();
  colour = brush.color();
  colour.setAlphaF(alpha);
  brush.setColor(colour);
  marker->setBrush(brush);
  QPen pen = marker->pen();
  colour = pen.color();
  colour.setAlphaF(alpha);
  pen.setColor(colour);
  marker->setPen(pen);
}

}  // namespace

TrajectoryPlot::TrajectoryPlot(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setMargins(QMargins(2, 2, 2, 2));
  setChart(chart);
  setRenderHint(QPainter::Antialiasing, false);
  setMinimumHeight(160);
  setToolTip(tr(
      "Click to seek; click a legend entry to hide or show that curve; right-click to show all"));
  show_all_ = new QAction(tr("Show all joints"), this);
  show_all_->setEnabled(false);
  connect(show_all_, &QAction::triggered, this, &TrajectoryPlot::show_all_joints);
  message_ = new QLabel(viewport());
  message_->setWordWrap(true);
  message_->setAlignment(Qt::AlignCenter);
  message_->setAttribute(Qt::WA_TransparentForMouseEvents);
  message_->hide();
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

void TrajectoryPlot::set_tcp_source(const TcpPlotSource& source) {
  tcp_source_ = source;
  if (quantity_ == PlotQuantity::TcpSpeed) rebuild();
}

void TrajectoryPlot::set_cursor(double t) {
  cursor_ = t;
  if (!cursor_series_ || !axis_y_) return;
  cursor_series_->replace(QList<QPointF>{{t, axis_y_->min()}, {t, axis_y_->max()}});
}

void TrajectoryPlot::set_hidden(const QString& name, bool hidden) {
  if (hidden == hidden_.contains(name)) return;
  if (hidden)
    hidden_.insert(name);
  else
    hidden_.remove(name);
  apply_visibility();  // in place: a legend click must not delete the marker it came from
}

void TrajectoryPlot::show_all_joints() {
  if (hidden_.isEmpty()) return;
  hidden_.clear();
  apply_visibility();
}

QString TrajectoryPlot::title() const {
  return chart()->title();
}

QString TrajectoryPlot::message() const {
  return message_->text();
}

void TrajectoryPlot::rebuild() {
  QChart* chart = this->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
  curves_.clear();
  joint_series_.clear();
  tcp_series_.clear();
  limit_series_.clear();
  cursor_series_ = nullptr;
  chart->setTitle(QString());
  message_->clear();
  message_->hide();
  axis_x_ = new QValueAxis;
  axis_x_->setTitleText(tr("t (s)"));
  axis_y_ = new QValueAxis;
  axis_y_->setTitleText(axis_title(quantity_));
  chart->addAxis(axis_x_, Qt::AlignBottom);
  chart->addAxis(axis_y_, Qt::AlignLeft);

  // Evenly spaced instants (the decimation).
  const int n = trajectory_.empty() ? 0 : kPointsPerSeries;
  const double t0 = trajectory_.start_time(), duration = std::max(trajectory_.duration(), 1e-9);
  const double dt = duration / (n - 1);
  std::vector<double> times(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) times[static_cast<std::size_t>(i)] = t0 + i * dt;
  if (quantity_ == PlotQuantity::TcpSpeed)
    add_tcp_curves(times);
  else if (n > 0)
    add_joint_curves(times);
  if (curves_.empty()) return;

  axis_x_->setRange(t0, t0 + duration);
  cursor_series_ = new QLineSeries;
  cursor_series_->setPen(QPen(Qt::black, 1.0));
  chart->addSeries(cursor_series_);
  cursor_series_->attachAxis(axis_x_);
  cursor_series_->attachAxis(axis_y_);
  chart->legend()->markers(cursor_series_).value(0)->setVisible(false);
  apply_visibility();  // the y range, then the cursor across it
}

void TrajectoryPlot::add_joint_curves(const std::vector<double>& times) {
  // Jerk is the finite difference of q̈ between the instants.
  const int n = static_cast<int>(times.size());
  std::vector<JointVector> values(times.size());
  for (int i = 0; i < n; ++i) {
    const TrajectoryState s = trajectory_.sample(times[i]);
    values[i] = quantity_ == PlotQuantity::Position   ? s.position
                : quantity_ == PlotQuantity::Velocity ? s.velocity
                                                      : s.acceleration;
  }
  if (quantity_ == PlotQuantity::Jerk) {
    const std::vector<JointVector> acceleration = values;
    for (int i = 0; i < n; ++i) {
      const int a = std::max(0, i - 1), b = std::min(n - 1, i + 1);
      values[i] = (acceleration[b] - acceleration[a]) / (times[b] - times[a]);
    }
  }

  std::vector<double> column(times.size());
  for (int j = 0; j < trajectory_.dof(); ++j) {
    const QColor colour = kJointColours[j % std::size(kJointColours)];
    for (int i = 0; i < n; ++i) column[i] = values[i][j];
    const std::string& name = trajectory_.joint_names()[j];
    joint_series_.push_back(add_curve(QString::fromStdString(name), colour, times, column));

    // The joint's limits for this quantity, dashed, not in the legend.
    const auto it = std::find(limits_.joint_names.begin(), limits_.joint_names.end(), name);
    if (it == limits_.joint_names.end()) continue;
    const int k = static_cast<int>(it - limits_.joint_names.begin());
    std::vector<double> bounds;
    switch (quantity_) {
      case PlotQuantity::Position:
        if (k < limits_.lower.size() && std::isfinite(limits_.lower[k]))
          bounds.push_back(limits_.lower[k]);
        if (k < limits_.upper.size() && std::isfinite(limits_.upper[k]))
          bounds.push_back(limits_.upper[k]);
        break;
      case PlotQuantity::Velocity:
        if (k < limits_.velocity.size()) bounds = {-limits_.velocity[k], limits_.velocity[k]};
        break;
      case PlotQuantity::Acceleration:
        if (k < limits_.acceleration.size())
          bounds = {-limits_.acceleration[k], limits_.acceleration[k]};
        break;
      case PlotQuantity::Jerk:
        if (k < limits_.jerk.size()) bounds = {-limits_.jerk[k], limits_.jerk[k]};
        break;
      case PlotQuantity::TcpSpeed:
        break;
    }
    for (double bound : bounds) add_limit(curves_.back(), colour, bound);
  }
}

void TrajectoryPlot::add_tcp_curves(const std::vector<double>& times) {
  const TcpSpeeds speeds = tcp_speeds(tcp_source_, trajectory_, times);
  if (!speeds.problem.empty()) {
    message_->setText(tr("No TCP speed: %1.").arg(QString::fromStdString(speeds.problem)));
    message_->show();
    return;
  }
  const std::string& link =
      tcp_source_.robot->links()[static_cast<std::size_t>(tcp_source_.link)].name;
  chart()->setTitle(tr("TCP speed of %1").arg(QString::fromStdString(link)));
  tcp_series_.push_back(add_curve(tr("linear (m/s)"), kJointColours[0], times, speeds.linear));
  tcp_series_.push_back(add_curve(tr("angular (rad/s)"), kJointColours[1], times, speeds.angular));
  // No limit line: no Cartesian speed limit binds a trajectory (timing limits are per joint; the
  // servo's max_linear_speed caps teleoperation only).
}

QLineSeries* TrajectoryPlot::add_curve(const QString& name, const QColor& colour,
                                       const std::vector<double>& times,
                                       const std::vector<double>& values) {
  auto* series = new QLineSeries;
  series->setName(name);
  series->setPen(QPen(colour, 1.5));
  Curve curve;
  curve.series = series;
  curve.lo = std::numeric_limits<double>::infinity();
  curve.hi = -curve.lo;
  QList<QPointF> points;
  points.reserve(static_cast<qsizetype>(times.size()));
  for (std::size_t i = 0; i < times.size(); ++i) {
    points.append({times[i], values[i]});
    curve.lo = std::min(curve.lo, values[i]);
    curve.hi = std::max(curve.hi, values[i]);
  }
  series->replace(points);
  chart()->addSeries(series);
  series->attachAxis(axis_x_);
  series->attachAxis(axis_y_);
  if (QLegendMarker* marker = chart()->legend()->markers(series).value(0))
    connect(marker, &QLegendMarker::clicked, this,
            [this, name] { set_hidden(name, !hidden_.contains(name)); });
  curves_.push_back(std::move(curve));
  return series;
}

void TrajectoryPlot::add_limit(Curve& curve, const QColor& colour, double bound) {
  auto* limit = new QLineSeries;
  limit->setPen(QPen(colour, 1.0, Qt::DashLine));
  const double t0 = trajectory_.start_time();
  limit->append(t0, bound);
  limit->append(t0 + std::max(trajectory_.duration(), 1e-9), bound);
  chart()->addSeries(limit);
  limit->attachAxis(axis_x_);
  limit->attachAxis(axis_y_);
  chart()->legend()->markers(limit).value(0)->setVisible(false);
  curve.limits.push_back(limit);
  curve.bounds.push_back(bound);
  limit_series_.push_back(limit);
}

void TrajectoryPlot::apply_visibility() {
  show_all_->setEnabled(!hidden_.isEmpty());
  if (curves_.empty()) return;  // an empty plot keeps its axes as they are
  QLegend* legend = chart()->legend();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (Curve& curve : curves_) {
    const bool visible = !hidden_.contains(curve.series->name());
    if (curve.series->isVisible() != visible) {
      curve.series->setVisible(visible);  // Qt hides the legend entries with it
      for (QLineSeries* limit : curve.limits) {
        limit->setVisible(visible);
        legend->markers(limit).value(0)->setVisible(false);  // limits have no legend entry
      }
    }
    if (curve.greyed == visible) {
      QLegendMarker* marker = legend->markers(curve.series).value(0);
      fade(marker, !visible);
      marker->setVisible(true);
      curve.greyed = !visible;
    }
    if (!visible) continue;
    lo = std::min(lo, curve.lo);
    hi = std::max(hi, curve.hi);
    // Keep limits on screen only when the motion comes near them (else they flatten the plot).
    for (double bound : curve.bounds)
      if (std::abs(bound) < 2.0 * std::max(std::abs(lo), std::abs(hi)) + 1e-9) {
        lo = std::min(lo, bound);
        hi = std::max(hi, bound);
      }
  }
  if (!std::isfinite(lo)) {  // everything hidden
    lo = -1.0;
    hi = 1.0;
  } else {
    if (quantity_ == PlotQuantity::TcpSpeed) lo = 0.0;  // speeds: from standstill up
    if (!(hi > lo)) {
      lo -= 1.0;
      hi += 1.0;
    }
  }
  const double pad = 0.05 * (hi - lo);
  // Speeds (never negative) start at the axis, without padding below standstill.
  axis_y_->setRange(quantity_ == PlotQuantity::TcpSpeed ? 0.0 : lo - pad, hi + pad);
  set_cursor(cursor_);
}

double TrajectoryPlot::time_at(const QPoint& position) const {
  const QPointF scene = mapToScene(position);
  const QPointF in_chart = chart()->mapFromScene(scene);
  return chart()->mapToValue(in_chart, cursor_series_).x();
}

void TrajectoryPlot::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && cursor_series_ &&
      chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->pos())))) {
    const double t =
        std::clamp(time_at(event->pos()), trajectory_.start_time(), trajectory_.end_time());
    emit seekRequested(t);
    event->accept();
    return;
  }
  QChartView::mousePressEvent(event);
}

void TrajectoryPlot::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  message_->setGeometry(viewport()->rect().adjusted(12, 12, -12, -12));
}

void TrajectoryPlot::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(show_all_);
  menu.exec(event->globalPos());
  event->accept();
}

}  // namespace kinetic::panels
