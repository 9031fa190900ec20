#include "engine/planning/planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

#include "engine/core/duration_text.hpp"
#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/kinematics/group_end_effectors.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/planning/constrained_planner.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/planning/sampling/geometric_planners.hpp"
#include "engine/planning/sampling/prm.hpp"
#include "engine/planning/segment_repair.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic {

namespace {

std::string resolve_group_name(const RobotModel& model, const std::string& group) {
  if (!group.empty()) return group;
  const auto names = model.group_names();
  return names.empty() ? std::string() : names.front();
}

std::string format_position(const Pose& pose) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.3f, %.3f, %.3f) m", pose.translation().x(),
                pose.translation().y(), pose.translation().z());
  return text;
}

// The least clearance the search keeps from obstacles where start and goals allow it, whatever
// margin was asked: the output gate's continuous check counts a body within 1 mm of an obstacle
// as contact, so a path searched with less grazes obstacles between its checked states and is
// refused there (MotionBenchMaker with margin 0: 4 of 140 plans failed so; with this floor, none).
constexpr double kSearchMarginFloor = 0.002;  // m
// ms: a failed search's try without obstacles (PlanStages::without_obstacles) gets a quarter of
// the search's own budget, within these bounds. The open space of self collisions alone is
// searched in milliseconds where start and goal connect (the Fanuc's MoveIt config among bars:
// well under 1 ms in each of its 24 solvable problems), while ends its folds wall in never do;
// too short a try would call them walled in for want of time.
constexpr double kObstacleFreeMinMs = 50.0, kObstacleFreeMaxMs = 1000.0;

// The asked margin's first turn before a narrower one gets its own: 8192 RRT-Connect iterations
// find 99% of the 2 cm paths MotionBenchMaker's problems have (the median needs 71; on its first
// 280 problems unbounded turns keep 2 cm on 3 more and double the mean planning time; 2048
// reduce 6 more). A turn is an eighth of the search's iteration cap at most (a preset's
// 2,000 to 100,000), so a small preset's asked margin leaves the narrower ones their turns.
long first_turn_iterations(int max_iterations) {
  constexpr long kFirstTurnIterations = 8192;
  return std::max(1L, std::min(kFirstTurnIterations, static_cast<long>(max_iterations) / 8));
}

// Margins tried, largest first, when the start or a goal sits inside the asked margin.
std::vector<double> margin_ladder(double margin) {
  std::vector<double> ladder;
  for (const double m : {margin, margin * 0.5, margin * 0.25})
    if (m > kSearchMarginFloor) ladder.push_back(m);
  ladder.push_back(kSearchMarginFloor);
  ladder.push_back(0.0);
  return ladder;
}

// The group's chain, or none when the group is not one chain (two arms, a base and an arm).
std::optional<KinematicChain> chain_of_group(const RobotModelPtr& model, const std::string& group) {
  try {
    return KinematicChain::from_config(model, group);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::InvalidModel) throw;
    return std::nullopt;
  }
}

}  // namespace

Planner::Planner(RobotModelPtr model, const PlanningScene& scene, const std::string& group)
    : model_(std::move(model)),
      group_(resolve_group_name(*model_, group)),
      variables_(model_->group_variables(group_)),
      chain_(chain_of_group(model_, group_)),
      scene_(scene),
      checker_(model_) {
  checker_.set_scene(scene_);
  checker_.measure_tables_ahead();  // once per robot, not in any plan's time
}

const KinematicChain& Planner::chain() const {
  if (chain_) return *chain_;
  const std::vector<std::string> names = end_effectors();
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : ", ") + name;
  throw Error(
      ErrorCode::Unsupported,
      "planning group '" + group_ +
          "' is not one chain: a TCP pose, a relative, Cartesian or constrained motion "
          "needs a chain",
      names.empty()
          ? "plan it with a joint goal, or choose a group that is one arm"
          : "plan it with a joint goal, or give a pose goal for one of its end effectors (" +
                listed + ")");
}

std::vector<std::string> Planner::end_effectors() const {
  std::vector<std::string> names;
  for (const GroupEndEffector& ee : group_end_effectors(model_, variables_))
    names.push_back(ee.name);
  return names;
}

