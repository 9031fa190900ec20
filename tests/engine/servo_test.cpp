// Servoing (engine/servo): Servo::step (twists in the base and tool frame, speed caps, joint jog,
// velocity and position limits, singularity and collision slowdown and halts, pose tracking,
// invalid input), ServoLoop (rate, command timeout, the triple buffer under readers, restart,
// a rejected command) and SpaceMouse (no daemon, the pure axis mapping, and a fake spacenavd
// on a socket of our own for events and a lost connection).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <thread>

#include "builtin_arms.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/servo/servo.hpp"
#include "engine/servo/servo_loop.hpp"
#include "engine/servo/spacemouse.hpp"
#include "support/stall_watch.hpp"

using namespace kinetic;
using namespace std::chrono_literals;

namespace {

Pose tcp(const Servo& servo, const JointVector& q) {
  return servo.chain().fk(servo.chain().to_chain(q));
}

double condition(const Servo& servo, const JointVector& q) {
  return servo.chain().condition_number(servo.chain().to_chain(q));
}

// Rotation from a to b as a vector (axis * angle), base frame.
Vector3 rotation_between(const Pose& a, const Pose& b) {
  const Eigen::AngleAxisd r(Eigen::Matrix3d(b.linear() * a.linear().transpose()));
  return r.angle() * r.axis();
}

ServoCommand twist(const Twist& t, ServoCommand::Frame frame = ServoCommand::Frame::Base) {
  ServoCommand c;
  c.kind = ServoCommand::Kind::Twist;
  c.frame = frame;
  c.twist = t;
  return c;
}

ServoCommand jog(const JointVector& v) {
  ServoCommand c;
  c.kind = ServoCommand::Kind::JointJog;
  c.joint_velocities = v;
  return c;
}

Twist make_twist(double vx, double vy, double vz, double wx, double wy, double wz) {
  Twist t;
  t << vx, vy, vz, wx, wy, wz;
  return t;
}

template <typename F>
ErrorCode error_code_of(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (message) *message = e.message() + " | " + e.hint();
    return e.code();
  }
  ADD_FAILURE() << "no kinetic::Error thrown";
  return ErrorCode::Unsupported;
}

// ------------------------------------------------------------------------------------------
// Servo::step

TEST(ServoStep, BaseFrameTwistMovesTheTcpAtTheCommandedVelocityAndKeepsOrientation) {
  for (const RobotModelPtr& model : {test::builtin_ur5e(), test::builtin_panda()}) {
    SCOPED_TRACE(model->name());
    Servo servo(model);
    const double dt = 1.0 / servo.options().rate_hz;
    const Twist command = make_twist(0.05, -0.03, 0.04, 0, 0, 0);
    JointVector q = model->named_pose("ready");
    const Pose start = tcp(servo, q);
    for (int i = 0; i < 200; ++i) {
      const Pose before = tcp(servo, q);
      const ServoStep s = servo.step(q, twist(command));
      ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
      EXPECT_TRUE(s.message.empty());
      EXPECT_DOUBLE_EQ(s.speed_scale, 1.0);
      const Pose after = tcp(servo, s.q);
      const Vector3 velocity = (after.translation() - before.translation()) / dt;
      EXPECT_LT((velocity - command.head<3>()).norm(), 1e-3 * command.head<3>().norm())
          << "step " << i;
      EXPECT_LT(rotation_between(before, after).norm(), 1e-7);
      // The reported joint velocity is the step divided by the period.
      EXPECT_LT(((s.q - q) / dt - s.velocity).cwiseAbs().maxCoeff(), 1e-9);
      q = s.q;
    }
    const Pose end = tcp(servo, q);
    EXPECT_LT((end.translation() - start.translation() - 200 * dt * command.head<3>()).norm(),
              1e-5);
    EXPECT_LT(rotation_between(start, end).norm(), 1e-5);
  }
}

TEST(ServoStep, ToolFrameTwistMovesAndTurnsAboutTheTcpAxes) {
  for (const RobotModelPtr& model : {test::builtin_ur5e(), test::builtin_panda()}) {
    SCOPED_TRACE(model->name());
    Servo servo(model);
    const double dt = 1.0 / servo.options().rate_hz;
    JointVector q = model->named_pose("ready");
    // Along the tool's z axis.
    const Pose p0 = tcp(servo, q);
    const ServoStep s =
        servo.step(q, twist(make_twist(0, 0, 0.1, 0, 0, 0), ServoCommand::Frame::Tool));
    ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
    const Vector3 moved = (tcp(servo, s.q).translation() - p0.translation()) / dt;
    EXPECT_LT((moved - p0.linear().col(2) * 0.1).norm(), 1e-4);
    // About the tool's x axis, in place.
    const ServoStep r =
        servo.step(q, twist(make_twist(0, 0, 0, 0.5, 0, 0), ServoCommand::Frame::Tool));
    ASSERT_EQ(r.status, ServoStatus::Ok) << r.message;
    const Pose p1 = tcp(servo, r.q);
    EXPECT_LT((p1.translation() - p0.translation()).norm(), 1e-7);
    EXPECT_LT((rotation_between(p0, p1) / dt - p0.linear().col(0) * 0.5).norm(), 1e-3 * 0.5);
  }
}

