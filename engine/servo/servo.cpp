#include "engine/servo/servo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "engine/collision/body_pair.hpp"
#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"
#include "engine/kinematics/joint_source.hpp"
#include "engine/servo/gram_algebra.hpp"

namespace kinetic {
namespace {

// Slowdowns never go below this fraction of the speed: an arm creeping towards a hard stop
// reaches it in finite time and halts there (a slowdown falling linearly to zero would only
// approach it).
constexpr double kCrawl = 0.02;
// A pair approaches when its distance falls by more than this (m) in a step: distances of pairs
// that turn about their common axis (a joint housing over the base) change by rounding only,
// and such a pair sitting inside the stop distance must not freeze the arm. (At 500 Hz a creep
// below it is under a micrometre per second.)
constexpr double kApproach = 1e-9;

std::string number(double value, int digits = 3) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

// Rounded down to a tenth (a condition number just under the hard stop must not read as it).
std::string condition_text(double c) {
  return std::isfinite(c) ? number(std::floor(10.0 * c) / 10.0, 6) : "infinite";
}

// Rounded down, so that a slowdown never reads "100%".
std::string percent(double fraction) {
  return number(std::floor(1000.0 * fraction) / 10.0, 3) + "%";
}

void require(bool ok, const char* field, const std::string& rule, double value) {
  if (!ok)
    throw Error(
        ErrorCode::InvalidValue,
        std::string("servo option ") + field + " " + rule + " (got " + number(value, 6) + ")",
        std::string("set ServoOptions::") + field + " within its range");
}

bool all_finite(const double* data, Eigen::Index size) {
  for (Eigen::Index i = 0; i < size; ++i)
    if (!std::isfinite(data[i])) return false;
  return true;
}

const char* axis_name(int i) {
  static const char* const names[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  return names[i];
}

}  // namespace

const char* to_string(ServoStatus status) {
  switch (status) {
    case ServoStatus::Ok:
      return "ok";
    case ServoStatus::DecelerateForSingularity:
      return "decelerating for a singularity";
    case ServoStatus::HaltForSingularity:
      return "halted at a singularity";
    case ServoStatus::DecelerateForCollision:
      return "decelerating for a collision";
    case ServoStatus::HaltForCollision:
      return "halted for a collision";
    case ServoStatus::JointBound:
      return "joint at its limit";
    case ServoStatus::TargetReached:
      return "target reached";
    case ServoStatus::Stopped:
      return "stopped";
  }
  return "unknown";
}

void validate_servo_options(const ServoOptions& o) {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  const auto non_negative = [](double v) { return std::isfinite(v) && v >= 0.0; };
  require(positive(o.rate_hz) && o.rate_hz <= 100000.0, "rate_hz", "must be in (0, 100000] Hz",
          o.rate_hz);
  require(positive(o.max_linear_speed), "max_linear_speed", "must be a positive speed (m/s)",
          o.max_linear_speed);
  require(positive(o.max_angular_speed), "max_angular_speed", "must be a positive speed (rad/s)",
          o.max_angular_speed);
  require(positive(o.velocity_scaling) && o.velocity_scaling <= 1.0, "velocity_scaling",
          "must be in (0, 1]", o.velocity_scaling);
  require(std::isfinite(o.singularity_slowdown) && o.singularity_slowdown >= 1.0,
          "singularity_slowdown", "must be a condition number >= 1", o.singularity_slowdown);
  require(
      std::isfinite(o.singularity_hard_stop) && o.singularity_hard_stop > o.singularity_slowdown,
      "singularity_hard_stop",
      "must be finite and above singularity_slowdown (" + number(o.singularity_slowdown, 6) + ")",
      o.singularity_hard_stop);
  require(non_negative(o.collision_stop_distance), "collision_stop_distance",
          "must be a distance >= 0 (m)", o.collision_stop_distance);
  require(std::isfinite(o.collision_slowdown_distance) &&
              o.collision_slowdown_distance > o.collision_stop_distance,
          "collision_slowdown_distance",
          "must be finite and above collision_stop_distance (" +
              number(o.collision_stop_distance, 6) + " m)",
          o.collision_slowdown_distance);
  require(non_negative(o.self_collision_stop_distance), "self_collision_stop_distance",
          "must be a distance >= 0 (m)", o.self_collision_stop_distance);
  require(std::isfinite(o.self_collision_slowdown_distance) &&
              o.self_collision_slowdown_distance > o.self_collision_stop_distance,
          "self_collision_slowdown_distance",
          "must be finite and above self_collision_stop_distance (" +
              number(o.self_collision_stop_distance, 6) + " m)",
          o.self_collision_slowdown_distance);
  require(non_negative(o.joint_limit_margin), "joint_limit_margin", "must be >= 0 (rad or m)",
          o.joint_limit_margin);
  require(positive(o.pose_gain), "pose_gain", "must be positive (1/s)", o.pose_gain);
  require(positive(o.pose_tolerance), "pose_tolerance", "must be positive (m and rad)",
          o.pose_tolerance);
  require(non_negative(o.damping), "damping", "must be >= 0", o.damping);
}

namespace {

// What the collision rules look at, for one state: the closest robot-scene pair (the scene's
// pairs are ruled by their minimum: it never falls below the stop distance while falling), and
// every self pair closer than the self slowdown distance, each on its own. Self pairs cannot go
// by their minimum: robot models have pairs that sit a few millimetres apart through most of
// their range (the UR5e's base_link and link2: 6 mm, the shoulder housing turning about its own
// axis), which would hold the minimum still and hide every other pair behind it.
struct SelfGap {
  int pair;  // index into CollisionChecker::self_pairs()
  double distance;
};

struct Clearance {
  DistanceResult scene;
  std::vector<SelfGap> self;
  double closest() const {
    double d = scene.found ? scene.distance : kInf;
    for (const SelfGap& g : self) d = std::min(d, g.distance);
    return d;
  }
};

// The verdict on moving from one measured state to another. Only pairs that come closer count.
struct Approach {
  double scale = 1.0;    // slowdown from the approaching pairs' distances now
  bool halt = false;     // an approaching pair is within the stop distance now
  bool blocked = false;  // an approaching pair would end within the stop distance (or touching)
  std::string body_a, body_b;  // the pair that decides (halt, else blocked, else the slowest)
  double distance = kInf;      // its distance now
  double stop = 0.0;           // and its stop distance (scene or self)
  double factor = 1.0;         // and its slowdown
};

// link_moves: by link index, whether the group moves the link (self pairs of two links it does
// not move keep their distance and are skipped).
void measure(CollisionChecker& checker, const ServoOptions& o, const std::vector<char>& link_moves,
             const JointVector& q, Clearance& out) {
  // The scene: sphere bounds first; the exact distance only where they come within the slowdown
  // distance (beyond it the value only has to be known not to be smaller, and a lower bound is).
  DistanceOptions scene_only;
  scene_only.self = false;
  scene_only.exact = false;
  out.scene = checker.min_distance(q, scene_only);
  if (out.scene.found && out.scene.distance < o.collision_slowdown_distance) {
    scene_only.exact = true;
    out.scene = checker.min_distance(q, scene_only);
  }
  out.self.clear();
  checker.update(q);
  const double cutoff = o.self_collision_slowdown_distance;
  const auto& pairs = checker.self_pairs();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs[k];
    const int links = checker.robot_body_count();  // bodies [0, links) are the robot's links
    if (a < links && b < links && !link_moves[static_cast<std::size_t>(a)] &&
        !link_moves[static_cast<std::size_t>(b)])
      continue;
    const CollisionBody& body_a = checker.body(a);
    const CollisionBody& body_b = checker.body(b);
    const Pose& pose_a = checker.body_pose(a);
    const Pose& pose_b = checker.body_pose(b);
    if (pair_distance_bounds(body_a, pose_a, body_b, pose_b, cutoff).lower >= cutoff) continue;
    const double d = exact_pair_distance(body_a, pose_a, body_b, pose_b, cutoff).distance;
    if (d < cutoff) out.self.push_back({static_cast<int>(k), d});
  }
}

Approach judge(const CollisionChecker& checker, const ServoOptions& o, const Clearance& now,
               const Clearance& next) {
  Approach verdict;
  int rank = 0;  // of the pair recorded: 3 halt, 2 blocked, 1 slowdown
  const auto consider = [&](double d0, double d1, const std::string& a, const std::string& b,
                            double stop, double slowdown) {
    if (!(d1 < d0 - kApproach)) return;  // not approaching: always allowed
    double factor = 1.0;
    int r = 0;
    if (d0 <= stop) {
      verdict.halt = true;
      factor = 0.0;
      r = 3;
    } else if (d1 < stop || d1 <= 0.0) {
      verdict.blocked = true;
      r = 2;
    }
    if (d0 > stop && d0 < slowdown) factor = std::max(kCrawl, (d0 - stop) / (slowdown - stop));
    if (factor < 1.0 && r == 0) r = 1;
    verdict.scale = std::min(verdict.scale, factor);
    if (r > rank || (r == 1 && rank == 1 && factor < verdict.factor)) {
      rank = r;
      verdict.body_a = a;
      verdict.body_b = b;
      verdict.distance = std::isfinite(d0) ? d0 : d1;
      verdict.stop = stop;
      verdict.factor = factor;
    }
  };
  if (now.scene.found && next.scene.found)
    consider(now.scene.distance, next.scene.distance, next.scene.body_a, next.scene.body_b,
             o.collision_stop_distance, o.collision_slowdown_distance);
  const auto& pairs = checker.self_pairs();
  for (const SelfGap& g : next.self) {
    double d0 = kInf;  // not measured now: at least the slowdown distance away
    for (const SelfGap& h : now.self)
      if (h.pair == g.pair) d0 = h.distance;
    const auto [a, b] = pairs[static_cast<std::size_t>(g.pair)];
    consider(d0, g.distance, checker.body_name(a), checker.body_name(b),
             o.self_collision_stop_distance, o.self_collision_slowdown_distance);
  }
  return verdict;
}

// Throws naming what is wrong with `q` or `command` for `chain`'s servo (messages are built only
// on failure: this runs every period).
void validate_step_input(const RobotModel& model, const KinematicChain& chain, const JointVector& q,
                         const ServoCommand& command) {
  const int n = chain.dof();
  if (q.size() != model.dof() || !all_finite(q.data(), q.size())) {
    model.validate(q);  // throws DimensionMismatch / InvalidValue naming the joint
  }
  if (command.kind == ServoCommand::Kind::Twist && !command.twist.allFinite()) {
    int bad = 0;
    while (std::isfinite(command.twist[bad])) ++bad;
    throw Error(
        ErrorCode::InvalidValue,
        std::string("servo twist command has a non-finite ") + axis_name(bad) + " (" +
            number(command.twist[bad]) + ")",
        "check the input that produced the command (device axes, GUI fields): every twist value "
        "must be a finite m/s or rad/s");
  }
  if (command.kind == ServoCommand::Kind::JointJog) {
    if (command.joint_velocities.size() != n) {
      std::string names;
      for (const std::string& name : chain.joint_names())
        names += (names.empty() ? "" : ", ") + name;
      throw Error(ErrorCode::DimensionMismatch,
                  "servo joint jog has " + std::to_string(command.joint_velocities.size()) +
                      " velocities, the group's chain has " + std::to_string(n) + " joints",
                  "give one velocity per chain joint, in the order " + names);
    }
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(command.joint_velocities[i]))
        throw Error(ErrorCode::InvalidValue,
                    "servo joint jog velocity of joint '" +
                        chain.joint_names()[static_cast<std::size_t>(i)] + "' is " +
                        number(command.joint_velocities[i]),
                    "every jog velocity must be a finite rad/s (m/s for prismatic joints)");
  }
  if (command.kind == ServoCommand::Kind::PoseTarget)
    validate_pose(command.target, "servo pose target");
}

// What the joint position limits made of a step (Servo::Workspace::keep_off_position_limits).
struct LimitBound {
  int joint = -1;      // the joint that holds the step back (-1: none)
  bool upper = false;  // at its upper limit
  bool halt = false;   // a joint on its margin's edge moves towards the limit
  double scale = 1.0;  // a Cartesian step shortened to end on the margin
};

// What the singularity check made of a Cartesian step (Servo::Workspace::approach_singularity).
struct SingularityCheck {
  double scale = 1.0;
  double candidate_condition = 1.0;  // the condition number at the (slowed) next state
  bool halt = false;
};

// What the collision check made of a step (Servo::Workspace::keep_clear).
struct CollisionCheck {
  double scale = 1.0;
  std::string message;  // the slowdown, when scale < 1
  std::string halt;     // why the step must not be taken ("" when it may)
};

std::string singularity_halt_message(double condition, const ServoOptions& o) {
  return "near a singularity (condition number " + condition_text(condition) + ", hard stop " +
         number(o.singularity_hard_stop, 3) +
         "): only motion that leaves it is allowed; jog single joints to leave it";
}

std::string collision_halt_message(const Approach& a) {
  return "'" + a.body_a + "' is " + number(a.distance, 3) + " m from '" + a.body_b +
         "' (stop distance " + number(a.stop, 3) + " m): only motion away from it is allowed";
}

}  // namespace