Planner::Reach& Planner::reach(const std::string& end_effector) {
  if (const auto it = reaches_.find(end_effector); it != reaches_.end()) return it->second;
  if (end_effector.empty()) {
    const KinematicChain& own = chain();  // throws, naming the end effectors, when there is none
    return reaches_.emplace("", Reach{group_, own, nullptr}).first->second;
  }
  const std::vector<std::string> known = end_effectors();
  if (std::find(known.begin(), known.end(), end_effector) == known.end())
    throw Error(ErrorCode::InvalidValue,
                "planning group '" + group_ + "' has no end effector '" + end_effector +
                    "' to reach a pose with",
                known.empty()
                    ? "the SRDF gives this group no end effector whose arm is a chain in it"
                    : suggestion_hint(end_effector, known));
  std::string arm;
  for (const SrdfEndEffector& ee : model_->semantic().end_effectors)
    if (ee.name == end_effector) arm = ee.parent_group;
  return reaches_
      .emplace(end_effector, Reach{arm, KinematicChain::from_config(model_, arm), nullptr})
      .first->second;
}

Planner::~Planner() = default;

void Planner::set_scene(const PlanningScene& scene) {
  scene_ = scene;
  checker_.set_scene(scene_);
  roadmap_.reset();  // its states and edges were checked against the old scene
}

int Planner::roadmap_size() const {
  return roadmap_ ? roadmap_->size() : 0;
}

IkSolverPtr Planner::ik_solver() {
  if (!ik_) {
    (void)chain();  // a group that is no chain has no solver of its own: say so, naming its end
                    // effectors
    ik_ = make_ik_solver(model_, group_);
  }
  return ik_;
}

Pose Planner::tcp_pose(const JointVector& q) const {
  return chain().fk(chain().to_chain(q));
}

void Planner::check_start(const JointVector& start) {
  if (auto problem = limits_problem(*model_, start, "start state")) throw *problem;
  if (auto problem = collision_problem(checker_, start, "start state")) throw *problem;
}

std::vector<JointVector> Planner::ik_candidates(Reach& reach, const JointVector& start,
                                                const Pose& target, const PlannerOptions& options,
                                                const PlanControl& control, std::string& failure) {
  if (!reach.ik)
    reach.ik = reach.group == group_ ? ik_solver() : make_ik_solver(model_, reach.group);
  const IkSolverPtr solver = reach.ik;
  const KinematicChain& arm = reach.chain;
  const JointVector seed = arm.to_chain(start);
  std::vector<JointVector> chain_solutions;
  auto add = [&](const JointVector& q) {
    for (const auto& known : chain_solutions)
      if ((known - q).cwiseAbs().maxCoeff() < 1e-6) return;
    chain_solutions.push_back(q);
  };
  std::mt19937_64 rng(options.seed);
  JointVector restart = seed;
  for (int attempt = 0; attempt < options.ik_attempts; ++attempt) {
    // kinetic.toml's [ik] timeout_ms bounds each attempt, not the plan's timeout: the cancel flag
    // is what stops a long one early (the numeric solvers poll it between iterations).
    if (control.cancel && control.cancel->load(std::memory_order_relaxed))
      throw Error(ErrorCode::Cancelled, "planning cancelled during the goal's IK");
    IkOptions ik = ik_options_from_config(*model_);
    ik.random_seed = options.seed + static_cast<std::uint64_t>(attempt);
    ik.cancel = control.cancel;
    const IkResult result = solver->solve(target, restart, ik);
    if (!result.solutions.empty()) {
      for (const auto& q : result.solutions) add(q);
      break;  // analytic: every solution at once
    }
    if (result.converged)
      add(result.q);
    else if (failure.empty())
      failure = result.message;
    // Numeric solvers find one solution per seed: restart from random seeds within the limits.
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int j = 0; j < restart.size(); ++j)
      restart[j] =
          arm.lower_limits()[j] + unit(rng) * (arm.upper_limits()[j] - arm.lower_limits()[j]);
  }
  std::vector<JointVector> out;
  for (const auto& q : chain_solutions) {
    JointVector full = start;
    arm.to_model(q, full);
    if (!model_->within_limits(full)) continue;
    full = turned_toward(full, start, *model_, arm.variable_indices());
    const bool known = std::any_of(out.begin(), out.end(), [&](const JointVector& other) {
      return (other - full).cwiseAbs().maxCoeff() < 1e-6;
    });
    if (!known) out.push_back(std::move(full));
  }
  // Closest to the start first: the shortest motions are tried first.
  std::sort(out.begin(), out.end(), [&](const JointVector& a, const JointVector& b) {
    return (a - start).norm() < (b - start).norm();
  });
  return out;
}