TEST(ServoStep, TwistIsCappedToTheMaximumSpeedsKeepingItsDirection) {
  Servo servo(test::builtin_ur5e());
  const double dt = 1.0 / servo.options().rate_hz;
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const Pose p0 = tcp(servo, q);
  // Linear: 2 m/s asked, 0.25 m/s given.
  const Twist fast = make_twist(0, 1.2, -1.6, 0, 0, 0);
  ServoStep s = servo.step(q, twist(fast));
  ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
  Vector3 v = (tcp(servo, s.q).translation() - p0.translation()) / dt;
  EXPECT_NEAR(v.norm(), servo.options().max_linear_speed, 1e-3);
  EXPECT_GT(v.normalized().dot(fast.head<3>().normalized()), 1 - 1e-6);
  // Angular: 4 rad/s asked, 1 rad/s given; with a linear part the whole twist scales alike.
  const Twist spin = make_twist(0.1, 0, 0, 0, 0, 4.0);
  s = servo.step(q, twist(spin));
  ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
  const Pose p1 = tcp(servo, s.q);
  EXPECT_NEAR(rotation_between(p0, p1).norm() / dt, servo.options().max_angular_speed, 1e-3);
  v = (p1.translation() - p0.translation()) / dt;
  EXPECT_NEAR(v.norm(), 0.1 / 4.0, 1e-4);
}

TEST(ServoStep, JointJogMovesTheGroupJointsDirectly) {
  Servo servo(test::builtin_panda());
  const double dt = 1.0 / servo.options().rate_hz;
  const JointVector q = test::builtin_panda()->named_pose("ready");
  JointVector v(7);
  v << 0.1, -0.2, 0.3, 0.05, 0, -0.4, 0.5;
  const ServoStep s = servo.step(q, jog(v));
  ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
  EXPECT_LT(
      (servo.chain().to_chain(s.q) - servo.chain().to_chain(q) - v * dt).cwiseAbs().maxCoeff(),
      1e-15);
  EXPECT_LT((servo.chain().to_chain(s.velocity) - v).cwiseAbs().maxCoeff(), 1e-12);
  // Stop: nothing moves.
  const ServoStep stop = servo.step(q, ServoCommand{});
  EXPECT_EQ(stop.status, ServoStatus::Stopped);
  EXPECT_EQ(stop.q, q);
  EXPECT_TRUE(stop.velocity.isZero());
}

TEST(ServoStep, VelocityLimitScalingKeepsTheDirection) {
  for (const RobotModelPtr& model : {test::builtin_ur5e(), test::builtin_panda()}) {
    SCOPED_TRACE(model->name());
    ServoOptions options;
    options.velocity_scaling = 0.02;
    Servo servo(model, "", options);
    const double dt = 1.0 / options.rate_hz;
    const JointVector q = model->named_pose("ready");
    const Pose p0 = tcp(servo, q);
    const Twist command = make_twist(0.2, 0.1, -0.1, 0, 0, 0.3);
    const ServoStep s = servo.step(q, twist(command));
    ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
    EXPECT_LT(s.speed_scale, 0.5);
    EXPECT_GT(s.speed_scale, 0.0);
    // Every joint within its scaled limit, one at it.
    double highest = 0.0;
    for (int v = 0; v < model->dof(); ++v) {
      const double limit = model->variable_joint(v).limits.velocity * options.velocity_scaling;
      EXPECT_LE(std::abs(s.velocity[v]), limit * (1 + 1e-12));
      highest = std::max(highest, std::abs(s.velocity[v]) / limit);
    }
    EXPECT_NEAR(highest, 1.0, 1e-9);
    // The TCP still moves along the command, at speed_scale of it.
    const Pose p1 = tcp(servo, s.q);
    Twist achieved;
    achieved << (p1.translation() - p0.translation()) / dt, rotation_between(p0, p1) / dt;
    EXPECT_LT((achieved - s.speed_scale * command).norm(), 1e-4 * command.norm());
    // A jog too: the ratios between joints are kept.
    JointVector fast = JointVector::Constant(servo.chain().dof(), 0.5);
    fast[1] = -2.0;
    const ServoStep j = servo.step(q, jog(fast));
    const JointVector moved = servo.chain().to_chain(j.velocity);
    EXPECT_NEAR(moved[1],
                -model->variable_joint(servo.chain().variable_indices()[1]).limits.velocity * 0.02,
                1e-12);
    EXPECT_NEAR(moved[0] / moved[1], 0.5 / -2.0, 1e-12);
  }
}