struct Servo::Workspace {
  // Chain order: position limits (infinite where unbounded) and velocity limits.
  JointVector lower, upper, velocity_limit;
  // Per-step buffers.
  JointVector q, dq, candidate, q_model;
  Jacobian jacobian, candidate_jacobian;
  Pose tip = Pose::Identity(), candidate_tip = Pose::Identity();
  GramAlgebra algebra;
  // The condition number at the state the last Cartesian step returned (-1: unknown).
  double known_condition = -1.0;
  JointVector known_condition_q;
  // Clearance of the state the last step returned (a loop feeds it straight back in: measured
  // once per step) and of the candidate.
  Clearance clearance[2];
  std::vector<char> link_moves;  // by link index: moved by the group's joints
  int current = 0;               // clearance[current] belongs to current_q
  JointVector current_q;
  bool current_valid = false;

  double condition_at(const KinematicChain& chain, const JointVector& q_chain) {
    chain.fk_and_jacobian(q_chain, candidate_tip, candidate_jacobian);
    return algebra.condition(candidate_jacobian);
  }

  // The twist a Cartesian command asks for at `tip`, capped to the maximum speeds (direction
  // kept); std::nullopt when there is nothing to do, `out` then saying so (target reached, or Ok).
  std::optional<Twist> commanded_twist(const ServoCommand& command, const ServoOptions& o,
                                       ServoStep& out) const {
    Twist twist = Twist::Zero();
    if (command.kind == ServoCommand::Kind::Twist) {
      twist = command.twist;
      if (command.frame == ServoCommand::Frame::Tool) {
        twist.head<3>() = tip.linear() * command.twist.head<3>();
        twist.tail<3>() = tip.linear() * command.twist.tail<3>();
      }
    } else {
      const Vector3 position_error = command.target.translation() - tip.translation();
      const Eigen::AngleAxisd rotation_error(
          Eigen::Matrix3d(command.target.linear() * tip.linear().transpose()));
      const double angle = std::abs(rotation_error.angle());
      if (position_error.norm() <= o.pose_tolerance && angle <= o.pose_tolerance) {
        out.status = ServoStatus::TargetReached;
        out.message = "target reached (" + number(position_error.norm(), 2) + " m, " +
                      number(angle, 2) + " rad off)";
        return std::nullopt;
      }
      // gain * error, but never more than the error in one period (no overshoot at high gains).
      const double gain = std::min(o.pose_gain, o.rate_hz);
      twist.head<3>() = gain * position_error;
      twist.tail<3>() = gain * rotation_error.angle() * rotation_error.axis();
    }
    // Capped to the maximum speeds, direction kept.
    const double linear = twist.head<3>().norm(), angular = twist.tail<3>().norm();
    double cap = 1.0;
    if (linear > o.max_linear_speed) cap = std::min(cap, o.max_linear_speed / linear);
    if (angular > o.max_angular_speed) cap = std::min(cap, o.max_angular_speed / angular);
    twist *= cap;
    if (twist.isZero(0.0)) {
      out.status = ServoStatus::Ok;
      return std::nullopt;
    }
    return twist;
  }