std::vector<JointVector> Planner::resolve_goal(const JointVector& start, const PlanningGoal& goal,
                                               const PlannerOptions& options,
                                               const PlanControl& control) {
  model_->validate(start);
  auto single = [&](JointVector q, const std::string& what) {
    if (auto problem = limits_problem(*model_, q, what)) throw *problem;
    if (auto problem = collision_problem(checker_, q, what)) throw *problem;
    return std::vector<JointVector>{std::move(q)};
  };
  if (const auto* joints = std::get_if<JointGoal>(&goal)) {
    if (joints->q.size() == model_->dof()) return single(joints->q, "goal state");
    if (joints->q.size() == static_cast<int>(variables_.size())) {
      JointVector full = start;
      for (std::size_t i = 0; i < variables_.size(); ++i)
        full[variables_[i]] = joints->q[static_cast<int>(i)];
      return single(full, "goal state");
    }
    throw Error(ErrorCode::DimensionMismatch,
                "joint goal has " + std::to_string(joints->q.size()) + " values; the robot has " +
                    std::to_string(model_->dof()) + " and group '" + group_ + "' " +
                    std::to_string(variables_.size()),
                "give one value per robot joint (model order) or per group joint");
  }
  if (const auto* named = std::get_if<NamedGoal>(&goal))
    return single(model_->named_pose(named->name, start, group_), "goal '" + named->name + "'");

  Pose target;
  const auto* pose = std::get_if<PoseGoal>(&goal);
  Reach& goal_reach = reach(pose ? pose->end_effector : std::string());
  const KinematicChain& arm = goal_reach.chain;
  if (pose) {
    validate_pose(pose->pose, "pose goal");
    target = pose->pose;
  } else {
    const auto& relative = std::get<RelativeGoal>(goal);
    validate_pose(relative.offset, "relative goal offset");
    target = relative_target(tcp_pose(start), relative);
  }
  std::string failure;
  const std::vector<JointVector> candidates =
      ik_candidates(goal_reach, start, target, options, control, failure);
  if (candidates.empty())
    throw Error(ErrorCode::Unreachable,
                "pose goal at " + format_position(target) + " in '" + arm.base_link() +
                    "' is unreachable: IK found no solution within the joint limits" +
                    (failure.empty() ? std::string() : " (" + failure + ")"),
                "move the target within the arm's reach and check its orientation; the TCP is '" +
                    arm.tip_link() + "'");
  std::vector<JointVector> valid;
  std::string first_contacts;
  for (const auto& q : candidates) {
    if (!checker_.in_collision(q)) {
      valid.push_back(q);
    } else if (first_contacts.empty()) {
      first_contacts = describe_contacts(checker_.contacts(q));
    }
  }
  if (valid.empty())
    throw Error(ErrorCode::InCollision,
                "pose goal at " + format_position(target) + ": all " +
                    std::to_string(candidates.size()) +
                    " IK solutions collide (the closest: " + first_contacts + ")",
                "move the target away from the obstacles or change its orientation");
  return valid;
}

CartesianResult Planner::plan_cartesian(const JointVector& start,
                                        const std::vector<CartesianSegment>& segments,
                                        const CartesianOptions& options,
                                        const PlanControl& control) {
  IkSolverPtr closed_form;
  try {
    if (options.closed_form_ik) closed_form = ik_solver();
  } catch (const Error&) {  // a robot whose [ik] table names no usable solver: numeric steps
  }
  return kinetic::plan_cartesian(chain(), checker_, start, segments, options, control, closed_form);
}

PlanResult Planner::plan(const JointVector& start, const PlanningGoal& goal,
                         const PlannerOptions& options, const PlanControl& control) {
  return plan_impl(start, goal, nullptr, options, control);
}

PlanResult Planner::plan_constrained(const JointVector& start, const PlanningGoal& goal,
                                     const PathConstraints& constraints,
                                     const PlannerOptions& options, const PlanControl& control) {
  return plan_impl(start, goal, &constraints, options, control);
}

