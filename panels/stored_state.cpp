#include "panels/stored_state.hpp"

#include <QObject>
#include <algorithm>

namespace kinetic::panels {

StoredState stored_state_of(const RobotModel& robot, const QString& name, const JointVector& q) {
  StoredState state{name, {}};
  for (int v = 0; v < robot.dof() && v < q.size(); ++v)
    state.joints.emplace_back(robot.variable_joint(v).name, q[v]);
  return state;
}

StoredStateFit fit_stored_state(const RobotModel& robot, const StoredState& state) {
  StoredStateFit fit;
  JointVector q = JointVector::Zero(robot.dof());
  std::vector<bool> given(static_cast<std::size_t>(robot.dof()), false);
  for (const auto& [joint, value] : state.joints) {
    const int variable = robot.find_joint(joint) >= 0 ? robot.variable_index(joint) : -1;
    if (variable < 0) {
      fit.unknown_joints << QString::fromStdString(joint);
      continue;
    }
    q[variable] = value;
    given[static_cast<std::size_t>(variable)] = true;
  }
  for (int v = 0; v < robot.dof(); ++v)
    if (!given[static_cast<std::size_t>(v)])
      fit.missing_joints << QString::fromStdString(robot.variable_joint(v).name);
  if (fit.unknown_joints.isEmpty() && fit.missing_joints.isEmpty()) fit.joints = q;
  return fit;
}

namespace {
// "'a', 'b', 'c' and 4 more": a state of another robot misses all of this one's joints.
QString quoted_list(const QStringList& names) {
  constexpr int kShown = 3;
  QStringList quoted;
  for (int i = 0; i < names.size() && i < kShown; ++i)
    quoted << QStringLiteral("'%1'").arg(names[i]);
  QString text = quoted.join(QStringLiteral(", "));
  if (names.size() > kShown) text += QObject::tr(" and %1 more").arg(names.size() - kShown);
  return text;
}
}  // namespace

QString stored_state_misfit(const RobotModel& robot, const StoredStateFit& fit) {
  QStringList parts;
  const QString robot_name = QString::fromStdString(robot.name());
  if (!fit.unknown_joints.isEmpty())
    parts << (fit.unknown_joints.size() == 1
                  ? QObject::tr("it names joint %1, which robot '%2' does not have")
                  : QObject::tr("it names joints %1, which robot '%2' does not have"))
                 .arg(quoted_list(fit.unknown_joints), robot_name);
  if (!fit.missing_joints.isEmpty())
    parts << (fit.missing_joints.size() == 1 ? QObject::tr("it gives no value for joint %1")
                                             : QObject::tr("it gives no value for joints %1"))
                 .arg(quoted_list(fit.missing_joints));
  return parts.join(QStringLiteral("; "));
}

QString next_stored_state_name(const std::vector<StoredState>& states) {
  for (int n = 1;; ++n) {
    const QString candidate = QStringLiteral("state %1").arg(n);
    if (find_stored_state(states, candidate) < 0) return candidate;
  }
}

int find_stored_state(const std::vector<StoredState>& states, const QString& name) {
  const auto it = std::find_if(states.begin(), states.end(),
                               [&](const StoredState& s) { return s.name == name; });
  return it == states.end() ? -1 : static_cast<int>(it - states.begin());
}

}  // namespace kinetic::panels