  // dq for `twist` at the jacobian of `q_full` (the model's state); returns the condition number.
  // Where the last step left the arm well conditioned (a loop feeds its state back), plain least
  // squares by Cholesky; otherwise damped least squares through the eigen decomposition (the
  // damping fades in past singularity_slowdown).
  double solve_joint_velocities(const Twist& twist, const JointVector& q_full,
                                const ServoOptions& o) {
    const bool known = known_condition >= 0.0 && known_condition_q.size() == q_full.size() &&
                       known_condition_q == q_full;
    if (known && known_condition < o.singularity_slowdown && algebra.exact(jacobian, twist, dq))
      return known_condition;
    return algebra.damped(jacobian, twist, o.damping, o.singularity_slowdown, dq);
  }

  // Velocity limits: one uniform scale keeps the direction. dq becomes the step in joint space
  // (times dt); returns the scale.
  double limit_velocity(const ServoOptions& o, double dt) {
    double velocity_scale = 1.0;
    for (Eigen::Index i = 0; i < dq.size(); ++i) {
      const double limit = velocity_limit[i] * o.velocity_scaling;
      if (std::abs(dq[i]) > limit)
        velocity_scale = std::min(velocity_scale, limit / std::abs(dq[i]));
    }
    dq *= velocity_scale * dt;  // from here on: the step in joint space
    return velocity_scale;
  }