std::vector<JointVector> Planner::keep_inside_workspace(const JointVector& start,
                                                        std::vector<JointVector> goals,
                                                        const WorkspaceBounds& workspace) {
  const auto describe = [&](const char* what, int link) {
    const Vector3 p = checker_.link_poses()[link].translation();
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s: link '%s' at (%.3f, %.3f, %.3f) m is outside the workspace bounds "
                  "[%.3f, %.3f] x [%.3f, %.3f] x [%.3f, %.3f]",
                  what, model_->links()[link].name.c_str(), p.x(), p.y(), p.z(), workspace.min[0],
                  workspace.max[0], workspace.min[1], workspace.max[1], workspace.min[2],
                  workspace.max[2]);
    return std::string(text);
  };
  checker_.update(start);
  if (const int link = link_outside_workspace(checker_, workspace); link >= 0)
    throw Error(ErrorCode::InvalidValue, describe("start", link),
                "widen the workspace bounds, or start from a state inside them");
  std::vector<JointVector> kept;
  std::string why;
  for (auto& g : goals) {
    checker_.update(g);
    const int link = link_outside_workspace(checker_, workspace);
    if (link < 0)
      kept.push_back(std::move(g));
    else if (why.empty())
      why = describe("goal", link);
  }
  if (kept.empty())
    throw Error(ErrorCode::InvalidValue, why,
                "widen the workspace bounds, or choose a goal inside them");
  return kept;
}

SearchOutcome Planner::search_at(PlanningSpace& space, const ConstraintProjector* projector,
                                 const JointVector& start, const JointVector& start_g,
                                 const std::vector<JointVector>& goals,
                                 const PlannerOptions& options, SearchClock& clock) {
  if (projector)
    return kinetic::plan_constrained(space, *projector, start_g, goals, options, clock);
  switch (options.planner) {
    case PlannerType::RrtConnect:
      return plan_rrt_connect(space, start_g, goals, options, clock);
    case PlannerType::RrtStar:
      return plan_rrt_star(space, start_g, goals, options, clock);
    case PlannerType::BiTrrt:
      return plan_bitrrt(space, start_g, goals, options, clock);
    case PlannerType::Est:
      return plan_est(space, start_g, goals, options, clock);
    case PlannerType::Kpiece:
      return plan_kpiece(space, start_g, goals, options, clock);
    case PlannerType::Prm: {
      const bool stale =
          !roadmap_ || roadmap_margin_ != space.margin() ||
          roadmap_resolution_ != options.resolution || roadmap_template_.size() != start.size() ||
          [&] {  // variables outside the group are part of every roadmap state
            for (int j = 0; j < start.size(); ++j)
              if (std::find(variables_.begin(), variables_.end(), j) == variables_.end() &&
                  roadmap_template_[j] != start[j])
                return true;
            return false;
          }();
      if (stale) {
        roadmap_ = std::make_unique<Roadmap>(space.dof());
        roadmap_margin_ = space.margin();
        roadmap_resolution_ = options.resolution;
        roadmap_template_ = start;
      }
      return roadmap_->query(space, start_g, goals, options, clock);
    }
  }
  return {};
}

namespace {

double ms_since(SearchClock::Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SearchClock::Clock::now() - t0).count();
}

// The start must keep the path constraints; goals that do not are dropped (an error when none is
// left). `arm` is the group's chain, which the projector works on.
void keep_goals_in_constraints(const KinematicChain& arm, const ConstraintProjector& projector,
                               const JointVector& start, std::vector<JointVector>& goals) {
  const JointVector start_chain = arm.to_chain(start);
  if (!projector.satisfied(start_chain, 1e-4))
    throw Error(ErrorCode::InvalidValue,
                "start state violates the path constraints: " + projector.describe(start_chain),
                "start from a state that keeps the constraints, or widen them");
  std::vector<JointVector> kept;
  std::string why;
  for (const auto& g : goals) {
    const JointVector gc = arm.to_chain(g);
    if (projector.satisfied(gc, 1e-4))
      kept.push_back(g);
    else if (why.empty())
      why = projector.describe(gc);
  }
  if (kept.empty())
    throw Error(ErrorCode::InvalidValue, "goal violates the path constraints: " + why,
                "choose a goal that keeps the constraints, or widen them");
  goals = std::move(kept);
}

// plan_impl's search and output, one member function per stage: the space at the margin searched,
// the search itself (narrowing the margin when no path keeps it), the post-processing, and the
// output gates with their repairs.
class PlanStages {
 public:
  PlanStages(CollisionChecker& checker, const std::vector<int>& variables, const RobotModel& model,
             const JointVector& start, const PlannerOptions& options, const PlanControl& control,
             const ConstraintProjector* projector, PlanResult& result)
      : checker_(checker),
        variables_(variables),
        model_(model),
        start_(start),
        options_(options),
        control_(control),
        projector_(projector),
        result_(result) {}

