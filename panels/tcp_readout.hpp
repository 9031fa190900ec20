#pragma once
// One read-only line saying where the robot's TCP is: "Current TCP: x y z | r p y" (m; roll,
// pitch, yaw in degrees, extrinsic X, Y, Z as URDF writes them), or why there is none. A Copy
// button and the line's context menu copy it; the menu also sets the goal there. It shows what it
// is given; the studio computes the pose.
#include <QString>
#include <QWidget>

#include "engine/core/types.hpp"

class QAction;
class QLabel;
class QToolButton;

namespace kinetic::panels {

// "x y z | r p y": 4 decimals in m (0.1 mm), 2 in degrees; never "-0.0000".
QString tcp_pose_text(const Pose& pose);

class TcpReadout : public QWidget {
  Q_OBJECT
 public:
  explicit TcpReadout(QWidget* parent = nullptr);

  // `frame`: the link the pose is in (said in the tooltip). `playback`: the pose is the playback
  // ghost's, not the robot's (the line says "Playback TCP").
  void set_pose(const Pose& pose, const QString& frame, bool playback = false);
  // No TCP to show: the line says why ("no robot is loaded"); `hint`, what to do, is its tooltip.
  void set_unavailable(const QString& reason, const QString& hint = {});

  QString text() const;  // the line as shown
  bool available() const { return available_; }
  void copy_to_clipboard() const;

  QLabel* label() const { return label_; }
  QToolButton* copy_button() const { return copy_; }
  // The line's context menu.
  QAction* copy_action() const { return copy_action_; }
  QAction* set_goal_action() const { return set_goal_action_; }

 signals:
  void setGoalHereRequested();

 private:
  void update_actions();

  QLabel* label_ = nullptr;
  QToolButton* copy_ = nullptr;
  QAction* copy_action_ = nullptr;
  QAction* set_goal_action_ = nullptr;
  bool available_ = false;
  bool playback_ = false;
};

}  // namespace kinetic::panels