TEST(ServoStep, JointLimitStopsCartesianMotionWithJointBoundAndAllowsMovingAway) {
  Servo servo(test::builtin_ur5e());
  const double margin = servo.options().joint_limit_margin;
  const KinematicChain& chain = servo.chain();
  JointVector q = test::builtin_ur5e()->named_pose("ready");
  const double upper = chain.upper_limits()[5];
  q[5] = upper - margin - 1e-4;  // wrist 3 just outside its margin
  // A pure turn of wrist 3 in the positive sense: its Jacobian column as a base-frame twist.
  const Twist column = chain.jacobian(chain.to_chain(q)).col(5);
  ASSERT_LT(column.head<3>().norm(), 1e-9);  // the TCP lies on wrist 3's axis
  ServoStep s = servo.step(q, twist(column * 0.5));
  EXPECT_EQ(s.status, ServoStatus::JointBound) << s.message;  // clipped onto the margin
  EXPECT_NEAR(s.q[5], upper - margin, 1e-12);
  EXPECT_LT(s.speed_scale, 1.0);
  q = s.q;
  s = servo.step(q, twist(column * 0.5));
  EXPECT_EQ(s.status, ServoStatus::JointBound);
  EXPECT_EQ(s.q, q);
  EXPECT_TRUE(s.velocity.isZero());
  EXPECT_NE(s.message.find("'joint6'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("upper limit"), std::string::npos) << s.message;
  // Away from the limit is free.
  s = servo.step(q, twist(-column * 0.5));
  EXPECT_EQ(s.status, ServoStatus::Ok) << s.message;
  EXPECT_LT(s.q[5], q[5]);
}

TEST(ServoStep, JointLimitStopsOnlyTheJoggedJointAtItsLimit) {
  Servo servo(test::builtin_panda());
  const double margin = servo.options().joint_limit_margin;
  const double upper = servo.chain().upper_limits()[3];  // joint4: -0.0698
  JointVector q = test::builtin_panda()->named_pose("ready");
  q[3] = upper - margin - 0.01;
  JointVector v = JointVector::Zero(7);
  v[0] = 0.2;
  v[3] = 1.0;
  bool bound = false;
  for (int i = 0; i < 100; ++i) {
    const ServoStep s = servo.step(q, jog(v));
    EXPECT_LE(s.q[3], upper - margin + 1e-12);
    EXPECT_GT(s.q[0], q[0]);  // the other jogged joint keeps moving
    if (s.status == ServoStatus::JointBound) {
      bound = true;
      EXPECT_NE(s.message.find("'joint4'"), std::string::npos) << s.message;
    }
    q = s.q;
  }
  EXPECT_TRUE(bound);
  EXPECT_NEAR(q[3], upper - margin, 1e-12);
  v[3] = -1.0;  // away
  const ServoStep away = servo.step(q, jog(v));
  EXPECT_EQ(away.status, ServoStatus::Ok) << away.message;
  EXPECT_LT(away.q[3], q[3]);
}

TEST(ServoStep, SingularitySlowsDownThenHaltsBelowTheHardStopAndLetsTheArmBackOut) {
  // The UR5e stretched out horizontally: the elbow straightens.
  Servo servo(test::builtin_ur5e());
  const ServoOptions& o = servo.options();
  JointVector q = test::builtin_ur5e()->named_pose("ready");
  const Pose start = tcp(servo, q);
  const Vector3 outward = Vector3(start.translation().x(), start.translation().y(), 0).normalized();
  const ServoCommand out = twist((Twist() << 0.25 * outward, Vector3::Zero()).finished());
  std::set<ServoStatus> seen;
  double highest = 0.0;
  int steps = 0;
  for (; steps < 4000; ++steps) {
    const ServoStep s = servo.step(q, out);
    seen.insert(s.status);
    const double c = condition(servo, s.q);
    highest = std::max(highest, c);
    ASSERT_LT(c, o.singularity_hard_stop) << "step " << steps;
    if (s.status == ServoStatus::DecelerateForSingularity) {
      EXPECT_LT(s.speed_scale, 1.0);
      EXPECT_NE(s.message.find("singularity"), std::string::npos);
    }
    if (s.status == ServoStatus::HaltForSingularity) {
      EXPECT_EQ(s.q, q);
      EXPECT_NE(s.message.find("condition number"), std::string::npos) << s.message;
      break;
    }
    q = s.q;
  }
  EXPECT_TRUE(seen.count(ServoStatus::DecelerateForSingularity));
  ASSERT_TRUE(seen.count(ServoStatus::HaltForSingularity))
      << "after " << steps << " steps, condition " << highest;
  EXPECT_GT(highest, o.singularity_slowdown);
  // Back inwards: allowed at full speed, the condition number falls.
  const ServoStep back = servo.step(q, twist(-out.twist));
  EXPECT_EQ(back.status, ServoStatus::Ok) << back.message;
  EXPECT_LT(condition(servo, back.q), condition(servo, q));
}

TEST(ServoStep, CollisionSlowsDownAndHaltsBeforeABoxInFrontOfTheTcp) {
  for (const RobotModelPtr& model : {test::builtin_ur5e(), test::builtin_panda()}) {
    SCOPED_TRACE(model->name());
    Servo servo(model);
    const ServoOptions& o = servo.options();
    JointVector q = model->named_pose("ready");
    const Pose start = tcp(servo, q);
    // A box 12 cm ahead of the TCP along the tool's z axis, across its path.
    const Vector3 ahead = start.linear().col(2);
    PlanningScene scene;
    Pose box = Pose::Identity();
    box.translation() = start.translation() + 0.12 * ahead + 0.05 * ahead;
    box.linear() = start.linear();
    scene.add_obstacle("box", Shape::box(Vector3(0.3, 0.3, 0.1)), box);
    servo.set_scene(scene);
    CollisionChecker checker(model);
    checker.set_scene(scene);
    DistanceOptions scene_only;
    scene_only.self = false;
    ASSERT_GT(checker.min_distance(q, scene_only).distance, 0.05);
    std::set<ServoStatus> seen;
    const ServoCommand toward = twist(make_twist(0, 0, 0.2, 0, 0, 0), ServoCommand::Frame::Tool);
    int halted_at = -1;
    for (int i = 0; i < 2000 && (halted_at < 0 || i < halted_at + 200); ++i) {  // (it stays halted)
      const ServoStep s = servo.step(q, toward);
      seen.insert(s.status);
      if (s.q != q) {  // (a halted step leaves the state as it was)
        ASSERT_FALSE(checker.in_collision(s.q)) << "step " << i;
        ASSERT_GE(checker.min_distance(s.q, scene_only).distance, o.collision_stop_distance - 1e-9)
            << "step " << i;
      }
      if (s.status == ServoStatus::HaltForCollision) {
        EXPECT_EQ(s.q, q);
        EXPECT_NE(s.message.find("'box'"), std::string::npos) << s.message;
        if (halted_at < 0) halted_at = i;
      } else {
        EXPECT_LT(halted_at, 0) << "moved again at step " << i << ": " << s.message;
      }
      q = s.q;
    }
    EXPECT_TRUE(seen.count(ServoStatus::DecelerateForCollision));
    EXPECT_TRUE(seen.count(ServoStatus::HaltForCollision));
    const double held = checker.min_distance(q, scene_only).distance;
    EXPECT_LT(held, o.collision_stop_distance + 0.002);  // it came close: the crawl takes it there
    // Moving away is allowed, at full speed.
    const ServoStep away = servo.step(q, twist(-toward.twist, ServoCommand::Frame::Tool));
    EXPECT_EQ(away.status, ServoStatus::Ok) << away.message;
    EXPECT_GT(checker.min_distance(away.q, scene_only).distance, held);
    // Sideways along the box face (the distance stays): allowed too.
    const ServoStep along =
        servo.step(q, twist(make_twist(0.05, 0, 0, 0, 0, 0), ServoCommand::Frame::Tool));
    EXPECT_NE(along.status, ServoStatus::HaltForCollision) << along.message;
  }
}

TEST(ServoStep, CollisionTableUnderTheBaseDoesNotHideTheTcpApproachingIt) {
  // The base stands 1 mm above a table: that pair never changes and must not pin the scene's
  // minimum distance (the TCP coming down to the table still slows down and halts in time).
  Servo servo(test::builtin_ur5e());
  const ServoOptions& o = servo.options();
  PlanningScene scene;
  scene.add_obstacle("table", Shape::box(Vector3(2.0, 2.0, 0.05)),
                     Pose(Eigen::Translation3d(0, 0, -0.026)));
  servo.set_scene(scene);
  CollisionChecker checker(test::builtin_ur5e());
  checker.set_scene(scene);
  JointVector q = test::builtin_ur5e()->named_pose("ready");
  std::set<ServoStatus> seen;
  const ServoCommand down = twist(make_twist(0, 0, -0.2, 0, 0, 0));
  int steps = 0;
  for (; steps < 3000; ++steps) {
    const ServoStep s = servo.step(q, down);
    seen.insert(s.status);
    if (s.status == ServoStatus::HaltForCollision) {
      EXPECT_NE(s.message.find("'table'"), std::string::npos) << s.message;
      break;
    }
    ASSERT_NE(s.status, ServoStatus::HaltForSingularity) << s.message;
    q = s.q;
  }
  EXPECT_TRUE(seen.count(ServoStatus::DecelerateForCollision));
  ASSERT_TRUE(seen.count(ServoStatus::HaltForCollision)) << steps;
  EXPECT_GE(tcp(servo, q).translation().z(), o.collision_stop_distance);
  EXPECT_FALSE(checker.in_collision(q));
}

TEST(ServoStep, PoseTargetConvergesToTargetReached) {
  for (const RobotModelPtr& model : {test::builtin_ur5e(), test::builtin_panda()}) {
    SCOPED_TRACE(model->name());
    Servo servo(model);
    JointVector q = model->named_pose("ready");
    ServoCommand command;
    command.kind = ServoCommand::Kind::PoseTarget;
    command.target = tcp(servo, q);
    command.target.translation() += Vector3(0.05, -0.04, 0.03);
    command.target.linear() =
        command.target.linear() *
        Eigen::AngleAxisd(0.3, Vector3(1, 2, 0.5).normalized()).toRotationMatrix();
    int steps = 0;
    ServoStep s;
    for (; steps < 3000; ++steps) {
      s = servo.step(q, command);
      if (s.status == ServoStatus::TargetReached) break;
      ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
      q = s.q;
    }
    ASSERT_EQ(s.status, ServoStatus::TargetReached) << steps;
    EXPECT_EQ(s.q, q);
    const Pose reached = tcp(servo, q);
    EXPECT_LE((reached.translation() - command.target.translation()).norm(),
              servo.options().pose_tolerance);
    EXPECT_LE(rotation_between(reached, command.target).norm(), servo.options().pose_tolerance);
    EXPECT_LT(steps, 1500);  // 1/gain = 0.1 s per e-fold after the capped approach
  }
}

TEST(ServoStep, RejectsNonFiniteValuesAndWrongSizes) {
  Servo servo(test::builtin_ur5e());
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  std::string message;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(error_code_of([&] { servo.step(q, twist(make_twist(0, 0, nan, 0, 0, 0))); }, &message),
            ErrorCode::InvalidValue);
  EXPECT_NE(message.find("vz"), std::string::npos) << message;
  EXPECT_EQ(error_code_of([&] { servo.step(q, twist(make_twist(0, 0, 0, 0, inf, 0))); }, &message),
            ErrorCode::InvalidValue);
  EXPECT_NE(message.find("wy"), std::string::npos) << message;
  JointVector v = JointVector::Zero(6);
  v[2] = nan;
  EXPECT_EQ(error_code_of([&] { servo.step(q, jog(v)); }, &message), ErrorCode::InvalidValue);
  EXPECT_NE(message.find("joint3"), std::string::npos) << message;
  EXPECT_EQ(error_code_of([&] { servo.step(q, jog(JointVector::Zero(5))); }, &message),
            ErrorCode::DimensionMismatch);
  EXPECT_NE(message.find("5 velocities"), std::string::npos) << message;
  EXPECT_EQ(error_code_of([&] { servo.step(JointVector::Zero(7), ServoCommand{}); }, &message),
            ErrorCode::DimensionMismatch);
  JointVector bad = q;
  bad[1] = nan;
  EXPECT_EQ(error_code_of([&] { servo.step(bad, twist(Twist::Zero())); }, &message),
            ErrorCode::InvalidValue);
  EXPECT_NE(message.find("joint2"), std::string::npos) << message;
  ServoCommand target;
  target.kind = ServoCommand::Kind::PoseTarget;
  target.target.translation().x() = nan;
  EXPECT_EQ(error_code_of([&] { servo.step(q, target); }), ErrorCode::InvalidValue);
  // Construction: unknown group, null model.
  EXPECT_EQ(error_code_of([&] { Servo(test::builtin_ur5e(), "no_such_group"); }, &message),
            ErrorCode::InvalidModel);
  EXPECT_EQ(error_code_of([&] { Servo(nullptr); }), ErrorCode::InvalidValue);
}

TEST(ServoOptions, ValidationNamesTheField) {
  Servo servo(test::builtin_ur5e());
  const auto expect_rejected = [&](const char* field, auto change) {
    ServoOptions o;
    change(o);
    std::string message;
    EXPECT_EQ(error_code_of([&] { servo.set_options(o); }, &message), ErrorCode::InvalidValue)
        << field;
    EXPECT_NE(message.find(field), std::string::npos) << message;
    EXPECT_EQ(error_code_of([&] { Servo(test::builtin_ur5e(), "", o); }), ErrorCode::InvalidValue)
        << field;
  };
  expect_rejected("rate_hz", [](ServoOptions& o) { o.rate_hz = 0; });
  expect_rejected("rate_hz",
                  [](ServoOptions& o) { o.rate_hz = std::numeric_limits<double>::quiet_NaN(); });
  expect_rejected("max_linear_speed", [](ServoOptions& o) { o.max_linear_speed = -1; });
  expect_rejected("max_angular_speed", [](ServoOptions& o) { o.max_angular_speed = 0; });
  expect_rejected("velocity_scaling", [](ServoOptions& o) { o.velocity_scaling = 1.5; });
  expect_rejected("velocity_scaling", [](ServoOptions& o) { o.velocity_scaling = 0; });
  expect_rejected("singularity_slowdown", [](ServoOptions& o) { o.singularity_slowdown = 0.5; });
  expect_rejected("singularity_hard_stop", [](ServoOptions& o) { o.singularity_hard_stop = 10; });
  expect_rejected("collision_stop_distance",
                  [](ServoOptions& o) { o.collision_stop_distance = -0.01; });
  expect_rejected("collision_slowdown_distance",
                  [](ServoOptions& o) { o.collision_slowdown_distance = 0.005; });
  expect_rejected("joint_limit_margin", [](ServoOptions& o) { o.joint_limit_margin = -1; });
  expect_rejected("pose_gain", [](ServoOptions& o) { o.pose_gain = 0; });
  expect_rejected("pose_tolerance", [](ServoOptions& o) { o.pose_tolerance = 0; });
  expect_rejected("damping", [](ServoOptions& o) { o.damping = -0.1; });
  ServoOptions fine;
  fine.rate_hz = 250;
  fine.velocity_scaling = 0.5;
  servo.set_options(fine);
  EXPECT_EQ(servo.options().rate_hz, 250);
}

TEST(ServoStep, StaysCheapAt500Hz) {
  // The loop's budget is 2 ms per cycle; a step is tens of microseconds (see servo_bench for
  // figures). Only a gross regression fails here (sanitizer builds are ~20x slower).
  Servo servo(test::builtin_ur5e());
  JointVector q = test::builtin_ur5e()->named_pose("ready");
  const ServoCommand c = twist(make_twist(0.02, 0.02, 0, 0, 0, 0.05));
  const auto begin = std::chrono::steady_clock::now();
  constexpr int kSteps = 500;
  for (int i = 0; i < kSteps; ++i) q = servo.step(q, c).q;
  const double per_step_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count() /
      kSteps;
  EXPECT_LT(per_step_ms, 2.0);
}

// ------------------------------------------------------------------------------------------
// ServoLoop

std::unique_ptr<Servo> make_servo(RobotModelPtr model, double rate_hz = 500.0) {
  ServoOptions o;
  o.rate_hz = rate_hz;
  return std::make_unique<Servo>(std::move(model), "", o);
}

TEST(ServoLoop, RunsNearItsRateWithoutBursts) {
  ServoLoop loop(make_servo(test::builtin_ur5e(), 500.0));
  EXPECT_FALSE(loop.running());
  EXPECT_EQ(loop.latest().cycle, 0u);
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const test::StallWatch stalls;
  const auto begin = std::chrono::steady_clock::now();
  loop.start(q);
  EXPECT_TRUE(loop.running());
  std::this_thread::sleep_for(200ms);
  const ServoLoopState state = loop.latest();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  loop.stop();
  EXPECT_FALSE(loop.running());
  // Broad: a loaded two-core machine or a sanitizer build may miss cycles, but the loop never
  // runs ahead of its schedule (no catching up in a burst).
  EXPECT_LE(static_cast<double>(state.cycle), elapsed * 500.0 + 1.0);
  EXPECT_EQ(state.step.status, ServoStatus::Stopped);  // no command yet
  EXPECT_EQ(state.step.q, q);
  EXPECT_GE(state.late_ms, 0.0);
  SKIP_IF_STALLED(stalls, static_cast<double>(state.cycle) >= 0.3 * 200.0 * 0.5);
  EXPECT_GE(static_cast<double>(state.cycle), 0.3 * 200.0 * 0.5);
}

TEST(ServoLoop, CommandTimeoutStopsTheMotion) {
  ServoLoop loop(make_servo(test::builtin_ur5e()), 100ms);
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const test::StallWatch stalls;
  loop.start(q);
  JointVector v = JointVector::Zero(6);
  v[0] = 0.5;
  loop.set_command(jog(v));
  std::this_thread::sleep_for(40ms);
  const ServoLoopState moving = loop.latest();
  std::this_thread::sleep_for(250ms);  // the command is long stale
  const ServoLoopState stale = loop.latest();
  EXPECT_EQ(stale.step.status, ServoStatus::Stopped);
  EXPECT_NE(stale.step.message.find("no new command"), std::string::npos) << stale.step.message;
  EXPECT_GE(stale.step.q[0], moving.step.q[0]);
  std::this_thread::sleep_for(30ms);
  const ServoLoopState later = loop.latest();
  EXPECT_EQ(later.step.q, stale.step.q);  // nothing moves any more
  // While the loop runs on, and it had moved before the timeout.
  SKIP_IF_STALLED(stalls, later.cycle > stale.cycle && stale.step.q[0] > q[0]);
  EXPECT_GT(later.cycle, stale.cycle);
  EXPECT_GT(stale.step.q[0], q[0]);
}

TEST(ServoLoop, LatestIsNeverTornWhileReadersHammerIt) {
  ServoLoop loop(make_servo(test::builtin_panda()),
                 10s);  // (a stalled test thread must not time the jog out)
  const JointVector q = test::builtin_panda()->named_pose("ready");
  const double dt = 1.0 / 500.0;
  JointVector v = JointVector::Zero(7);
  v[0] = 0.05;  // slow: 0.1 rad/s * cycles * dt stays far from the limits
  std::atomic<std::thread::id> control_thread{};
  std::atomic<int> callbacks{0};
  loop.set_on_step([&](const ServoLoopState& s) {
    control_thread = std::this_thread::get_id();
    if (s.cycle > 0) ++callbacks;
  });
  loop.start(q);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::atomic<long> reads{0};
  const auto reader = [&] {
    std::uint64_t last = 0;
    while (!done) {
      const ServoLoopState s = loop.latest();
      ++reads;
      if (s.step.q.size() != 7 || s.step.velocity.size() != 7 || s.cycle < last) ++failures;
      // Every field of one state belongs to the same cycle: a jog at constant velocity puts joint 1
      // at start + cycle * v * dt (a torn read pairs one cycle with another's q or velocity).
      if (s.step.q.size() == 7 && s.cycle > 0) {
        if (std::abs(s.step.q[0] - (q[0] + static_cast<double>(s.cycle) * v[0] * dt)) > 1e-9)
          ++failures;
        if (std::abs(s.step.velocity[0] - v[0]) > 1e-12) ++failures;
      }
      last = s.cycle;
    }
  };
  loop.set_command(jog(v));
  // The command must be there from the first cycle for the formula: restart with it posted.
  const test::StallWatch stalls;
  loop.start(q);
  std::thread a(reader), b(reader);
  std::this_thread::sleep_for(150ms);
  done = true;
  a.join();
  b.join();
  const ServoLoopState last = loop.latest();
  loop.stop();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_NE(control_thread.load(), std::this_thread::get_id());
  SKIP_IF_STALLED(stalls, reads.load() > 100 && last.cycle > 5u && callbacks.load() > 0);
  EXPECT_GT(reads.load(), 100);
  EXPECT_GT(last.cycle, 5u);
  EXPECT_GT(callbacks.load(), 0);
}

TEST(ServoLoop, StartOnARunningLoopRestartsFromTheNewState) {
  ServoLoop loop(make_servo(test::builtin_ur5e()));
  const JointVector ready = test::builtin_ur5e()->named_pose("ready");
  const JointVector home = test::builtin_ur5e()->named_pose("home");
  const test::StallWatch stalls;
  loop.start(ready);
  std::this_thread::sleep_for(30ms);
  SKIP_IF_STALLED(stalls, loop.latest().cycle > 0u);
  EXPECT_GT(loop.latest().cycle, 0u);
  loop.start(home);
  const ServoLoopState just = loop.latest();
  EXPECT_EQ(just.step.q, home);
  std::this_thread::sleep_for(30ms);
  EXPECT_TRUE(loop.running());
  EXPECT_EQ(loop.latest().step.q, home);
  // A bad start state is the caller's error; the loop is left as it was.
  EXPECT_EQ(error_code_of([&] { loop.start(JointVector::Zero(3)); }), ErrorCode::DimensionMismatch);
  EXPECT_TRUE(loop.running());
  // The destructor stops the thread (nothing to join by hand).
}

TEST(ServoLoop, RejectedCommandStopsTheArmWithTheMessageAndTheLoopRunsOn) {
  ServoLoop loop(make_servo(test::builtin_ur5e()));
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const test::StallWatch stalls;
  loop.start(q);
  loop.set_command(twist(make_twist(std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, 0, 0)));
  std::this_thread::sleep_for(30ms);
  const ServoLoopState rejected = loop.latest();
  EXPECT_TRUE(loop.running());
  EXPECT_EQ(rejected.step.status, ServoStatus::Stopped);
  EXPECT_NE(rejected.step.message.find("rejected"), std::string::npos) << rejected.step.message;
  EXPECT_NE(rejected.step.message.find("vx"), std::string::npos) << rejected.step.message;
  EXPECT_EQ(rejected.step.q, q);
  std::this_thread::sleep_for(20ms);
  const ServoLoopState still = loop.latest();
  SKIP_IF_STALLED(stalls, still.cycle > rejected.cycle);
  EXPECT_GT(still.cycle, rejected.cycle);                             // the thread is alive
  EXPECT_NE(still.step.message.find("rejected"), std::string::npos);  // and says why it stands
  // A good command moves the arm again.
  loop.set_command(twist(make_twist(0.05, 0, 0, 0, 0, 0)));
  std::this_thread::sleep_for(30ms);
  const ServoLoopState moving = loop.latest();
  SKIP_IF_STALLED(stalls, moving.step.q != q);
  EXPECT_NE(moving.step.q, q);
  EXPECT_TRUE(moving.step.message.empty() || moving.step.status != ServoStatus::Stopped)
      << moving.step.message;
}

TEST(ServoLoop, OptionsAndSceneChangesReachTheLoopAndErrorsTheCaller) {
  ServoLoop loop(make_servo(test::builtin_ur5e()));
  loop.start(test::builtin_ur5e()->named_pose("ready"));
  ServoOptions bad;
  bad.max_linear_speed = -1.0;
  std::string message;
  EXPECT_EQ(error_code_of([&] { loop.set_options(bad); }, &message), ErrorCode::InvalidValue);
  EXPECT_NE(message.find("max_linear_speed"), std::string::npos);
  ServoOptions slower;
  slower.rate_hz = 100.0;
  loop.set_options(slower);
  EXPECT_EQ(loop.options().rate_hz, 100.0);
  PlanningScene scene;
  scene.add_obstacle("floor", Shape::box(Vector3(2, 2, 0.02)),
                     Pose(Eigen::Translation3d(0, 0, -0.5)));
  loop.set_scene(scene);
  PlanningScene wrong;
  wrong.add_attached({"part", "no_such_link", Shape::sphere(0.05), Pose::Identity(), {}});
  EXPECT_EQ(error_code_of([&] { loop.set_scene(wrong); }), ErrorCode::MissingLink);
  EXPECT_TRUE(loop.running());
  EXPECT_EQ(error_code_of([&] { ServoLoop(nullptr); }), ErrorCode::InvalidValue);
  EXPECT_EQ(error_code_of([&] { ServoLoop(make_servo(test::builtin_ur5e()), 0ms); }),
            ErrorCode::InvalidValue);
}

// ------------------------------------------------------------------------------------------
// SpaceMouse

// Points libspnav at a socket path of our own for the test's lifetime.
class ScopedSpnavSocket {
 public:
  explicit ScopedSpnavSocket(const std::string& path) {
    if (const char* old = std::getenv("SPNAV_SOCKET")) previous_ = old;
    setenv("SPNAV_SOCKET", path.c_str(), 1);
  }
  ~ScopedSpnavSocket() {
    if (previous_.empty())
      unsetenv("SPNAV_SOCKET");
    else
      setenv("SPNAV_SOCKET", previous_.c_str(), 1);
  }

 private:
  std::string previous_;
};

std::string scratch_socket_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("kinetic_spnav_") + name + "_" + std::to_string(::getpid()) + ".sock"))
      .string();
}

