#include "app/session/session_stored_states.hpp"

#include <QObject>
#include <cmath>
#include <string>

#include "engine/core/printable_text.hpp"

namespace kinetic::app {

using json = nlohmann::json;

json stored_states_json(const std::vector<panels::StoredState>& states) {
  json out = json::array();
  for (const panels::StoredState& state : states) {
    json joints = json::object();
    for (const auto& [joint, value] : state.joints) joints[joint] = value;
    out.push_back({{"name", state.name.toStdString()}, {"joints", joints}});
  }
  return out;
}

namespace {

QString quoted(const QStringList& names) {
  QStringList out;
  for (const QString& name : names) out << QStringLiteral("'%1'").arg(name);
  return out.join(QStringLiteral(", "));
}

// One entry, or why it is dropped (a clause naming the field; the caller says which entry).
struct EntryReading {
  panels::StoredState state;
  QString problem;
};

EntryReading read_entry(const json& entry, const RobotModel& robot, QStringList& warnings,
                        const QString& where) {
  EntryReading reading;
  if (!entry.is_object())
    return {{}, QObject::tr("expected an object with \"name\" and \"joints\"")};
  for (const auto& item : entry.items())
    if (item.key() != "name" && item.key() != "joints")
      warnings << QObject::tr("%1: unknown key \"%2\" was ignored.")
                      .arg(where, QString::fromStdString(printable(item.key())));
  const auto name = entry.find("name");
  if (name == entry.end() || !name->is_string() ||
      QString::fromStdString(name->get<std::string>()).trimmed().isEmpty())
    return {{}, QObject::tr("name: expected a name (a string that is not empty)")};
  reading.state.name = QString::fromStdString(name->get<std::string>());
  const auto joints = entry.find("joints");
  if (joints == entry.end() || !joints->is_object())
    return {reading.state, QObject::tr("joints: expected an object of joint values by joint name")};
  for (const auto& item : joints->items()) {
    if (!item.value().is_number() || !std::isfinite(item.value().get<double>()))
      return {reading.state,
              QObject::tr("joints.%1: %2")
                  .arg(QString::fromStdString(item.key()),
                       item.value().is_null()
                           ? QObject::tr("not a finite number (null, as JSON writes NaN)")
                           : QObject::tr("expected a finite number"))};
    reading.state.joints.emplace_back(item.key(), item.value().get<double>());
  }
  // Checked against the robot, and put in its joint order (the file's object is by name).
  const panels::StoredStateFit fit = panels::fit_stored_state(robot, reading.state);
  const QString robot_name = QString::fromStdString(robot.name());
  if (!fit.unknown_joints.isEmpty())
    return {reading.state,
            (fit.unknown_joints.size() == 1 ? QObject::tr("joint %1 is not a joint of robot '%2'")
                                            : QObject::tr("joints %1 are not joints of robot '%2'"))
                .arg(quoted(fit.unknown_joints), robot_name)};
  if (!fit.missing_joints.isEmpty())
    return {
        reading.state,
        QObject::tr("no value for %1 of robot '%2'").arg(quoted(fit.missing_joints), robot_name)};
  reading.state = panels::stored_state_of(robot, reading.state.name, *fit.joints);
  return reading;
}

}  // namespace

std::vector<panels::StoredState> stored_states_from_json(const json& value, const RobotModel& robot,
                                                         QStringList& warnings) {
  std::vector<panels::StoredState> states;
  if (!value.is_array()) {
    warnings << QObject::tr(
        "stored_states: expected an array of states; no stored state was read.");
    return states;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const QString where = QStringLiteral("stored_states[%1]").arg(i);
    EntryReading reading = read_entry(value[i], robot, warnings, where);
    const QString named = reading.state.name.isEmpty()
                              ? where
                              : QStringLiteral("%1 \"%2\"").arg(where, reading.state.name);
    if (reading.problem.isEmpty() && panels::find_stored_state(states, reading.state.name) >= 0)
      reading.problem = QObject::tr("a state above has this name");
    if (!reading.problem.isEmpty()) {
      warnings << QObject::tr("%1: %2; the state was dropped.").arg(named, reading.problem);
      continue;
    }
    states.push_back(std::move(reading.state));
  }
  return states;
}

}  // namespace kinetic::app
