// Self pairs of bodies made of boxes, cylinders and spheres (the built-in arms) are checked part
// against part, and part pairs that no joint moves relative to each other (the built-in Panda's
// base and shoulder housing, 6 mm apart in every pose) carry their one distance. Their verdicts
// must be FCL's, part pair by part pair, at paddings on both sides of such a fixed gap.
#include <gtest/gtest.h>

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <random>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/model/robot_loader.hpp"

using namespace kinetic;

namespace {

// Any self pair's parts nearer than `padding` (0: intersecting), by plain FCL.
bool fcl_self_collision(const CollisionChecker& checker, double padding, int& borderline) {
  bool hit = false;
  for (const auto& [a, b] : checker.self_pairs())
    for (const auto& pa : checker.body(a).parts)
      for (const auto& pb : checker.body(b).parts) {
        const fcl::Transform3d wa = checker.body_pose(a) * pa.pose,
                               wb = checker.body_pose(b) * pb.pose;
        fcl::DistanceRequestd request;
        request.gjk_solver_type = fcl::GST_INDEP;
        fcl::DistanceResultd result;
        fcl::distance(pa.fcl_geometry().get(), wa, pb.fcl_geometry().get(), wb, request, result);
        fcl::CollisionRequestd creq;
        fcl::CollisionResultd cres;
        fcl::collide(pa.fcl_geometry().get(), wa, pb.fcl_geometry().get(), wb, creq, cres);
        const double d = cres.isCollision() ? 0.0 : result.min_distance;
        if (std::abs(d - padding) < 1e-6)
          ++borderline;  // libccd's tolerance: no verdict to compare
        hit |= padding > 0.0 ? d < padding : cres.isCollision();
      }
  return hit;
}

}  // namespace

TEST(SolidSelfPairs, BuiltinArmsAgreeWithFclPartByPart) {
  for (const std::string name : {"panda", "ur5e", "iiwa14", "xarm7"}) {
    const RobotModelPtr model = load_builtin_robot(name);
    CollisionChecker checker(model);
    std::mt19937_64 rng(17);
    const JointVector lo = model->lower_limits(), hi = model->upper_limits();
    int colliding = 0, free = 0;
    for (int i = 0; i < 1500; ++i) {
      JointVector q(model->dof());
      for (int j = 0; j < model->dof(); ++j)
        q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      // Self padding is twice the per-link padding: 0, 4 mm and 8 mm, on both sides of the
      // Panda's fixed 6 mm base-shoulder gap.
      for (const double padding : {0.0, 0.002, 0.004}) {
        const bool ours =
            checker.in_collision(q, {.padding = padding, .self = true, .scene = false});
        int borderline = 0;
        const bool peer = fcl_self_collision(checker, 2.0 * padding, borderline);
        if (borderline > 0) continue;
        EXPECT_EQ(ours, peer) << name << " sample " << i << " padding " << padding;
        ours ? ++colliding : ++free;
      }
    }
    EXPECT_GT(colliding, 100) << name;  // both verdicts were exercised
    EXPECT_GT(free, 100) << name;
  }
}

TEST(SolidSelfPairs, APairThatNeverMovesCollidesEverywhereOnceThePaddingCoversItsGap) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  std::mt19937_64 rng(3);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  for (int i = 0; i < 200; ++i) {
    JointVector q(model->dof());
    for (int j = 0; j < model->dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    // base_link (a cylinder about joint 1) and link2's housing (a cylinder about joint 2): 6 mm.
    EXPECT_TRUE(checker.in_collision(q, {.padding = 0.0031, .self = true, .scene = false})) << i;
    const auto contacts = checker.contacts(q, {.padding = 0.0031, .self = true, .scene = false});
    bool base_shoulder = false;
    for (const Contact& c : contacts)
      base_shoulder |= c.body_a == "base_link" && c.body_b == "link2";
    EXPECT_TRUE(base_shoulder) << i;
  }
}
