#include "app/collision/collision_monitor.hpp"

#include <QStringList>
#include <algorithm>
#include <optional>

#include "app/collision/clearance.hpp"
#include "app/document/studio_document.hpp"

namespace kinetic::app {

namespace {

QString pair_name(const std::string& a, const std::string& b) {
  return QStringLiteral("%1–%2").arg(QString::fromStdString(a), QString::fromStdString(b));
}

}  // namespace

struct CollisionMonitor::Engine {
  RobotModelPtr robot;
  std::optional<CollisionChecker> checker;
  std::optional<ClearanceReading> clearance;
  quint64 scene_version = 0;
  bool has_scene = false;

  void prepare(const RobotModelPtr& model, const std::shared_ptr<const PlanningScene>& scene,
               quint64 version) {
    if (model != robot) {
      // The robot counts as prepared only once its checker is made: a checker that cannot be
      // made (a robot too large to check) is tried again, and never used empty.
      robot.reset();
      clearance.reset();
      checker.reset();
      has_scene = false;
      if (model) {
        checker.emplace(model);
        clearance.emplace(*checker);
      }
      robot = model;
    }
    if (checker && (!has_scene || version != scene_version)) {
      checker->set_scene(scene ? *scene : PlanningScene{});
      has_scene = true;
      scene_version = version;
    }
  }

  StateCollisions check(const JointVector& q) {
    StateCollisions state;
    state.contacts = checker->contacts(q);
    for (const Contact& contact : state.contacts)
      for (const std::string* name : {&contact.body_a, &contact.body_b}) {
        const int link = robot->find_link(*name);
        if (link >= 0 && std::find(state.colliding_links.begin(), state.colliding_links.end(),
                                   link) == state.colliding_links.end())
          state.colliding_links.push_back(link);
      }
    if (state.contacts.empty()) state.closest = clearance->closest(*checker, q);
    return state;
  }

  std::vector<CollisionSphere> spheres(const JointVector& q) {
    std::vector<CollisionSphere> out;
    checker->update(q);
    for (int i = 0; i < checker->body_count(); ++i) {
      const CollisionBody& body = checker->body(i);
      if (body.tree.empty()) continue;
      for (const Sphere& sphere : body.tree.leaves())
        out.push_back({checker->body_pose(i) * sphere.center, sphere.radius});
    }
    return out;
  }
};

CollisionMonitor::CollisionMonitor(StudioDocument& document, QObject* parent)
    : QObject(parent),
      document_(document),
      engine_(std::make_shared<Engine>()),
      worker_(QStringLiteral("collision monitor"), NewestWinsWorker::Priority::Interface) {
  const auto scene_changed = [this] {
    scene_ = std::make_shared<const PlanningScene>(document_.scene());
    ++scene_version_;
    refresh();
  };
  connect(&document_, &StudioDocument::robotChanged, this, &CollisionMonitor::refresh);
  connect(&document_, &StudioDocument::jointsChanged, this, &CollisionMonitor::refresh);
  connect(&document_, &StudioDocument::goalChanged, this, &CollisionMonitor::refresh);
  connect(&document_, &StudioDocument::sceneChanged, this, scene_changed);
  scene_changed();
}

CollisionMonitor::~CollisionMonitor() = default;

void CollisionMonitor::set_spheres_wanted(bool wanted) {
  if (spheres_wanted_ == wanted) return;
  spheres_wanted_ = wanted;
  refresh();
}

void CollisionMonitor::refresh() {
  const RobotModelPtr robot = document_.robot();
  if (!robot) return;
  const JointVector q = document_.joints();
  // Empty: no goal joints to check (a plain vector: GCC mis-warns on a captured optional).
  JointVector goal;
  if (document_.goal().joints && document_.goal().joints->size() == robot->dof())
    goal = *document_.goal().joints;
  worker_.submit(
      [engine = engine_, robot, scene = scene_, version = scene_version_, q, goal,
       spheres = spheres_wanted_] {
        CollisionReport report;
        try {
          engine->prepare(robot, scene, version);
          report.current = engine->check(q);
          if (goal.size() > 0) {
            report.has_goal = true;
            report.goal = engine->check(goal);
          }
          if (spheres) report.spheres = engine->spheres(q);
          report.valid = true;
        } catch (const std::exception& error) {
          report.error = error.what();
        }
        return report;
      },
      [this](CollisionReport report) {  // only for the newest state
        report_ = std::move(report);
        emit reportChanged();
      });
}

QString CollisionMonitor::summary() const {
  if (!report_.error.empty())
    return tr("collision check failed: %1").arg(QString::fromStdString(report_.error));
  if (!report_.valid) return tr("collision: checking…");
  const StateCollisions& now = report_.current;
  if (!now.contacts.empty()) {
    QStringList pairs;
    for (size_t i = 0; i < std::min<size_t>(now.contacts.size(), 3); ++i)
      pairs << pair_name(now.contacts[i].body_a, now.contacts[i].body_b);
    if (now.contacts.size() > 3) pairs << tr("%1 more").arg(now.contacts.size() - 3);
    return tr("COLLISION: %1").arg(pairs.join(QStringLiteral(", ")));
  }
  if (!now.closest.found) return tr("collision: free");
  return tr("collision: free (min %1 cm, %2)")
      .arg(now.closest.distance * 100.0, 0, 'f', 1)
      .arg(pair_name(now.closest.body_a, now.closest.body_b));
}

std::vector<CollisionPairRow> CollisionMonitor::pair_rows() const {
  std::vector<CollisionPairRow> rows;
  const RobotModelPtr robot = document_.robot();
  const auto is_link = [&robot](const std::string& name) {
    return robot && robot->find_link(name) >= 0;
  };
  const auto add = [&](const StateCollisions& state, const QString& which) {
    for (const Contact& contact : state.contacts)
      rows.push_back({tr("%1: %2 (%3 mm deep)")
                          .arg(which, pair_name(contact.body_a, contact.body_b))
                          .arg(contact.depth * 1000.0, 0, 'f', 1),
                      QString::fromStdString(contact.body_a),
                      QString::fromStdString(contact.body_b),
                      is_link(contact.body_a) && is_link(contact.body_b)});
  };
  add(report_.current, tr("current"));
  if (report_.has_goal) add(report_.goal, tr("goal"));
  return rows;
}

QStringList CollisionMonitor::pair_lines() const {
  QStringList lines;
  for (const CollisionPairRow& row : pair_rows()) lines << row.text;
  return lines;
}

QString CollisionMonitor::self_collision_hint() const {
  const std::vector<Contact>& contacts = report_.current.contacts;
  const RobotModelPtr robot = document_.robot();
  if (contacts.empty() || !robot) return {};
  for (const Contact& contact : contacts)
    if (robot->find_link(contact.body_a) < 0 || robot->find_link(contact.body_b) < 0) return {};
  return tr(
      "Only the robot's own links touch. If they touch in every pose, list them to skip: "
      "Tools → Generate collision matrix.");
}

}  // namespace kinetic::app