bool real_daemon_configured() {
  return std::filesystem::exists("/var/run/spnav.sock") || std::filesystem::exists("/etc/spnavrc");
}

TEST(SpaceMouse, OpenWithoutADaemonIsFileNotFoundWithWhatToDo) {
  if (real_daemon_configured())
    GTEST_SKIP() << "a spacenavd socket or /etc/spnavrc exists on this machine";
  ScopedSpnavSocket socket(scratch_socket_path("absent"));
  try {
    SpaceMouse::open();
    FAIL() << "open() succeeded without a daemon";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::FileNotFound);
    EXPECT_NE(e.message().find("no spacenavd daemon answered"), std::string::npos) << e.message();
    EXPECT_NE(e.hint().find("spacenavd"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("plugged in"), std::string::npos) << e.hint();
  }
  // Nothing is left open: a second try fails the same way (not "already open").
  EXPECT_EQ(error_code_of([] { SpaceMouse::open(); }), ErrorCode::FileNotFound);
  SpaceMouseOptions bad;
  bad.deadband = 1.0;
  EXPECT_EQ(error_code_of([&] { SpaceMouse::open(bad); }), ErrorCode::InvalidValue);
}

TEST(SpaceMouse, AxesFromMotionSwapsYAndZDeadbandsScalesAndClamps) {
  SpaceMouseOptions o;  // full scale 350, deadband 0.1
  // spacenavd: x right, y up, z away -> x right, y away, z up.
  Twist a = axes_from_motion(350, 0, 0, 0, 0, 0, o);
  EXPECT_EQ(a, make_twist(1, 0, 0, 0, 0, 0));
  a = axes_from_motion(0, 350, 0, 0, 0, 0, o);  // lifted
  EXPECT_EQ(a, make_twist(0, 0, 1, 0, 0, 0));
  a = axes_from_motion(0, 0, -350, 0, 0, 0, o);  // pulled towards the user
  EXPECT_EQ(a, make_twist(0, -1, 0, 0, 0, 0));
  a = axes_from_motion(0, 0, 0, 0, 350, 0, o);  // turned about the vertical
  EXPECT_EQ(a, make_twist(0, 0, 0, 0, 0, 1));
  a = axes_from_motion(0, 0, 0, -350, 0, 350, o);
  EXPECT_EQ(a, make_twist(0, 0, 0, -1, 1, 0));
  // Deadband: nothing up to 10% of full scale, then a continuous ramp to 1.
  EXPECT_EQ(axes_from_motion(35, -30, 0, 0, 0, 0, o), Twist::Zero());
  EXPECT_NEAR(axes_from_motion(36, 0, 0, 0, 0, 0, o)[0], (36.0 / 350 - 0.1) / 0.9, 1e-15);
  EXPECT_NEAR(axes_from_motion(0, 0, 0, 0, 0, -192, o)[4], -(192.0 / 350 - 0.1) / 0.9, 1e-15);
  // Clamped beyond full scale.
  EXPECT_EQ(axes_from_motion(900, -900, 0, 0, 0, 0, o), make_twist(1, 0, -1, 0, 0, 0));
  // Dominant axis only.
  o.dominant_axis = true;
  a = axes_from_motion(200, 0, 100, 0, -250, 0, o);
  EXPECT_EQ(a[0], 0.0);
  EXPECT_EQ(a[1], 0.0);
  EXPECT_LT(a[5], 0.0);
  EXPECT_EQ(a.cwiseAbs().sum(), std::abs(a[5]));
  // No deadband, other full scale.
  SpaceMouseOptions raw;
  raw.deadband = 0.0;
  raw.full_scale = 500;
  EXPECT_NEAR(axes_from_motion(5, 0, 0, 0, 0, 0, raw)[0], 0.01, 1e-15);
  raw.full_scale = 0;
  EXPECT_EQ(error_code_of([&] { validate_spacemouse_options(raw); }), ErrorCode::InvalidValue);
}