  // Joint position limits: inside the margin only motion away from the limit. A Cartesian
  // command halts (moving the other joints would bend its direction, as MoveIt Servo's default);
  // a jog stops only the joints at their limits. A step that would cross into the margin is
  // shortened to end on it (a jog's joint here; a Cartesian step by the returned scale).
  LimitBound keep_off_position_limits(const ServoOptions& o, bool cartesian) {
    LimitBound bound;
    for (Eigen::Index i = 0; i < dq.size(); ++i) {
      const double d = dq[i];
      if (d == 0.0) continue;
      const double low = lower[i] + o.joint_limit_margin, high = upper[i] - o.joint_limit_margin;
      const bool toward_upper = d > 0.0;
      const double edge = toward_upper ? high : low;
      const double room = toward_upper ? edge - q[i] : q[i] - edge;  // > 0 while outside the margin
      if (room <= 1e-12) {  // (a step that ended on the edge may leave rounding on either side)
        if (bound.joint < 0 || !bound.halt) {
          bound.joint = static_cast<int>(i);
          bound.upper = toward_upper;
        }
        bound.halt = true;
        if (!cartesian) dq[i] = 0.0;
      } else if (std::abs(d) > room) {
        if (bound.joint < 0) {
          bound.joint = static_cast<int>(i);
          bound.upper = toward_upper;
        }
        if (cartesian)
          bound.scale = std::min(bound.scale, room / std::abs(d));
        else
          dq[i] = toward_upper ? room : -room;
      }
    }
    return bound;
  }

