// The fast FK path against plain references: the hand-written sincos against std::sin/std::cos,
// the frame-step kernel against Eigen products, and chain / all-link FK and the Jacobian against
// a product of 4×4 transforms built straight from the URDF joint origins and axes, on every
// built-in robot and the Panda of ../shared/robots.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>

#include "engine/core/error.hpp"
#include "engine/kinematics/fast_sincos.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/joint_motion.hpp"
#include "engine/kinematics/joint_source.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/tip_kernel.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

// |fast - std| <= 1e-15 relative to std (exact agreement where std gives 0).
void expect_sincos_close(double x) {
  double s = 0, c = 0;
  detail::fast_sincos(x, s, c);
  const double expected_s = std::sin(x), expected_c = std::cos(x);
  EXPECT_LE(std::fabs(s - expected_s), 1e-15 * std::fabs(expected_s)) << "sin(" << x << ")";
  EXPECT_LE(std::fabs(c - expected_c), 1e-15 * std::fabs(expected_c)) << "cos(" << x << ")";
}

TEST(FastSinCos, MatchesStdOverDenseSweep) {
  constexpr int kSamples = 2'000'000;
  const double limit = detail::kFastSinCosLimit;
  double worst_s = 0, worst_c = 0;
  for (int i = 0; i <= kSamples; ++i) {
    const double x = -limit + 2.0 * limit * i / kSamples;
    double s = 0, c = 0;
    detail::fast_sincos(x, s, c);
    worst_s =
        std::max(worst_s, std::fabs(s - std::sin(x)) / std::max(std::fabs(std::sin(x)), 1e-300));
    worst_c =
        std::max(worst_c, std::fabs(c - std::cos(x)) / std::max(std::fabs(std::cos(x)), 1e-300));
  }
  EXPECT_LE(worst_s, 1e-15);
  EXPECT_LE(worst_c, 1e-15);
}

TEST(FastSinCos, HardArguments) {
  // Multiples of pi/2 (where one result is ~1e-16 and the reduction must keep it), their
  // neighbours a few ulps away, quadrant boundaries (odd multiples of pi/4) and tiny values.
  for (int k = -8; k <= 8; ++k) {
    for (const double base :
         {k * std::numbers::pi / 2, k * std::numbers::pi / 4 + std::numbers::pi / 8,
          (2 * k + 1) * std::numbers::pi / 4}) {
      double x = base;
      for (int step = 0; step < 4; ++step) x = std::nextafter(x, -1e9);
      for (int step = 0; step < 8; ++step, x = std::nextafter(x, 1e9)) expect_sincos_close(x);
    }
  }
  for (const double x :
       {1e-300, -1e-300, 1e-160, 1e-20, -1e-8, 4.9e-324, std::numbers::pi, -std::numbers::pi,
        2 * std::numbers::pi, 4 * std::numbers::pi, -4 * std::numbers::pi, std::numbers::pi / 2,
        -std::numbers::pi / 2, 3 * std::numbers::pi / 2})
    expect_sincos_close(x);
  double s = 1, c = 0;
  detail::fast_sincos(-0.0, s, c);
  EXPECT_TRUE(s == 0.0 && std::signbit(s)) << "sin(-0) keeps its sign";
  EXPECT_EQ(c, 1.0);
  detail::fast_sincos(1e-300, s, c);
  EXPECT_EQ(s, 1e-300);
  EXPECT_EQ(c, 1.0);
}

TEST(FastSinCos, OutsideTheFastRangeFallsBackToStd) {
  for (const double x : {std::nextafter(detail::kFastSinCosLimit, 1e9), 20.0, -100.5, 1e6, 1e300}) {
    double s = 0, c = 0;
    detail::fast_sincos(x, s, c);
    EXPECT_EQ(s, std::sin(x)) << x;
    EXPECT_EQ(c, std::cos(x)) << x;
  }
  double s = 0, c = 0;
  detail::fast_sincos(std::numeric_limits<double>::quiet_NaN(), s, c);
  EXPECT_TRUE(std::isnan(s) && std::isnan(c));
}