TEST(SpaceMouse, TwistCommandScalesTheAxesByTheServoMaximumSpeeds) {
  ServoOptions o;
  o.max_linear_speed = 0.2;
  o.max_angular_speed = 0.8;
  const ServoCommand c =
      twist_command(make_twist(1, -0.5, 0, 0.25, 0, 2.0), o, ServoCommand::Frame::Tool);
  EXPECT_EQ(c.kind, ServoCommand::Kind::Twist);
  EXPECT_EQ(c.frame, ServoCommand::Frame::Tool);
  EXPECT_LT((c.twist - make_twist(0.2, -0.1, 0, 0.2, 0, 0.8)).norm(), 1e-15);  // (2.0 clamped to 1)
  // Straight into a servo step: the TCP moves along the commanded axis.
  Servo servo(test::builtin_ur5e(), "", o);
  const JointVector q = test::builtin_ur5e()->named_pose("ready");
  const ServoStep s =
      servo.step(q, twist_command(make_twist(0, 0, 0.5, 0, 0, 0), o, ServoCommand::Frame::Base));
  ASSERT_EQ(s.status, ServoStatus::Ok) << s.message;
  const Vector3 moved = tcp(servo, s.q).translation() - tcp(servo, q).translation();
  EXPECT_NEAR(moved.z() * o.rate_hz, 0.1, 1e-4);
}