  std::string bound_message(const KinematicChain& chain, const LimitBound& bound,
                            const ServoOptions& o) const {
    const int i = bound.joint;
    return "joint '" + chain.joint_names()[static_cast<std::size_t>(i)] + "' is at its " +
           (bound.upper ? "upper" : "lower") + " limit (" +
           number(bound.upper ? upper[i] : lower[i], 4) + ", margin " +
           number(o.joint_limit_margin, 3) + "): only motion away from it is allowed";
  }

  // Singularities (Cartesian commands), judged at the candidate next state: approaching one past
  // singularity_slowdown slows the step, reaching the hard stop halts it.
  SingularityCheck approach_singularity(const KinematicChain& chain, const ServoOptions& o,
                                        double condition) {
    SingularityCheck check;
    candidate = q + dq;
    check.candidate_condition = condition_at(chain, candidate);
    const bool approaching = check.candidate_condition > condition;
    if (!approaching) return check;
    if (condition >= o.singularity_hard_stop) {
      check.halt = true;
      return check;
    }
    if (condition > o.singularity_slowdown) {
      check.scale = std::max(kCrawl, (o.singularity_hard_stop - condition) /
                                         (o.singularity_hard_stop - o.singularity_slowdown));
      dq *= check.scale;
      candidate = q + dq;
      check.candidate_condition = condition_at(chain, candidate);
    }
    check.halt = check.candidate_condition >= o.singularity_hard_stop;
    return check;
  }

