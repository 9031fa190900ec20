#include "app/goal/tcp_readout_binding.hpp"

#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "engine/core/error.hpp"
#include "panels/tcp_readout.hpp"

namespace kinetic::app {

TcpReadoutBinding::TcpReadoutBinding(panels::TcpReadout& readout, StudioDocument& document,
                                     const GoalController& goal, QObject* parent)
    : QObject(parent), readout_(readout), document_(document), goal_(goal) {
  connect(&document_, &StudioDocument::robotChanged, this, &TcpReadoutBinding::on_robot_changed);
  // The goal controller's pose follows the joints, the robot and its group.
  connect(&goal_, &GoalController::shownPoseChanged, this, &TcpReadoutBinding::refresh);
  connect(&document_, &StudioDocument::playbackChanged, this, &TcpReadoutBinding::refresh);
  on_robot_changed();
}

void TcpReadoutBinding::on_robot_changed() {
  // The engine's own words for a robot without a chain (the goal controller's status wraps them).
  no_chain_.clear();
  no_chain_hint_.clear();
  if (const RobotModelPtr robot = document_.robot()) {
    try {
      [[maybe_unused]] const TcpKinematics chain(robot);
    } catch (const Error& error) {
      no_chain_ = QString::fromStdString(error.message());
      no_chain_hint_ = QString::fromStdString(error.hint());
    } catch (const std::exception& error) {
      no_chain_ = QString::fromUtf8(error.what());
    }
  }
  refresh();
}

void TcpReadoutBinding::refresh() {
  const RobotModelPtr robot = document_.robot();
  const TcpKinematics* kinematics = goal_.kinematics();
  if (!robot) {
    readout_.set_unavailable(tr("no robot is loaded"));
    return;
  }
  if (!kinematics) {
    // Another group than the first without a chain: the goal controller's status says which.
    if (no_chain_.isEmpty())
      readout_.set_unavailable(goal_.ik_status());
    else
      readout_.set_unavailable(no_chain_, no_chain_hint_);
    return;
  }
  const auto& playback = document_.playback_joints();
  const bool playing = playback && playback->size() == robot->dof();
  const JointVector& q = playing ? *playback : document_.joints();
  if (q.size() != robot->dof()) {
    readout_.set_unavailable(tr("the joint state does not fit the robot"));
    return;
  }
  readout_.set_pose(kinematics->tcp_in_base(q),
                    QString::fromStdString(kinematics->chain().base_link()), playing);
}

}  // namespace kinetic::app