// A stand-in for spacenavd: a listening socket libspnav connects to through $SPNAV_SOCKET; it
// answers the protocol request and then sends what the test writes.
class FakeSpacenavd {
 public:
  explicit FakeSpacenavd(const std::string& path) : path_(path) {
    ::unlink(path_.c_str());
    listener_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 1) != 0)
      ADD_FAILURE() << "cannot listen on " << path_ << ": " << std::strerror(errno);
    server_ = std::thread([this] {
      client_ = ::accept(listener_, nullptr, nullptr);
      std::int32_t request = 0;
      if (client_ >= 0 && ::read(client_, &request, sizeof request) == sizeof request) {
        const std::int32_t answer = request;  // protocol change: echo the version asked for
        if (::write(client_, &answer, sizeof answer) != sizeof answer)
          ADD_FAILURE() << "answer not sent";
      }
    });
  }
  ~FakeSpacenavd() {
    close_client();
    if (server_.joinable()) server_.join();
    ::close(listener_);
    ::unlink(path_.c_str());
  }
  void wait_connected() { server_.join(); }
  void send(std::int32_t type, std::initializer_list<std::int32_t> values) {
    std::int32_t data[8] = {type, 0, 0, 0, 0, 0, 0, 0};
    int i = 1;
    for (std::int32_t v : values) data[i++] = v;
    ASSERT_EQ(::write(client_, data, sizeof data), static_cast<ssize_t>(sizeof data));
  }
  void close_client() {
    if (client_ >= 0) ::close(client_);
    client_ = -1;
  }

 private:
  std::string path_;
  int listener_ = -1;
  int client_ = -1;
  std::thread server_;
};