  // Collisions: clearance at the candidate next state, pair by pair (see Clearance), slowing the
  // step near a pair and refusing it where it would come too close. `q_full` is the model's state
  // now; a step taken leaves its state in q_model and its clearance as the current one.
  CollisionCheck keep_clear(CollisionChecker& checker, const ServoOptions& o,
                            const RobotModel& model, const std::vector<int>& variables,
                            const JointVector& q_full) {
    CollisionCheck check;
    q_model = q_full;
    const auto write_candidate = [&] {
      for (Eigen::Index i = 0; i < q.size(); ++i)
        q_model[variables[static_cast<std::size_t>(i)]] = q[i] + dq[i];
    };
    write_candidate();
    Clearance& now = clearance[current];
    Clearance& next = clearance[1 - current];
    if (!(current_valid && current_q.size() == q_full.size() && current_q == q_full)) {
      measure(checker, o, link_moves, q_full, now);
      current_q = q_full;
      current_valid = true;
    }
    measure(checker, o, link_moves, q_model, next);
    Approach approach = judge(checker, o, now, next);
    if (approach.halt) {
      check.halt = collision_halt_message(approach);
      return check;
    }
    if (approach.scale < 1.0) {
      check.scale = approach.scale;
      check.message = "'" + approach.body_a + "' is " + number(approach.distance, 3) + " m from '" +
                      approach.body_b + "': slowed to " + percent(check.scale);
      dq *= check.scale;
      write_candidate();
      measure(checker, o, link_moves, q_model, next);
      approach = judge(checker, o, now, next);
    }
    if (approach.blocked) {
      check.halt = collision_halt_message(approach);
      return check;
    }
    // Within the robot's padding plus the checker's refinement margin in_collision may call the
    // state a collision: its verdict counts too (planners read the same checker).
    const double verdict_zone =
        model.config().collision.padding + checker.options().refinement_margin;
    if (next.closest() <= verdict_zone && next.closest() <= now.closest() &&
        checker.in_collision(q_model)) {
      check.halt = "the step would bring the robot within its collision padding (" +
                   number(verdict_zone, 3) + " m): only motion away from the contact is allowed";
      return check;
    }
    current = 1 - current;  // the candidate is the next step's state
    current_q = q_model;
    return check;
  }
};

Servo::Servo(RobotModelPtr model, const std::string& group, ServoOptions options)
    : model_(std::move(model)),
      chain_(model_ ? KinematicChain::from_config(model_, group)
                    : throw Error(ErrorCode::InvalidValue, "Servo needs a robot model, got null")),
      options_(options),
      work_(std::make_unique<Workspace>()) {
  validate_servo_options(options_);
  const int n = chain_.dof();
  if (n == 0)
    throw Error(ErrorCode::InvalidModel,
                "planning group '" + group + "' of robot '" + model_->name() +
                    "' has no moving joints to servo",
                "choose a group whose chain has joints");
  checker_ = std::make_unique<CollisionChecker>(model_);
  Workspace& w = *work_;
  // Links the group moves: below a joint driven by a chain variable (mimics included).
  const std::vector<int>& chain_variables = chain_.variable_indices();
  w.link_moves.assign(model_->links().size(), 0);
  for (const Link& link : model_->links()) {
    for (int j = link.parent_joint; j >= 0;) {
      const int source =
          detail::resolve_joint_source(model_->joints()[static_cast<std::size_t>(j)]).variable;
      if (source >= 0 && std::find(chain_variables.begin(), chain_variables.end(), source) !=
                             chain_variables.end()) {
        w.link_moves[static_cast<std::size_t>(link.index)] = 1;
        break;
      }
      const int parent = model_->joints()[static_cast<std::size_t>(j)].parent_link;
      j = model_->links()[static_cast<std::size_t>(parent)].parent_joint;
    }
  }
  w.lower.resize(n);
  w.upper.resize(n);
  w.velocity_limit.resize(n);
  const JointVector lower = chain_.lower_limits(), upper = chain_.upper_limits();
  for (int i = 0; i < n; ++i) {
    const bool bounded = chain_.has_position_limits(i);
    w.lower[i] = bounded ? lower[i] : -kInf;
    w.upper[i] = bounded ? upper[i] : kInf;
    // A joint without a velocity limit (0 in the file) is not held back by it.
    const double v = model_->variable_joint(chain_.variable_indices()[static_cast<std::size_t>(i)])
                         .limits.velocity;
    w.velocity_limit[i] = v > 0.0 ? v : kInf;
  }
  w.q.resize(n);
  w.dq.resize(n);
  w.candidate.resize(n);
  w.jacobian.resize(6, n);
  w.candidate_jacobian.resize(6, n);
}

Servo::~Servo() = default;
Servo::Servo(Servo&&) noexcept = default;
Servo& Servo::operator=(Servo&&) noexcept = default;

void Servo::set_scene(const PlanningScene& scene) {
  // Links the group does not move (the base, a table-mounted column) keep their distance to the
  // scene whatever the command: their pairs are left out, or a base standing on a table would
  // hold the scene's minimum distance at zero and hide every pair that can change.
  PlanningScene own = scene;
  const Workspace& w = *work_;
  for (const Obstacle& obstacle : scene.obstacles()) {
    for (const Link& link : model_->links())
      if (!w.link_moves[static_cast<std::size_t>(link.index)] && !link.collisions.empty())
        own.allow(link.name, obstacle.name);
    for (const AttachedObject& object : scene.attached_objects())
      if (!w.link_moves[static_cast<std::size_t>(model_->link_index(object.link))])
        own.allow(object.name, obstacle.name);
  }
  checker_->set_scene(own);
  work_->current_valid = false;
}