TEST(FastSinCos, ArrayMatchesScalar) {
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> angle(-30.0, 30.0);  // both sides of the fast range
  double angles[37], sines[37], cosines[37];
  for (double& a : angles) a = angle(random);
  detail::fast_sincos_array(angles, sines, cosines, 37);
  for (int i = 0; i < 37; ++i) {
    double s = 0, c = 0;
    detail::fast_sincos(angles[i], s, c);
    EXPECT_EQ(sines[i], s);
    EXPECT_EQ(cosines[i], c);
    EXPECT_NEAR(sines[i], std::sin(angles[i]), 1e-15);
  }
}

// ---- Frame-step kernel against Eigen ----

Eigen::Matrix4d to_matrix(const double* frame) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) m(r, c) = frame[4 * c + r];
  return m;
}

Eigen::Matrix4d motion_matrix(detail::StepMotion motion, const Vector3& axis, double value) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  if (motion == detail::StepMotion::Revolute)
    m.topLeftCorner<3, 3>() = Eigen::AngleAxisd(value, axis.normalized()).toRotationMatrix();
  else if (motion == detail::StepMotion::Prismatic)
    m.topRightCorner<3, 1>() = axis.normalized() * value;
  return m;
}

TEST(FrameStep, RecognisesSignedPermutations) {
  const auto origin = [](double r, double p, double y) {
    return pose_from_xyz_rpy(Vector3(0.1, 0.2, 0.3), Vector3(r, p, y));
  };
  EXPECT_TRUE(detail::FrameStep::make(origin(std::numbers::pi / 2, 0, 0), Vector3::UnitZ(),
                                      detail::StepMotion::Revolute)
                  .permuted);
  EXPECT_TRUE(detail::FrameStep::make(origin(-std::numbers::pi / 2, 0, std::numbers::pi),
                                      Vector3::UnitZ(), detail::StepMotion::Revolute)
                  .permuted);
  EXPECT_TRUE(detail::FrameStep::make(Pose::Identity(), Vector3::UnitX(), detail::StepMotion::Fixed)
                  .permuted);
  EXPECT_FALSE(detail::FrameStep::make(origin(0, 0, -std::numbers::pi / 4), Vector3::UnitZ(),
                                       detail::StepMotion::Fixed)
                   .permuted);
  EXPECT_FALSE(detail::FrameStep::make(origin(std::numbers::pi / 2 + 1e-9, 0, 0), Vector3::UnitZ(),
                                       detail::StepMotion::Fixed)
                   .permuted);
}

TEST(FrameStep, MatchesEigenForEveryOriginKindAxisAndMotion) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto random_pose = [&] {
    return pose_from_xyz_rpy(Vector3(unit(random), unit(random), unit(random)),
                             Vector3(3 * unit(random), 3 * unit(random), 3 * unit(random)));
  };
  std::vector<Pose> origins;
  for (int r = -1; r <= 2;
       ++r)  // all 24 axis-permutation rotations (and repeats), with 1e-17 residues
    for (int p = -1; p <= 2; ++p)
      for (int y = -1; y <= 2; ++y)
        origins.push_back(pose_from_xyz_rpy(
            Vector3(0.1, -0.2, 0.3),
            Vector3(r * std::numbers::pi / 2, p * std::numbers::pi / 2, y * std::numbers::pi / 2)));
  for (int n = 0; n < 8; ++n) origins.push_back(random_pose());
  std::vector<Vector3> axes = {Vector3::UnitX(),       -Vector3::UnitX(), Vector3::UnitY(),
                               -Vector3::UnitY(),      Vector3::UnitZ(),  -Vector3::UnitZ(),
                               Vector3(0.3, -0.5, 0.8)};
  double worst = 0;
  for (const Pose& origin : origins) {
    for (const Vector3& axis : axes) {
      for (const auto motion : {detail::StepMotion::Fixed, detail::StepMotion::Revolute,
                                detail::StepMotion::Prismatic}) {
        const detail::FrameStep step = detail::FrameStep::make(origin, axis, motion);
        const Pose parent = random_pose();
        const double value = 4 * unit(random);
        double sine = 0, cosine = 0;
        detail::fast_sincos(value, sine, cosine);
        double child[16] = {};
        detail::apply_step(step, parent.data(), child, value, sine, cosine);
        const Eigen::Matrix4d expected =
            parent.matrix() * origin.matrix() * motion_matrix(motion, axis, value);
        worst = std::max(worst, (to_matrix(child) - expected).cwiseAbs().maxCoeff());
      }
    }
  }
  EXPECT_LE(worst, 1e-14);
}

