#include "panels/tcp_readout.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <numbers>

#include "panels/angle_units.hpp"

namespace kinetic::panels {

namespace {

// Fixed decimals without a sign on a value that rounds to zero ("-0.00" reads as a bug).
QString fixed(double value, int decimals) {
  QString text = QString::number(value, 'f', decimals);
  if (text.startsWith(QLatin1Char('-')) &&
      text.mid(1).remove(QLatin1Char('0')) == QStringLiteral("."))
    text.remove(0, 1);
  return text;
}

}  // namespace

QString tcp_pose_text(const Pose& pose) {
  const Vector3 p = pose.translation();
  const Eigen::Vector3d rpy = rpy_from_rotation(pose.linear()) * kDegrees;
  return QStringLiteral("%1 %2 %3 | %4 %5 %6")
      .arg(fixed(p.x(), 4), fixed(p.y(), 4), fixed(p.z(), 4), fixed(rpy.x(), 2), fixed(rpy.y(), 2),
           fixed(rpy.z(), 2));
}

TcpReadout::TcpReadout(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  label_ = new QLabel(this);
  label_->setWordWrap(true);
  label_->setTextFormat(Qt::PlainText);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The line gives way (wraps) rather than widen the dock, which would narrow the 3D view.
  label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  copy_action_ = new QAction(tr("Copy"), this);
  connect(copy_action_, &QAction::triggered, this, &TcpReadout::copy_to_clipboard);
  set_goal_action_ = new QAction(tr("Set goal here"), this);
  connect(set_goal_action_, &QAction::triggered, this, &TcpReadout::setGoalHereRequested);
  label_->addAction(copy_action_);
  label_->addAction(set_goal_action_);
  label_->setContextMenuPolicy(Qt::ActionsContextMenu);
  layout->addWidget(label_, 1);
  copy_ = new QToolButton(this);
  copy_->setText(tr("Copy"));
  copy_->setAutoRaise(true);
  copy_->setToolTip(tr("Copy the current TCP pose to the clipboard"));
  connect(copy_, &QToolButton::clicked, this, &TcpReadout::copy_to_clipboard);
  layout->addWidget(copy_);
  set_unavailable(tr("no robot is loaded"));
}

void TcpReadout::set_pose(const Pose& pose, const QString& frame, bool playback) {
  available_ = true;
  playback_ = playback;
  label_->setText(
      (playback ? tr("Playback TCP: %1") : tr("Current TCP: %1")).arg(tcp_pose_text(pose)));
  label_->setToolTip(
      tr("Where the %1 TCP is, in '%2' (the goal's frame): x y z in m | roll pitch yaw in degrees "
         "(about the fixed X, Y, Z axes, as URDF writes rpy). Right-click to copy it or to set "
         "the goal there.")
          .arg(playback ? tr("playback ghost's") : tr("robot's"), frame));
  update_actions();
}

void TcpReadout::set_unavailable(const QString& reason, const QString& hint) {
  available_ = false;
  playback_ = false;
  label_->setText(tr("No TCP: %1").arg(reason));
  label_->setToolTip(hint);
  update_actions();
}

QString TcpReadout::text() const {
  return label_->text();
}

void TcpReadout::copy_to_clipboard() const {
  if (available_) QApplication::clipboard()->setText(text());
}

void TcpReadout::update_actions() {
  copy_->setEnabled(available_);
  copy_action_->setEnabled(available_);
  // The goal goes to the robot's joints: not to the playback ghost, where the robot is not.
  set_goal_action_->setEnabled(available_ && !playback_);
}

}  // namespace kinetic::panels