  // Plan with the largest margin that start and (some) goals satisfy. Sets the space and the
  // goals in its group's coordinates.
  void choose_margin(const std::vector<JointVector>& goals) {
    // The checker's refinement margin first (faster near obstacles); where it calls the start or
    // every goal colliding at every margin, they lie within it of an obstacle (a grasp a few
    // millimetres from a shelf), free as the exact check and the gate find them: the search then
    // checks exactly.
    for (const bool exact : {false, true}) {
      exact_checks_ = exact;
      for (double margin : margin_ladder(options_.margin)) {
        make_space(margin, options_.resolution);
        if (!space_->valid(space_->to_group(start_))) continue;
        goals_in_margin_.clear();
        for (const auto& g : goals)
          if (space_->valid(space_->to_group(g))) goals_in_margin_.push_back(space_->to_group(g));
        if (!goals_in_margin_.empty()) break;
      }
      if (!goals_in_margin_.empty()) break;
    }
    if (exact_checks_ && !goals_in_margin_.empty())
      result_.notes.emplace_back(
          "start or goal lies within the collision checker's refinement margin of an obstacle: "
          "searched with exact checks");
    if (goals_in_margin_
            .empty())  // resolve_goal checked them at zero margin: only limits can differ
      throw Error(ErrorCode::OutOfLimits,
                  "no goal configuration lies within the planning group's limits");
    result_.margin_used = space_->margin();
    if (result_.margin_used < options_.margin) {
      char note[160];
      std::snprintf(
          note, sizeof note,
          "margin reduced from %.3f m to %.3f m: start or goal is closer than that to an obstacle",
          options_.margin, result_.margin_used);
      result_.notes.emplace_back(note);
    }
    start_g_ = space_->to_group(start_);
  }

  // `search` runs the planner in a space until a clock's deadline. Narrower margins to fall back
  // on when no path keeps this one clear (a passage narrower than twice the margin closes: 6 of
  // MotionBenchMaker's 700 problems at 0.02 m). Start and goals that keep a margin keep every
  // smaller one. The margins take turns, widest first, in turns counted in search iterations
  // that double each round, until one finds a path: a problem the asked margin solves in its
  // first turn is planned as before, one no path keeps clear costs a few turns instead of half
  // the budget (5 s of 10 on those 6), and a search that just needs longer gets its turn again
  // with twice the iterations. Turns are counted in iterations, not milliseconds, so which
  // margin a problem gets does not depend on the machine's speed or its stalls. Each round after
  // the first searches from another seed (restarts cut the long tail of a randomised search). A
  // margin whose search stops short of its turn (its iteration cap) is not tried again. A roadmap
  // is kept per margin, so PRM searches at one; path constraints keep theirs.
  JointPath search(const std::function<SearchOutcome(PlanningSpace&, const JointVector&,
                                                     const std::vector<JointVector>&, SearchClock&,
                                                     std::uint64_t)>& run_search) {
    std::vector<double> margins{space_->margin()};
    if (!projector_ && options_.planner != PlannerType::Prm)
      for (const double m : margin_ladder(options_.margin))
        if (m < margins.front() && m >= kSearchMarginFloor) margins.push_back(m);
    const double wider_margin = margins.front();
    const auto search_begin = SearchClock::Clock::now();
    const auto time_left_ms = [&] { return options_.timeout_ms - ms_since(search_begin); };
    std::vector<bool> exhausted(margins.size(), false);
    SearchOutcome found;
    double wide_ms = 0.0;  // searched at the widest margin
    long turn_iterations = first_turn_iterations(options_.max_iterations);
    for (std::uint64_t round = 0; found.path.empty(); ++round, turn_iterations *= 2) {
      bool searched = false;
      for (std::size_t i = 0; i < margins.size() && found.path.empty(); ++i) {
        if (exhausted[i] || (round > 0 && time_left_ms() <= 0.0)) continue;
        const bool alone = std::count(exhausted.begin(), exhausted.end(), false) == 1;
        if (space_->margin() != margins[i]) make_space(margins[i], options_.resolution);
        SearchClock clock(time_left_ms(), control_,
                          alone ? SearchClock::kNoIterationLimit : turn_iterations);
        found = run_search(*space_, start_g_, goals_in_margin_, clock, round);
        if (i == 0) wide_ms += clock.elapsed_ms();
        result_.iterations += found.stats.iterations;
        result_.tree_size += found.stats.tree_size;
        exhausted[i] = found.path.empty() && !clock.expired();
        searched = true;
      }
      if (!searched) break;
    }
    if (space_->margin() < wider_margin && !found.path.empty()) {
      result_.margin_used = space_->margin();
      char note[200];
      std::snprintf(note, sizeof note,
                    "margin reduced from %.3f m to %.3f m: no path kept %.3f m clear in %.0f ms "
                    "of searching",
                    options_.margin, result_.margin_used, wider_margin, wide_ms);
      result_.notes.emplace_back(note);
    }
    result_.search_time_ms = ms_since(search_begin);
    if (found.path.empty()) throw_no_path(margins.back(), without_obstacles());
    return found.path;
  }

