#include "app/planning/plan_worker.hpp"

#include <chrono>
#include <random>

#include "app/planning/keep_orientation.hpp"
#include "app/workers/worker_failure.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic::app {

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

double joint_path_length(const JointPath& path) {
  double length = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) length += (path[i] - path[i - 1]).norm();
  return length;
}

}  // namespace

// Used by the worker's jobs only (one at a time, on its thread); owns the engine Planner of the
// current robot, group and scene revision.
class PlanEngine {
 public:
  PlanOutcome run(const PlanRequest& request, quint64 id, const std::atomic<bool>* cancel,
                  const std::function<void(const QString&, const PlanProgress&)>& report);

 private:
  Planner& planner_for(const PlanRequest& request);
  JointVector random_valid_start(Planner& planner, std::uint64_t seed);

  std::unique_ptr<Planner> planner_;
  RobotModelPtr robot_;
  std::string group_;
  quint64 scene_revision_ = 0;
};

Planner& PlanEngine::planner_for(const PlanRequest& request) {
  if (!planner_ || robot_ != request.robot || group_ != request.group) {
    planner_.reset();  // a group the engine cannot plan for throws below: no Planner of the last
                       // one stays
    planner_ = std::make_unique<Planner>(request.robot, request.scene, request.group);
    robot_ = request.robot;
    group_ = request.group;
    scene_revision_ = request.scene_revision;
  } else if (scene_revision_ != request.scene_revision) {
    planner_->set_scene(request.scene);
    scene_revision_ = request.scene_revision;
  }
  return *planner_;
}