// ---- Whole-robot FK against 4×4 products straight from the joint origins and axes ----

struct Reference {
  std::vector<Eigen::Matrix4d> link;   // every link in the root frame
  std::vector<Eigen::Matrix4d> joint;  // every joint frame (parent link * origin) in the root frame
};

double joint_value(const Joint& joint, const JointVector& q) {
  const detail::JointSource source = detail::resolve_joint_source(joint);
  return source.variable >= 0 ? source.multiplier * q[source.variable] + source.offset : 0.0;
}

void visit(const RobotModel& model, int link, const JointVector& q, Reference& out) {
  for (const int j : model.links()[link].child_joints) {
    const Joint& joint = model.joints()[j];
    out.joint[j] = out.link[link] * joint.origin.matrix();
    detail::StepMotion motion = detail::StepMotion::Fixed;
    if (detail::resolve_joint_source(joint).variable >= 0) {
      if (joint.type == JointType::Revolute || joint.type == JointType::Continuous)
        motion = detail::StepMotion::Revolute;
      if (joint.type == JointType::Prismatic) motion = detail::StepMotion::Prismatic;
    }
    out.link[joint.child_link] =
        out.joint[j] * motion_matrix(motion, joint.axis, joint_value(joint, q));
    visit(model, joint.child_link, q, out);
  }
}

Reference reference_fk(const RobotModel& model, const JointVector& q) {
  Reference out;
  out.link.assign(model.links().size(), Eigen::Matrix4d::Identity());
  out.joint.assign(model.joints().size(), Eigen::Matrix4d::Identity());
  visit(model, model.root_link(), q, out);
  return out;
}

// Geometric Jacobian of the chain tip (incl. tool offset) in the base frame, from the reference.
Jacobian reference_jacobian(const RobotModel& model, const KinematicChain& chain,
                            const Reference& ref, const Eigen::Matrix4d& tip_in_base) {
  const Eigen::Matrix4d base_inverse = ref.link[model.link_index(chain.base_link())].inverse();
  Jacobian jacobian = Jacobian::Zero(6, chain.dof());
  const Vector3 end = tip_in_base.topRightCorner<3, 1>();
  for (const int j : model.chain_joints(chain.base_link(), chain.tip_link())) {
    const Joint& joint = model.joints()[j];
    const detail::JointSource source = detail::resolve_joint_source(joint);
    if (source.variable < 0 || joint.type == JointType::Fixed) continue;
    const auto& indices = chain.variable_indices();
    const int slot = static_cast<int>(std::find(indices.begin(), indices.end(), source.variable) -
                                      indices.begin());
    const Eigen::Matrix4d frame = base_inverse * ref.joint[j];
    const Vector3 axis = frame.topLeftCorner<3, 3>() * joint.axis.normalized();
    if (joint.type == JointType::Prismatic) {
      jacobian.col(slot).head<3>() += source.multiplier * axis;
    } else {
      jacobian.col(slot).head<3>() +=
          source.multiplier * axis.cross(end - frame.topRightCorner<3, 1>());
      jacobian.col(slot).tail<3>() += source.multiplier * axis;
    }
  }
  return jacobian;
}

double pose_error(const Pose& ours, const Eigen::Matrix4d& expected) {
  return (ours.matrix() - expected).cwiseAbs().maxCoeff();  // metres and (rotation entries) radians
}