  // Shortcutting and smoothing on their own clock (no deadline), same cancellation and progress;
  // returns the path in the group's coordinates.
  JointPath post_process(JointPath path, SearchClock& post_clock) {
    std::mt19937_64 rng(options_.seed ^ 0x9e3779b97f4a7c15ULL);
    if (options_.shortcut_passes > 0 && projector_) {
      shortcut_constrained(*space_, *projector_, path, options_.shortcut_passes, rng, post_clock);
    } else if (options_.shortcut_passes > 0) {
      remove_redundant_waypoints(*space_, path);
      shortcut_path(*space_, path, options_.shortcut_passes, rng, post_clock);
    }
    if (options_.smoothing && !projector_)
      smooth_path(*space_, path, options_.smoothing_passes, post_clock);
    return path;
  }

  // The path (group coordinates) through the output gates, as full states; `path` becomes what was
  // given out. When they refuse it: its refused segments re-planned, else the raw search path,
  // else (unconstrained) the whole motion searched again with a finer edge check.
  JointPath gate(JointPath& path, const JointPath& raw) {
    JointPath output = to_full(path);
    std::optional<std::string> problem = gates(output);
    if (problem && repair(path)) {
      output = to_full(path);
      problem.reset();
    }
    if (!problem) return output;
    result_.notes.push_back("post-processed path rejected by the output gates (" + *problem +
                            "); the raw path is returned");
    path = raw;
    output = to_full(path);
    problem = gates(output);
    if (problem && !projector_ && search_again_finely(path)) {
      output = to_full(path);
      problem.reset();
    }
    if (problem) throw_refused(*problem);
    return output;
  }

 private:
  void make_space(double margin, double resolution) {
    space_.emplace(checker_, variables_, start_, margin, resolution);
    space_->set_workspace(options_.workspace);
    space_->set_exact(exact_checks_);
  }

  // What a failed search's message adds: whether start and goal connect with the scene's
  // obstacles ignored (RRT-Connect, self collisions only, a budget of its own). Where they do
  // not, the robot's own links wall one end in (an industrial arm's elbow folded past its upper
  // arm): no timeout or margin helps, and the user needs to hear that rather than "raise the
  // timeout". Each end is then tried against the group's zero pose (clamped into the limits; an
  // arm's zero is mostly unfolded) to name the end that is walled in.
  struct ObstacleFreeTry {
    bool tried = false, connected = false;
    double ms = 0.0;
    int nodes = 0;
    std::string walled_end;  // "start", "goal" or "" (not told)
  };
  ObstacleFreeTry without_obstacles() {
    ObstacleFreeTry outcome;
    if (!options_.explain_failure || projector_ || goals_in_margin_.empty()) return outcome;
    PlanningSpace bare(checker_, variables_, start_, 0.0, options_.resolution);
    bare.set_obstacles_ignored(true);
    bare.set_exact(true);
    const double budget =
        std::clamp(0.25 * options_.timeout_ms, kObstacleFreeMinMs, kObstacleFreeMaxMs);
    PlannerOptions unlimited = options_;  // the budget alone ends it
    unlimited.max_iterations = std::numeric_limits<int>::max();
    const auto connects = [&](const JointVector& from, const std::vector<JointVector>& to,
                              double ms) {
      SearchClock clock(ms, control_);
      const SearchOutcome found = plan_rrt_connect(bare, from, to, unlimited, clock);
      outcome.ms += clock.elapsed_ms();
      outcome.nodes += found.stats.tree_size;
      return !found.path.empty();
    };
    outcome.tried = true;
    outcome.connected = connects(start_g_, goals_in_margin_, 0.5 * budget);
    if (outcome.connected) return outcome;
    const JointVector zero =
        JointVector::Zero(start_g_.size()).cwiseMax(bare.lower()).cwiseMin(bare.upper());
    if (!bare.valid(zero)) return outcome;
    const bool start_out = !connects(start_g_, {zero}, 0.25 * budget);
    const bool goal_out = !connects(zero, goals_in_margin_, 0.25 * budget);
    if (start_out != goal_out) outcome.walled_end = start_out ? "start" : "goal";
    return outcome;
  }