JointVector PlanEngine::random_valid_start(Planner& planner, std::uint64_t seed) {
  const RobotModel& model = planner.model();
  // Within ±pi: wider (UR ±2pi) ranges only add equivalent, often disconnected, copies.
  const JointVector lo = model.lower_limits().cwiseMax(-M_PI),
                    hi = model.upper_limits().cwiseMin(M_PI);
  std::mt19937_64 rng(seed);
  for (int attempt = 0; attempt < 2000; ++attempt) {
    JointVector q(model.dof());
    for (int j = 0; j < model.dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    if (!planner.checker().in_collision(q)) return q;
  }
  throw Error(ErrorCode::InCollision, "no collision-free random start found in 2000 samples",
              "remove obstacles around the robot or pick the start yourself");
}

PlanOutcome PlanEngine::run(
    const PlanRequest& request, quint64 id, const std::atomic<bool>* cancel,
    const std::function<void(const QString&, const PlanProgress&)>& report) {
  PlanOutcome outcome;
  outcome.id = id;
  outcome.name = request.name;
  try {
    if (!request.robot)
      throw Error(ErrorCode::InvalidValue, "no robot loaded", "load a robot first");
    Planner& planner = planner_for(request);
    PlannerOptions options = request.options;
    if (request.random_seed)
      options.seed = std::random_device{}() ^ (std::uint64_t(std::random_device{}()) << 32);
    outcome.seed = options.seed;
    outcome.start = request.random_start ? random_valid_start(planner, options.seed)
                                         : request.start.value_or(JointVector());
    PlanControl control;
    control.cancel = cancel;
    control.progress = [&](const PlanProgress& p) { report(QString::fromUtf8(p.phase), p); };

    const auto begin = Clock::now();
    JointPath path;
    if (request.cartesian) {
      const auto* pose = std::get_if<PoseGoal>(&request.goal);
      if (!pose)
        throw Error(
            ErrorCode::InvalidValue, "Cartesian mode needs a TCP pose goal",
            "choose Goal TCP pose in the Planner panel (drag the goal gizmo or type a pose in the "
            "Goal panel to set one), or choose a free-space planner");
      planner.check_start(outcome.start);
      // The planner hands its closed-form solver to the steps when cartesian_options asks for it.
      CartesianResult cartesian =
          planner.plan_cartesian(outcome.start, {CartesianSegment::line_to(pose->pose)},
                                 request.cartesian_options, control);
      if (cartesian.path.size() < 2)
        throw Error(ErrorCode::Unreachable,
                    "the straight TCP line stopped at once: " + cartesian.stop_reason,
                    "move the goal or the start, or use a free-space planner");
      path = cartesian.path;
      outcome.stats.planner = "cartesian";
      outcome.stats.length_before = outcome.stats.length_after = joint_path_length(path);
      outcome.cartesian = std::move(cartesian);
    } else if (request.keep_orientation_tolerance) {
      outcome.stats =
          plan_keeping_orientation(planner, outcome.start, request.goal,
                                   *request.keep_orientation_tolerance, options, control);
      path = outcome.stats.path;
    } else {
      outcome.stats = planner.plan(outcome.start, request.goal, options, control);
      path = outcome.stats.path;
    }
    outcome.stats.planning_time_ms = elapsed_ms(begin);

    // Time and validate on this thread too: both can take a while on long paths.
    PlanProgress timing;
    timing.elapsed_ms = elapsed_ms(begin);
    report(QStringLiteral("timing"), timing);
    const auto timing_begin = Clock::now();
    CollisionChecker& checker = planner.checker();
    std::string corners;
    outcome.trajectory = time_path(
        path, limits_for(*request.robot), request.timing,
        [&checker](const JointVector& q) { return checker.in_collision(q); },
        [&checker](const JointVector& q) { return describe_contacts(checker.contacts(q)); },
        &corners);
    if (!corners.empty()) outcome.stats.notes.push_back(corners);
    outcome.timing_ms = elapsed_ms(timing_begin);
    if (cancel && cancel->load()) throw Error(ErrorCode::Cancelled, "planning cancelled");
    TrajectoryValidationOptions validation;
    validation.in_collision = [&checker](const JointVector& q) { return checker.in_collision(q); };
    validation.collision_names = [&checker](const JointVector& q) {
      return describe_contacts(checker.contacts(q));
    };
    outcome.validation =
        validate_trajectory(outcome.trajectory, limits_for(*request.robot), validation);
    outcome.ok = true;
  } catch (...) {
    record_failure(outcome, std::current_exception());
  }
  return outcome;
}

PlanWorker::PlanWorker(QObject* parent)
    : QObject(parent), engine_(std::make_shared<PlanEngine>()), worker_(QStringLiteral("planner")) {
  qRegisterMetaType<kinetic::app::PlanOutcome>();
  connect(&worker_, &NewestWinsWorker::busyChanged, this, &PlanWorker::busyChanged);
}

PlanWorker::~PlanWorker() = default;

quint64 PlanWorker::submit(PlanRequest request) {
  return worker_.submit(
      [this, engine = engine_, request = std::move(request)](const NewestWinsWorker::Job& job) {
        auto last_report = Clock::now() - std::chrono::seconds(1);
        auto report = [&](const QString& phase, const PlanProgress& p) {
          if (Clock::now() - last_report < std::chrono::milliseconds(50)) return;
          last_report = Clock::now();
          job.report([this, id = job.id(), phase, p] {
            emit progress(id, phase, p.elapsed_ms, p.iterations, p.tree_size);
          });
        };
        // A request cancelled before it started is answered as cancelled without running.
        if (job.cancelled()) {
          PlanOutcome outcome;
          outcome.id = job.id();
          outcome.error_code = ErrorCode::Cancelled;
          outcome.error = tr("planning cancelled");
          return outcome;
        }
        return engine->run(request, job.id(), job.cancel_flag(), report);
      },
      [this](PlanOutcome outcome) { emit finished(outcome); });
}

void PlanWorker::cancel() {
  worker_.cancel();
}

QString likely_fix(const PlanOutcome& outcome) {
  const bool start = outcome.error.startsWith(QStringLiteral("start"));
  switch (outcome.error_code) {
    case ErrorCode::InCollision:
      return start
                 ? QObject::tr(
                       "Move the start or the obstacle, or lower the margin; if the contact is "
                       "intended, right-click the pair in the Collisions panel → Allow contact.")
                 : QObject::tr(
                       "Move the goal or the obstacle; if the contact is intended, right-click the "
                       "pair in the Collisions panel → Allow contact.");
    case ErrorCode::OutOfLimits:
      return QObject::tr(
          "Move the joints named above back inside their limits (the Joints panel clamps them).");
    case ErrorCode::Unreachable:
      return QObject::tr("Move the target within the arm's reach or change its orientation.");
    case ErrorCode::Timeout:
      return QObject::tr(
          "Raise the timeout and iterations (or choose the offline preset); a goal in a closed "
          "region cannot be reached at all.");
    case ErrorCode::Cancelled:
      return {};
    default:
      break;
  }
  return outcome.hint;
}

}  // namespace kinetic::app