TEST(SpaceMouse, EventsFromTheDaemonBecomeAxesAndButtonsAndALostConnectionIsIoError) {
  const std::string path = scratch_socket_path("fake");
  FakeSpacenavd daemon(path);
  ScopedSpnavSocket socket(path);
  std::unique_ptr<SpaceMouse> mouse = SpaceMouse::open();
  daemon.wait_connected();
  EXPECT_GE(mouse->file_descriptor(), 0);
  // One connection per process.
  std::string message;
  EXPECT_EQ(error_code_of([] { SpaceMouse::open(); }, &message), ErrorCode::InvalidValue);
  EXPECT_NE(message.find("already open"), std::string::npos);

  mouse->poll();  // nothing pending
  EXPECT_EQ(mouse->axes(), Twist::Zero());
  // libspnav's wire format: type (0 motion, 1 press, 2 release, 3 device), then the values.
  daemon.send(0, {350, 0, 0, 0, 0, 0, 16});
  daemon.send(0, {0, 175, -350, 0, 35, 0, 16});  // the newest motion wins
  daemon.send(1, {2});
  daemon.send(2, {2});
  mouse->poll();
  EXPECT_LT((mouse->axes() - make_twist(0, -1, (0.5 - 0.1) / 0.9, 0, 0, 0)).norm(), 1e-12);
  const std::vector<SpaceMouseButton> buttons = mouse->take_button_changes();
  ASSERT_EQ(buttons.size(), 2u);
  EXPECT_EQ(buttons[0].index, 2);
  EXPECT_TRUE(buttons[0].pressed);
  EXPECT_FALSE(buttons[1].pressed);
  EXPECT_TRUE(mouse->take_button_changes().empty());
  mouse->poll();
  EXPECT_NE(mouse->axes(), Twist::Zero());  // held until the device reports the release
  daemon.send(0, {0, 0, 0, 0, 0, 0, 16});
  mouse->poll();
  EXPECT_EQ(mouse->axes(), Twist::Zero());

  // The device unplugged: reported once, the connection stays.
  daemon.send(0, {350, 0, 0, 0, 0, 0, 16});
  daemon.send(3, {1 /* SPNAV_DEV_RM */, 0, 0, 0, 0});
  EXPECT_EQ(error_code_of([&] { mouse->poll(); }, &message), ErrorCode::IoError);
  EXPECT_NE(message.find("unplugged"), std::string::npos) << message;
  EXPECT_EQ(mouse->axes(), Twist::Zero());
  mouse->poll();

  // The daemon goes away.
  daemon.send(0, {350, 0, 0, 0, 0, 0, 16});
  mouse->poll();
  EXPECT_NE(mouse->axes(), Twist::Zero());
  daemon.close_client();
  EXPECT_EQ(error_code_of([&] { mouse->poll(); }, &message), ErrorCode::IoError);
  EXPECT_NE(message.find("the spacemouse connection was lost"), std::string::npos) << message;
  EXPECT_EQ(mouse->axes(), Twist::Zero());
  EXPECT_EQ(error_code_of([&] { mouse->poll(); }), ErrorCode::IoError);  // and stays lost
  mouse.reset();
}

}  // namespace
