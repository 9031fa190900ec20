#include "app/goal/ik_worker.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/kinematics/sweep_ik.hpp"
#include "engine/planning/planning_goal.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic::app {

namespace {

// Numeric solvers find one solution per seed; a few restarts from spread-out seeds rescue a seed
// that sits on the wrong side of a limit. Fixed seeds keep answers reproducible.
constexpr int kNumericRestarts = 3;

std::string describe_position(const Pose& pose) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.3f, %.3f, %.3f) m", pose.translation().x(),
                pose.translation().y(), pose.translation().z());
  return text;
}

struct Outcome {
  std::optional<IkAnswer> answer;
  std::string reason;
};

}  // namespace

struct IkWorker::Engine {
  RobotModelPtr robot;
  std::string group;
  std::optional<KinematicChain> chain;
  IkSolverPtr solver;
  // The one seeded solve of nearest-only requests: the numeric solver itself, the sweep's
  // numeric solver of the whole 7-DOF chain; null for analytic solvers (all solutions are cheap).
  std::shared_ptr<const NumericIkSolver> nearest;
  std::optional<CollisionChecker> checker;
  std::string setup_error;
  quint64 scene_version = 0;
  bool has_scene = false;

  void prepare(const RobotModelPtr& model, const std::string& model_group,
               const std::shared_ptr<const PlanningScene>& scene, quint64 version) {
    if (model != robot || model_group != group) {
      robot = model;
      group = model_group;
      chain.reset();
      solver.reset();
      nearest.reset();
      checker.reset();
      has_scene = false;
      setup_error.clear();
      if (!robot) {
        setup_error = "no robot is loaded";
        return;
      }
      try {
        chain.emplace(KinematicChain::from_config(robot, group));
        solver = make_ik_solver(robot, group);
        nearest = nearest_solver(solver);
        checker.emplace(robot);
      } catch (const std::exception& error) {
        setup_error = std::string("IK is unavailable for this robot: ") + error.what();
        return;
      }
    }
    if (checker && (!has_scene || version != scene_version)) {
      try {
        checker->set_scene(scene ? *scene : PlanningScene{});
        has_scene = true;
        scene_version = version;
      } catch (const std::exception& error) {
        setup_error = std::string("the planning scene cannot be checked: ") + error.what();
      }
    }
  }

  static std::shared_ptr<const NumericIkSolver> nearest_solver(const IkSolverPtr& solver) {
    if (const auto* sweep = dynamic_cast<const RedundantSweepIkSolver*>(solver.get()))
      return std::make_shared<const NumericIkSolver>(sweep->chain());
    return std::dynamic_pointer_cast<const NumericIkSolver>(solver);
  }

  Outcome solve(const IkRequest& request, const std::atomic<bool>* cancel) {
    if (!setup_error.empty()) return {std::nullopt, setup_error};
    if (request.seed.size() != robot->dof())
      return {std::nullopt, "IK seed has " + std::to_string(request.seed.size()) +
                                " values; the robot has " + std::to_string(robot->dof())};
    try {
      validate_pose(request.target, "IK target");
      if (request.nearest_only && nearest)
        if (auto answer = solve_nearest(request, cancel)) return {std::move(answer), {}};
      // Not reached from this seed (or out of limits, or colliding): every solution, as when the
      // drag ends, so the drag moves on instead of sticking where the quick solve gave up.
      return solve_all(request, cancel);
    } catch (const Error& error) {
      return {std::nullopt, error.message()};
    } catch (const std::exception& error) {
      return {std::nullopt, error.what()};
    }
  }

  // One numeric solve from the seed; nullopt where it does not give a usable solution.
  std::optional<IkAnswer> solve_nearest(const IkRequest& request, const std::atomic<bool>* cancel) {
    IkOptions options = ik_options_from_config(*robot);
    options.cancel = cancel;
    // A zero budget is one attempt from the seed run to its iteration limit: a random restart
    // would land on another arm configuration, which the drag should not jump to.
    options.timeout_ms = 0.0;
    options.condition_number = false;
    const IkResult result = nearest->solve(request.target, chain->to_chain(request.seed), options);
    if (!result.converged) return std::nullopt;
    JointVector full = request.seed;
    chain->to_model(result.q, full);
    if (limits_problem(*robot, full, "IK solution")) return std::nullopt;
    full = turned_toward(full, request.seed, *robot, chain->variable_indices());
    if (request.collision_aware && checker->in_collision(full)) return std::nullopt;
    IkAnswer answer;
    answer.joints = std::move(full);
    answer.target = request.target;
    answer.solution_index = 0;
    answer.solution_count = 0;  // the others are not looked for
    return answer;
  }