void check_against_reference(const std::string& label, const RobotModelPtr& model,
                             const KinematicChain& chain) {
  const ForwardKinematics fk(*model);
  const int base = model->link_index(chain.base_link()), tip = model->link_index(chain.tip_link());
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const JointVector lower = model->lower_limits(), upper = model->upper_limits();
  double worst_chain = 0, worst_links = 0, worst_jacobian = 0;
  std::vector<Pose> poses;
  Jacobian jacobian(6, chain.dof());
  Pose tip_pose;
  for (int n = 0; n < 1000; ++n) {
    JointVector q(model->dof());
    for (int i = 0; i < q.size(); ++i) {
      // Mostly within limits; every fifth configuration also far outside (the std fallback).
      q[i] = n % 5 == 4 ? -20.0 + 40.0 * unit(random)
                        : lower[i] + unit(random) * (upper[i] - lower[i]);
    }
    const Reference ref = reference_fk(*model, q);
    const Eigen::Matrix4d expected_tip =
        ref.link[base].inverse() * ref.link[tip] * chain.tip_offset().matrix();
    const JointVector q_chain = chain.to_chain(q);
    worst_chain = std::max(worst_chain, pose_error(chain.fk(q_chain), expected_tip));
    chain.fk_and_jacobian(q_chain, tip_pose, jacobian);
    worst_chain = std::max(worst_chain, pose_error(tip_pose, expected_tip));
    worst_jacobian = std::max(
        worst_jacobian,
        (jacobian - reference_jacobian(*model, chain, ref, expected_tip)).cwiseAbs().maxCoeff());
    fk.compute(q, poses);
    for (const Link& link : model->links())
      worst_links = std::max(worst_links, pose_error(poses[link.index], ref.link[link.index]));
  }
  EXPECT_LE(worst_chain, 1e-12) << label;
  EXPECT_LE(worst_links, 1e-12) << label;
  EXPECT_LE(worst_jacobian, 1e-12) << label;
}

TEST(FastFk, EveryBuiltinRobotMatchesReferenceTransforms) {
  const auto robots = builtin_robots();
  ASSERT_GE(robots.size(), 14u);
  for (const BuiltinRobotInfo& info : robots) {
    const RobotModelPtr model = load_builtin_robot(info.name);
    check_against_reference(info.name, model, KinematicChain::from_config(model));
  }
}

TEST(FastFk, SharedPandaMatchesReferenceTransforms) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model =
      load_robot_file(test::example_robot_data_dir() + "/robots/panda_description/urdf/panda.urdf");
  check_against_reference("panda (shared)", model,
                          KinematicChain(model, "panda_link0", "panda_hand"));
  const Pose offset =
      pose_from_xyz_rpy(Vector3(0.0, 0.0, 0.1034), Vector3(0.0, 0.0, -std::numbers::pi / 4));
  check_against_reference("panda (shared, tcp)", model,
                          KinematicChain(model, "panda_link0", "panda_hand", offset));
}

// Every kind of step the chain distinguishes: origins at multiples of 90° (with residues), general
// origins, axes along ±X/±Y/±Z and general axes, prismatic joints, a fixed joint in the middle and
// a mimic joint, so each fast path meets the reference.
TEST(FastFk, SyntheticChainWithEveryStepKindMatchesReferenceTransforms) {
  const std::string urdf = R"(<robot name="every_step">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>
  <link name="l5"/><link name="l6"/><link name="l7"/><link name="tip"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 -1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0.2 0" rpy="0.3 -0.2 0.7"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j3" type="continuous"><parent link="l2"/><child link="l3"/>
    <origin xyz="0 -0.3 0.05" rpy="0 1.5707963267948966 3.141592653589793"/><axis xyz="0.3 -0.4 0.5"/></joint>
  <joint name="fixed" type="fixed"><parent link="l3"/><child link="l4"/>
    <origin xyz="0.02 0 0.1" rpy="-1.5707963267948966 0 1.5707963267948966"/></joint>
  <joint name="j4" type="prismatic"><parent link="l4"/><child link="l5"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="-1 0 0"/>
    <limit lower="-0.2" upper="0.4" effort="1" velocity="1"/></joint>
  <joint name="j5" type="prismatic"><parent link="l5"/><child link="l6"/>
    <origin xyz="0.05 0 0" rpy="0 0 1.5707963267948966"/><axis xyz="0.6 0 0.8"/>
    <limit lower="-0.2" upper="0.4" effort="1" velocity="1"/></joint>
  <joint name="j6" type="revolute"><parent link="l6"/><child link="l7"/>
    <origin xyz="0 0.1 0" rpy="3.141592653589793 0 0"/><axis xyz="1 0 0"/>
    <mimic joint="j2" multiplier="-0.5" offset="0.25"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j7" type="revolute"><parent link="l7"/><child link="tip"/>
    <origin xyz="0.01 0.02 0.03" rpy="0 -1.5707963267948966 0"/><axis xyz="0 -1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>)";
  const RobotModelPtr model = load_robot_string(urdf);
  const KinematicChain chain(
      model, "base", "tip",
      pose_from_xyz_rpy(Vector3(0, 0, 0.1), Vector3(std::numbers::pi / 2, 0, 0)));
  EXPECT_EQ(chain.dof(), 6);
  check_against_reference("synthetic", model, chain);
  // Link poses and point Jacobians of the chain's inner links against the reference too.
  const JointVector q = chain.mid_configuration() + JointVector::Constant(chain.dof(), 0.3);
  JointVector q_model;
  chain.to_model(q, q_model);
  const Reference ref = reference_fk(*model, q_model);
  for (const char* link : {"l2", "l4", "l6", "tip"}) {
    EXPECT_LE(pose_error(chain.link_pose(q, link), ref.link[model->link_index(link)]), 1e-12)
        << link;
  }
  // A point Jacobian against central differences of the point's position.
  const Vector3 point(0.05, -0.02, 0.1);
  const Jacobian jacobian = chain.jacobian_at(q, "l6", point);
  for (int i = 0; i < chain.dof(); ++i) {
    JointVector plus = q, minus = q;
    plus[i] += 1e-6;
    minus[i] -= 1e-6;
    const Vector3 rate =
        (chain.link_pose(plus, "l6") * point - chain.link_pose(minus, "l6") * point) / 2e-6;
    EXPECT_LE((jacobian.col(i).head<3>() - rate).norm(), 1e-7) << i;
  }
}