  // narrowest: the narrowest margin searched with.
  [[noreturn]] void throw_no_path(double narrowest, const ObstacleFreeTry& bare) const {
    char message[256];
    std::snprintf(message, sizeof message,
                  "%s found no path within %s / %d iterations (%d nodes explored)",
                  result_.planner.c_str(), limit_ms_text(options_.timeout_ms).c_str(),
                  options_.max_iterations, result_.tree_size);
    std::string said = message;
    if (narrowest < options_.margin) {
      // The clearance searched with matters to why it failed: a narrower one opens passages.
      char margin[200];
      std::snprintf(margin, sizeof margin, " with margins down to %.3f m (asked: %.3f m)",
                    narrowest, options_.margin);
      said += margin;
    }
    if (bare.tried && !bare.connected) {
      const std::string& end = bare.walled_end;
      const std::string other = end == "start" ? "goal" : "start";
      const std::string where = end.empty()
                                    ? "the start and goal off from each other"
                                    : "the " + end + " in: it reaches neither the " + other +
                                          " nor the zero pose, which the " + other + " reaches";
      char walled[400];
      std::snprintf(walled, sizeof walled,
                    "; with every obstacle ignored no path was found either (%.0f ms, %d nodes): "
                    "the robot's own links seem to wall %s (a joint folded past another link)",
                    bare.ms, bare.nodes, where.c_str());
      throw Error(ErrorCode::Timeout, said + walled,
                  "choose a start or goal with the arm unfolded (each joint away from where its "
                  "link folds into another), or check the SRDF's disabled collision pairs");
    }
    if (bare.tried) {
      char blocked[160];
      std::snprintf(blocked, sizeof blocked,
                    "; with the obstacles ignored a path exists (found in %.2f ms): the obstacles "
                    "block the way",
                    bare.ms);
      said += blocked;
    }
    throw Error(
        ErrorCode::Timeout, said,
        "raise timeout_ms and max_iterations (or use the offline preset); a goal in a narrow "
        "passage may need more time, a goal in a disconnected region cannot be reached");
  }

  JointPath to_full(const JointPath& group_path) const {
    JointPath full;
    full.reserve(group_path.size());
    for (const auto& q : group_path) full.push_back(space_->to_full(q));
    return full;
  }

  std::optional<std::string> gates(const JointPath& full) {
    std::optional<std::string> found_problem = limits_gate(model_, full);
    if (!found_problem) found_problem = collision_gate(checker_, full);
    return found_problem;
  }

  // A segment the continuous gate refuses is re-planned between its ends at a finer edge check
  // (segment_repair.hpp) before the path is given up: the search must not hand over what its own
  // gate refuses.
  bool repair(JointPath& group_path) {
    if (projector_) return false;  // a re-planned piece would leave the constraint set
    PlanningSpace fine(checker_, variables_, start_, space_->margin(), options_.resolution / 4.0);
    PlanningSpace finer(checker_, variables_, start_, space_->margin(), options_.resolution / 16.0);
    fine.set_workspace(options_.workspace);
    finer.set_workspace(options_.workspace);
    fine.set_exact(exact_checks_);
    finer.set_exact(exact_checks_);
    const SegmentRefused refused = [&](const JointVector& a, const JointVector& b) {
      return collision_gate(checker_, JointPath{space_->to_full(a), space_->to_full(b)})
          .has_value();
    };
    SearchClock repair_clock(options_.timeout_ms, control_);
    JointPath repaired = group_path;
    const RepairOutcome outcome =
        repair_refused_segments({&fine, &finer}, repaired, refused, options_, repair_clock);
    repair_text_ = std::to_string(outcome.refused) + " refused segment(s), " +
                   std::to_string(outcome.repaired) + " re-planned in " +
                   std::to_string(static_cast<int>(repair_clock.elapsed_ms())) + " ms";
    if (!outcome.passed || gates(to_full(repaired))) return false;
    result_.notes.push_back(std::to_string(outcome.repaired) +
                            " segment(s) refused by the continuous collision gate " +
                            "were re-planned with a finer edge check");
    group_path = std::move(repaired);
    return true;
  }