void Servo::set_options(const ServoOptions& options) {
  validate_servo_options(options);
  options_ = options;
  work_->current_valid = false;  // (the slowdown distance decides which pairs are measured)
}

ServoStep Servo::step(const JointVector& q, const ServoCommand& command) {
  Workspace& w = *work_;
  const int n = chain_.dof();
  const std::vector<int>& variables = chain_.variable_indices();
  validate_step_input(*model_, chain_, q, command);
  const bool cartesian =
      command.kind == ServoCommand::Kind::Twist || command.kind == ServoCommand::Kind::PoseTarget;

  ServoStep out;
  out.q = q;
  out.velocity = JointVector::Zero(model_->dof());
  if (command.kind == ServoCommand::Kind::Stop) {
    out.status = ServoStatus::Stopped;
    return out;
  }

  const ServoOptions& o = options_;
  const double dt = 1.0 / o.rate_hz;
  for (int i = 0; i < n; ++i) w.q[i] = q[variables[static_cast<std::size_t>(i)]];

  // --- Joint velocities for the command.
  double condition = 1.0;
  if (cartesian) {
    chain_.fk_and_jacobian(w.q, w.tip, w.jacobian);
    const std::optional<Twist> twist = w.commanded_twist(command, o, out);
    if (!twist) return out;
    condition = w.solve_joint_velocities(*twist, q, o);
  } else {
    w.dq = command.joint_velocities;
  }

  // --- Velocity and joint position limits.
  const double velocity_scale = w.limit_velocity(o, dt);
  const LimitBound bound = w.keep_off_position_limits(o, cartesian);
  const auto halt = [&](ServoStatus status, std::string message) {
    if (cartesian) {  // the arm stays where its condition number is known
      w.known_condition = condition;
      w.known_condition_q = q;
    }
    out.q = q;
    out.velocity.setZero();
    out.status = status;
    out.speed_scale = 0.0;
    out.message = std::move(message);
    return out;
  };
  if (cartesian && bound.halt)
    return halt(ServoStatus::JointBound, w.bound_message(chain_, bound, o));
  if (cartesian) w.dq *= bound.scale;
  if (w.dq.isZero(0.0)) {
    if (bound.joint >= 0) return halt(ServoStatus::JointBound, w.bound_message(chain_, bound, o));
    out.status = ServoStatus::Ok;
    return out;
  }

  // --- Singularities (Cartesian commands).
  SingularityCheck singularity;
  singularity.candidate_condition = condition;
  if (cartesian) {
    singularity = w.approach_singularity(chain_, o, condition);
    if (singularity.halt)
      return halt(ServoStatus::HaltForSingularity, singularity_halt_message(condition, o));
  }

  // --- Collisions.
  CollisionCheck collision = w.keep_clear(*checker_, o, *model_, variables, q);
  if (!collision.halt.empty())
    return halt(ServoStatus::HaltForCollision, std::move(collision.halt));

  // --- The step.
  out.q = w.q_model;
  w.known_condition = cartesian && collision.scale == 1.0 ? singularity.candidate_condition : -1.0;
  w.known_condition_q = out.q;
  for (int i = 0; i < n; ++i) out.velocity[variables[static_cast<std::size_t>(i)]] = w.dq[i] / dt;
  out.speed_scale = velocity_scale * bound.scale * singularity.scale * collision.scale;
  out.status = ServoStatus::Ok;
  if (bound.joint >= 0) {
    out.status = ServoStatus::JointBound;
    out.message = w.bound_message(chain_, bound, o);
  } else if (collision.scale < 1.0 && collision.scale <= singularity.scale) {
    out.status = ServoStatus::DecelerateForCollision;
    out.message = std::move(collision.message);
  } else if (singularity.scale < 1.0) {
    out.status = ServoStatus::DecelerateForSingularity;
    out.message = "approaching a singularity (condition number " + condition_text(condition) +
                  "): slowed to " + percent(singularity.scale);
  }
  return out;
}

}  // namespace kinetic