// ---- The unrolled tip kernel against plain products, portable and AVX2 builds alike ----

Eigen::Matrix4d kernel_reference(const std::vector<detail::TipKernelInput>& joints, const Pose& tip,
                                 const JointVector& q) {
  Eigen::Matrix4d frame = Eigen::Matrix4d::Identity();
  for (const detail::TipKernelInput& joint : joints) {
    Eigen::Matrix4d step = Eigen::Matrix4d::Identity();
    step.topRightCorner<3, 1>() =
        Vector3(joint.translation[0], joint.translation[1], joint.translation[2]);
    const double angle = joint.axis_sign * (joint.multiplier * q[joint.slot] + joint.offset);
    step.topLeftCorner<3, 3>() =
        Eigen::AngleAxisd(angle, Vector3::Unit(joint.axis)).toRotationMatrix();
    frame = frame * step;
  }
  return frame * tip.matrix();
}

TEST(TipKernel, MatchesPlainProductsForRandomChainsAndTips) {
  std::mt19937_64 random(23);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> axis_of(0, 2);
  double worst_folded = 0, worst_general = 0;
  int folded_tips = 0;
  for (int count = 1; count <= detail::kTipKernelMaxJoints; ++count) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<detail::TipKernelInput> joints;
      for (int i = 0; i < count; ++i) {
        detail::TipKernelInput joint{};
        for (double& t : joint.translation)
          t = trial % 2 == 0 && unit(random) < 0 ? 0.0 : unit(random);
        joint.axis = axis_of(random);
        joint.axis_sign = unit(random) < 0 ? -1.0 : 1.0;
        joint.multiplier = i % 3 == 2 ? -0.5 : 1.0;  // a mimic-like joint now and then
        joint.offset = i % 3 == 2 ? 0.25 : 0.0;
        joint.slot = i % 3 == 2 ? 0 : i;
        joints.push_back(joint);
      }
      // Even trials: the tip turns about the last joint's axis then permutes axes (the Panda's
      // flange + hand), which the kernel folds away; odd trials: an arbitrary tip.
      Pose tip = Pose::Identity();
      tip.translation() = Vector3(unit(random), unit(random), unit(random));
      if (trial % 2 == 0) {
        const Eigen::Matrix3d permutation =
            Eigen::AngleAxisd(std::numbers::pi / 2 * axis_of(random), Vector3::UnitX())
                .toRotationMatrix() *
            Eigen::AngleAxisd(std::numbers::pi / 2 * axis_of(random), Vector3::UnitY())
                .toRotationMatrix();
        tip.linear() = Eigen::AngleAxisd(3 * unit(random), Vector3::Unit(joints.back().axis))
                           .toRotationMatrix() *
                       permutation.array().round().matrix();
      } else {
        tip.linear() = pose_from_xyz_rpy(Vector3::Zero(),
                                         Vector3(3 * unit(random), unit(random), 3 * unit(random)))
                           .linear();
      }
      const auto best = detail::make_tip_kernel(joints, tip);
      const auto portable = detail::make_tip_kernel(joints, tip, true);
      ASSERT_TRUE(best && portable);
      folded_tips += best->tip_permuted ? 1 : 0;
      for (int n = 0; n < 20; ++n) {
        JointVector q(count);
        for (int i = 0; i < count; ++i)
          q[i] = n % 5 == 4 ? 20.0 * unit(random) : 3.0 * unit(random);
        Pose ours, ours_portable;
        (*best)(q.data(), ours.data());
        (*portable)(q.data(), ours_portable.data());
        for (int k = 0; k < 16; ++k)
          ASSERT_EQ(std::bit_cast<std::uint64_t>(ours.data()[k]),
                    std::bit_cast<std::uint64_t>(ours_portable.data()[k]))
              << "the AVX2 and portable kernels differ in entry " << k;
        double& worst = best->tip_permuted ? worst_folded : worst_general;
        worst = std::max(worst, pose_error(ours, kernel_reference(joints, tip, q)));
      }
    }
  }
  EXPECT_EQ(folded_tips, detail::kTipKernelMaxJoints * 20)
      << "every even trial's tip folds into the last joint";
  EXPECT_LE(worst_folded, 1e-12);
  EXPECT_LE(worst_general, 1e-12);
}