  Outcome solve_all(const IkRequest& request, const std::atomic<bool>* cancel) {
    const JointVector seed = chain->to_chain(request.seed);
    IkOptions configured = ik_options_from_config(*robot);
    configured.cancel = cancel;  // a newer request: this answer would be dropped anyway
    IkResult result = solver->solve(request.target, seed, configured);
    std::vector<JointVector> chain_solutions = result.solutions;
    if (chain_solutions.empty() && result.converged) chain_solutions.push_back(result.q);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int restart = 0;
         chain_solutions.empty() && result.solutions.empty() && restart < kNumericRestarts;
         ++restart) {
      JointVector other = seed;
      for (int j = 0; j < other.size(); ++j)
        other[j] = chain->lower_limits()[j] +
                   unit(rng) * (chain->upper_limits()[j] - chain->lower_limits()[j]);
      IkOptions options = configured;
      options.random_seed = static_cast<std::uint64_t>(restart + 1);
      const IkResult again = solver->solve(request.target, other, options);
      if (again.converged) chain_solutions.push_back(again.q);
    }
    if (chain_solutions.empty())
      return {std::nullopt,
              "unreachable: the TCP pose at " + describe_position(request.target) + " in '" +
                  chain->base_link() + "' has no IK solution" +
                  (result.message.empty() ? std::string() : " (" + result.message + ")")};

    std::vector<JointVector> solutions;
    std::optional<Error> limits;
    for (const JointVector& q : chain_solutions) {
      JointVector full = request.seed;
      chain->to_model(q, full);
      if (auto problem = limits_problem(*robot, full, "IK solution")) {
        if (!limits) limits = problem;
        continue;
      }
      // A restart's solution keeps its random seed's turns: take the ones nearest the drag's seed.
      solutions.push_back(turned_toward(full, request.seed, *robot, chain->variable_indices()));
    }
    if (solutions.empty()) return {std::nullopt, "out of limits: " + limits->message()};
    std::stable_sort(solutions.begin(), solutions.end(),
                     [&](const JointVector& a, const JointVector& b) {
                       return (a - request.seed).squaredNorm() < (b - request.seed).squaredNorm();
                     });

    if (request.collision_aware) {
      std::vector<JointVector> free;
      std::string first_contacts;
      for (const JointVector& q : solutions) {
        if (!checker->in_collision(q))
          free.push_back(q);
        else if (first_contacts.empty())
          first_contacts = describe_contacts(checker->contacts(q));
      }
      if (free.empty())
        return {std::nullopt, "in collision: all " + std::to_string(solutions.size()) +
                                  " IK solutions collide (the closest: " + first_contacts + ")"};
      solutions = std::move(free);
    }

    const int count = static_cast<int>(solutions.size());
    const int index = ((request.solution_index % count) + count) % count;
    IkAnswer answer;
    answer.joints = solutions[static_cast<size_t>(index)];
    answer.target = request.target;
    answer.solution_index = index;
    answer.solution_count = count;
    return {answer, {}};
  }
};

IkWorker::IkWorker(QObject* parent)
    : QObject(parent),
      engine_(std::make_shared<Engine>()),
      worker_(QStringLiteral("IK"), NewestWinsWorker::Priority::Background, nullptr,
              NewestWinsWorker::Replaced::Finish) {
  qRegisterMetaType<kinetic::app::IkAnswer>();
}

IkWorker::~IkWorker() = default;

void IkWorker::set_robot(RobotModelPtr robot) {
  robot_ = std::move(robot);
}

void IkWorker::set_group(const std::string& group) {
  group_ = group;
}

void IkWorker::set_scene(const PlanningScene& scene) {
  scene_ = std::make_shared<const PlanningScene>(scene);
  ++scene_version_;
}

quint64 IkWorker::request(const IkRequest& request) {
  // Below the interface (the worker's priority): on a software renderer a numeric solve per drag
  // step (a 7-DOF arm's) otherwise takes the cores the frame needs. A newer request lets the
  // running solve finish and answer (the ghost shows that step; its joints seed the next solve)
  // and replaces any waiting one, so a drag costs at most one solve in flight and one waiting.
  latest_ = worker_.submit(
      [engine = engine_, robot = robot_, group = group_, scene = scene_, version = scene_version_,
       request](const NewestWinsWorker::Job& job) {
        engine->prepare(robot, group, scene, version);
        return std::make_pair(job.id(), engine->solve(request, job.cancel_flag()));
      },
      [this](std::pair<quint64, Outcome> answer) {
        const auto& [sequence, outcome] = answer;
        if (outcome.answer)
          emit solved(sequence, *outcome.answer);
        else
          emit failed(sequence, QString::fromStdString(outcome.reason));
      });
  return latest_;
}

}  // namespace kinetic::app