  // Last: the whole motion searched again with the finer edge check, its refused segments
  // repaired in turn. True, with `path` the new one, when that passes the gates.
  bool search_again_finely(JointPath& path) {
    PlanningSpace fine(checker_, variables_, start_, space_->margin(), options_.resolution / 4.0);
    fine.set_workspace(options_.workspace);
    fine.set_exact(exact_checks_);
    SearchClock replan_clock(options_.timeout_ms, control_);
    JointPath again =
        plan_rrt_connect(fine, start_g_, goals_in_margin_, options_, replan_clock).path;
    if (again.empty()) return false;
    remove_redundant_waypoints(fine, again);
    if (gates(to_full(again)) && !repair(again)) return false;
    result_.notes.push_back("the motion was searched again with edges checked every " +
                            std::to_string(options_.resolution / 4.0).substr(0, 6) + " rad");
    path = std::move(again);
    return true;
  }

  [[noreturn]] void throw_refused(const std::string& problem) const {
    char margin[160];
    if (result_.margin_used < options_.margin)
      std::snprintf(
          margin, sizeof margin,
          " (planned with a margin of %.3f m, reduced from %.3f m; edges checked every %.3f rad)",
          result_.margin_used, options_.margin, options_.resolution);
    else
      std::snprintf(margin, sizeof margin,
                    " (planned with a margin of %.3f m; edges checked every %.3f rad)",
                    result_.margin_used, options_.resolution);
    throw Error(
        ErrorCode::InCollision, "planned path failed the output gates: " + problem + margin,
        "the refused segment could not be re-planned (" + repair_text_ +
            "): raise timeout_ms, or lower the resolution so edges are checked more finely");
  }

  CollisionChecker& checker_;
  const std::vector<int>& variables_;
  const RobotModel& model_;
  const JointVector& start_;
  const PlannerOptions& options_;
  const PlanControl& control_;
  const ConstraintProjector* projector_;  // the path constraints', if any
  PlanResult& result_;
  std::optional<PlanningSpace> space_;        // at the margin searched (the last one tried)
  std::vector<JointVector> goals_in_margin_;  // group coordinates
  JointVector start_g_;                       // group coordinates
  std::string repair_text_;    // what the last repair did, for the error when it fails
  bool exact_checks_ = false;  // the spaces check without the refinement margin (choose_margin)
};

}  // namespace

PlanResult Planner::plan_impl(const JointVector& start, const PlanningGoal& goal,
                              const PathConstraints* constraints, const PlannerOptions& options,
                              const PlanControl& control) {
  const auto begin = SearchClock::Clock::now();
  options.validate();
  check_start(start);
  std::vector<JointVector> goals = resolve_goal(start, goal, options, control);

  PlanResult result;
  result.planner = constraints ? "constrained_rrt_connect" : to_string(options.planner);
  std::optional<ConstraintProjector> projector;
  if (constraints) {
    const KinematicChain& arm = chain();
    if (arm.variable_indices() != variables_)
      throw Error(
          ErrorCode::Unsupported,
          "constrained planning needs the planning group '" + group_ + "' to be its TCP chain",
          "define the group as a chain (base_link, tip_link) in kinetic.toml");
    projector.emplace(arm, *constraints);
    keep_goals_in_constraints(arm, *projector, start, goals);
  }
  result.goal_candidates = goals;
  if (options.workspace) goals = keep_inside_workspace(start, std::move(goals), *options.workspace);

  const ConstraintProjector* projection = projector ? &*projector : nullptr;
  PlanStages stages(checker_, variables_, *model_, start, options, control, projection, result);
  stages.choose_margin(goals);
  const JointPath raw = stages.search([&](PlanningSpace& space, const JointVector& start_g,
                                          const std::vector<JointVector>& goals_g,
                                          SearchClock& clock, std::uint64_t restart) {
    if (restart == 0) return search_at(space, projection, start, start_g, goals_g, options, clock);
    PlannerOptions again = options;
    again.seed += restart;
    return search_at(space, projection, start, start_g, goals_g, again, clock);
  });

  // Post-processing: its own clock (no deadline), same cancellation and progress.
  SearchClock post_clock(1e9, control);
  const auto post_begin = SearchClock::Clock::now();
  result.length_before = path_length(raw);
  JointPath path = stages.post_process(raw, post_clock);
  result.postprocess_time_ms = ms_since(post_begin);
  post_clock.poll("validating", 0, static_cast<int>(path.size()));
  const auto gates_begin = SearchClock::Clock::now();
  JointPath output = stages.gate(path, raw);
  result.validation_time_ms = ms_since(gates_begin);
  result.path = std::move(output);
  result.length_after = path_length(path);
  result.planning_time_ms = ms_since(begin);
  return result;
}

}  // namespace kinetic