// ---- The whole-tree kernel: AVX2 and portable builds give the same bits, both match products ----

// A random tree of `link_count` links (link 0 the root, each later link hanging from an earlier
// one) through the AVX2 and the portable kernel: they must agree bitwise; returns the worst
// difference from plain products.
// Nodes whose origin the tree kernels turn as two columns (an origin about one axis), over every
// tree check_random_tree built: the tests below show the case is exercised.
int g_turned_origins = 0;

double check_random_tree(std::mt19937_64& random, int link_count, bool general_origins) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> kind_of(0, 5);
  double worst = 0;
  std::vector<detail::TreeKernelJoint> joints;
  int variables = 0;
  for (int child = 1; child < link_count; ++child) {
    detail::TreeKernelJoint joint;
    joint.parent_link = std::uniform_int_distribution<int>(0, child - 1)(random);
    joint.child_link = child;
    joint.origin.translation() = Vector3(unit(random), unit(random), unit(random));
    // Axis-aligned origins (folded as column moves), general ones, and every third general one
    // a turn about one axis (two columns turned, as the Panda's hand).
    if (general_origins && child % 3 == 0)
      joint.origin.linear() =
          Eigen::AngleAxisd(3 * unit(random), Vector3::Unit(child % 2 == 0 ? 2 : (child / 3) % 3))
              .toRotationMatrix();
    else if (general_origins)
      joint.origin.linear() =
          pose_from_xyz_rpy(Vector3::Zero(),
                            Vector3(3 * unit(random), unit(random), 3 * unit(random)))
              .linear();
    const int kind = kind_of(random);
    joint.kind = kind == 0   ? detail::TreeKernelJoint::Kind::Fixed
                 : kind == 1 ? detail::TreeKernelJoint::Kind::Prismatic
                             : detail::TreeKernelJoint::Kind::Revolute;
    joint.axis = kind == 5 ? Vector3(unit(random), unit(random), unit(random)).normalized()
                           : Vector3::Unit(kind % 3) * (unit(random) < 0 ? -1.0 : 1.0);
    if (joint.kind != detail::TreeKernelJoint::Kind::Fixed) {
      joint.variable = variables++;
      if (child % 4 == 3) {  // a mimic-like joint now and then
        joint.variable = 0;
        --variables;
        joint.multiplier = -0.5;
        joint.offset = 0.25;
      }
    }
    joints.push_back(joint);
  }
  const detail::TreeKernel best = detail::make_tree_kernel(joints, link_count, 0);
  const detail::TreeKernel portable = detail::make_tree_kernel(joints, link_count, 0, true);
  for (const detail::TreeKernelNode& node : best.nodes) g_turned_origins += node.pre_turn_axis >= 0;
  std::vector<double> ours(16 * link_count), ours_portable(16 * link_count);
  for (int n = 0; n < 20; ++n) {
    JointVector q(std::max(variables, 1));
    for (int i = 0; i < q.size(); ++i) q[i] = 3.0 * unit(random);
    best(q.data(), ours.data());
    portable(q.data(), ours_portable.data());
    for (std::size_t k = 0; k < ours.size(); ++k) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(ours[k]),
                std::bit_cast<std::uint64_t>(ours_portable[k]))
          << "the AVX2 and portable tree kernels differ in entry " << k << " (" << link_count
          << " links)";
      if (std::bit_cast<std::uint64_t>(ours[k]) != std::bit_cast<std::uint64_t>(ours_portable[k]))
        return 1e9;
    }
    // Reference: child = parent * origin * motion, parents first.
    std::vector<Eigen::Matrix4d> reference(static_cast<std::size_t>(link_count),
                                           Eigen::Matrix4d::Identity());
    for (const detail::TreeKernelJoint& joint : joints) {
      const double value =
          joint.variable >= 0 ? joint.multiplier * q[joint.variable] + joint.offset : 0.0;
      Eigen::Matrix4d motion = Eigen::Matrix4d::Identity();
      if (joint.kind == detail::TreeKernelJoint::Kind::Revolute)
        motion.topLeftCorner<3, 3>() = Eigen::AngleAxisd(value, joint.axis).toRotationMatrix();
      else if (joint.kind == detail::TreeKernelJoint::Kind::Prismatic)
        motion.topRightCorner<3, 1>() = joint.axis * value;
      reference[static_cast<std::size_t>(joint.child_link)] =
          reference[static_cast<std::size_t>(joint.parent_link)] * joint.origin.matrix() * motion;
    }
    for (int link = 0; link < link_count; ++link) {
      Pose pose;
      std::copy_n(ours.data() + 16 * link, 16, pose.data());
      worst = std::max(worst, pose_error(pose, reference[static_cast<std::size_t>(link)]));
    }
  }
  return worst;
}

TEST(TreeKernel, PortableAndAvx2AgreeBitwiseAndMatchPlainProducts) {
  std::mt19937_64 random(29);
  double worst = 0;
  for (int trial = 0; trial < 60; ++trial)
    worst = std::max(worst, check_random_tree(random, 2 + trial % 14, trial % 3 != 0));
  EXPECT_LE(worst, 1e-12);
  EXPECT_GT(g_turned_origins, 10) << "origins about one axis, turned as two columns";
}

// Past 64 links (PR2 82, TIAGo 78, TIAGo dual 130) the kernel's scratch moves from the stack to the
// heap; it must stay aligned for the vector stores (this crashed with SIGSEGV).
TEST(TreeKernel, TreesBeyondTheStackScratchStayExact) {
  std::mt19937_64 random(31);
  double worst = 0;
  for (const int link_count : {64, 65, 82, 130, 300})
    worst = std::max(worst, check_random_tree(random, link_count, link_count % 2 == 0));
  EXPECT_LE(worst, 1e-12);
}

TEST(TipKernel, RejectsChainsItCannotUnroll) {
  EXPECT_FALSE(detail::make_tip_kernel({}, Pose::Identity()));
  std::vector<detail::TipKernelInput> joints(
      detail::kTipKernelMaxJoints + 1, detail::TipKernelInput{{0, 0, 0.1}, 2, 1.0, 1.0, 0.0, 0});
  EXPECT_FALSE(detail::make_tip_kernel(joints, Pose::Identity()));
}

TEST(TipKernel, ChainFkStillRejectsNonFiniteInput) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model =
      load_robot_file(test::example_robot_data_dir() + "/robots/panda_description/urdf/panda.urdf");
  const KinematicChain chain(model, "panda_link0", "panda_hand");
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    JointVector q = chain.mid_configuration();
    q[6] = bad;
    EXPECT_THROW(chain.fk(q), Error) << bad;
  }
  JointVector q = chain.mid_configuration();
  q[3] = std::numeric_limits<double>::max();  // finite, far outside the fast sincos range
  EXPECT_TRUE(chain.fk(q).matrix().allFinite());
}

}  // namespace
}  // namespace kinetic
