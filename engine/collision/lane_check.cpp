#include "engine/collision/lane_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/collision/broad_phase.hpp"
#include "engine/collision/cover_check.hpp"
#include "engine/collision/lane_math.hpp"
#include "engine/collision/leaf_exact.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/kinematics/joint_motion.hpp"
#include "engine/kinematics/joint_source.hpp"

KINETIC_LANES_FUSE_BEGIN

namespace kinetic {
namespace {

// m: added to every padding the lanes test. Single precision places a point of a robot within a
// few metres of its base to within micrometres (a dozen float rotations in a row, a polynomial
// sine good to 1e-7); a tenth of a millimetre leaves a wide margin over that, and costs nothing
// against covers that stick out of their meshes by up to 3 cm.
constexpr float kLaneSlack = 1e-4f;
// rad (or m): joint values the lanes place. Beyond, float's spacing of the value itself would
// shift a point by more than the slack allows.
constexpr double kMaxLaneValue = 256.0;
// m: coordinates the lanes test, as the covers' own test (cover_check.cpp).
constexpr float kMaxLaneCoordinate = 50.0f;
// Bounded obstacles up to which the broad phase tests every lane's root sphere against every
// obstacle's bounding sphere (broad_phase below).
constexpr std::size_t kLaneBroadPhase = 64;

// Sine and cosine of |x| <= kMaxLaneValue: the quarter turn nearest x taken off in three parts
// (Cody and Waite), then Cephes' single-precision polynomials on [-pi/4, pi/4].
[[gnu::always_inline]] inline void lane_sincos(LaneF x, LaneF& sine, LaneF& cosine) {
  const float kRound = 12582912.0f;  // 1.5 * 2^23: adding and taking it off rounds to an integer
  const LaneF j = (x * 0.63661977236758134f + kRound) - kRound;
  const LaneF y =
      ((x - j * 1.5703125f) - j * 4.837512969970703125e-4f) - j * 7.54978995489188216e-8f;
  const LaneF z = y * y;
  const LaneF s = y + y * z * (-1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f));
  const LaneF c =
      (1.0f - 0.5f * z) +
      z * z * (4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f));
  const LaneI quarter = __builtin_convertvector(j, LaneI);
  const LaneI swapped = (quarter & 1) != 0;
  const LaneF s0 = swapped ? c : s, c0 = swapped ? s : c;
  sine = (quarter & 2) != 0 ? -s0 : s0;
  cosine = ((quarter + 1) & 2) != 0 ? -c0 : c0;
}

// A link's frame in the lanes: rotation columns (rows x, y, z each) then the translation.
constexpr int kFrameRows = 12;

// Lanes within `reach` of an obstacle's primitive (all bits set), from the lanes' points in its
// frame. Not-greater comparisons keep NaN lanes near.
[[gnu::always_inline]] inline LaneI near_primitive(const LaneModel::Obstacle& shape, LaneF x,
                                                   LaneF y, LaneF z, LaneF reach) {
  switch (shape.type) {
    case Shape::Type::Box: {
      const LaneF qx = lane_max0(lane_abs(x) - shape.half[0]);
      const LaneF qy = lane_max0(lane_abs(y) - shape.half[1]);
      const LaneF qz = lane_max0(lane_abs(z) - shape.half[2]);
      return ~(qx * qx + qy * qy + qz * qz > reach * reach);
    }
    case Shape::Type::Cylinder: {
      const LaneF qr = lane_max0(lane_sqrt(x * x + y * y) - shape.half[0]);
      const LaneF qz = lane_max0(lane_abs(z) - shape.half[2]);
      return ~(qr * qr + qz * qz > reach * reach);
    }
    case Shape::Type::Sphere: {
      const LaneF limit = reach + shape.half[0];
      return ~(x * x + y * y + z * z > limit * limit);
    }
    case Shape::Type::HalfSpace: {
      const LaneF height =
          x * shape.normal[0] + y * shape.normal[1] + z * shape.normal[2] - shape.offset;
      return ~(height > reach);
    }
    case Shape::Type::Mesh:
      break;
  }
  return LaneI{} - 1;
}

bool lane_witness_test(Shape::Type type) {
  return type == Shape::Type::Box || type == Shape::Type::Cylinder || type == Shape::Type::Sphere;
}

// Lanes whose point lies deeper than kLaneSlack inside a box, cylinder or sphere, or nearer to it
// than reach_in (the padding less kLaneSlack): proof that the body holding the point is within
// the padding of the obstacle, whatever single precision's rounding.
[[gnu::always_inline]] inline LaneI within_primitive(const LaneModel::Obstacle& shape, LaneF x,
                                                     LaneF y, LaneF z, float reach_in) {
  const float reach_squared = reach_in > 0.0f ? reach_in * reach_in : -1.0f;
  switch (shape.type) {
    case Shape::Type::Box: {
      const LaneF ax = lane_abs(x), ay = lane_abs(y), az = lane_abs(z);
      const LaneF qx = lane_max0(ax - shape.half[0]), qy = lane_max0(ay - shape.half[1]),
                  qz = lane_max0(az - shape.half[2]);
      const LaneF dx = shape.half[0] - ax, dy = shape.half[1] - ay, dz = shape.half[2] - az;
      const LaneF depth = dx < dy ? (dx < dz ? dx : dz) : (dy < dz ? dy : dz);
      return (depth > kLaneSlack) | (qx * qx + qy * qy + qz * qz < reach_squared);
    }
    case Shape::Type::Cylinder: {
      const LaneF radial = lane_sqrt(x * x + y * y), az = lane_abs(z);
      const LaneF qr = lane_max0(radial - shape.half[0]), qz = lane_max0(az - shape.half[2]);
      const LaneF dr = shape.half[0] - radial, dz = shape.half[2] - az;
      const LaneF depth = dr < dz ? dr : dz;
      return (depth > kLaneSlack) | (qr * qr + qz * qz < reach_squared);
    }
    case Shape::Type::Sphere: {
      const float limit = shape.half[0] + reach_in;
      return x * x + y * y + z * z < (limit > 0.0f ? limit * limit : -1.0f);
    }
    default:
      return LaneI{};
  }
}

LaneModel::Obstacle lane_obstacle(const CollisionWorld::ObstacleFrame& frame) {
  LaneModel::Obstacle out;
  if (!frame.shape || frame.shape->type == Shape::Type::Mesh || !frame.to_local.allFinite() ||
      !(frame.origin.cwiseAbs().maxCoeff() < kMaxLaneCoordinate))
    return out;
  const Shape& shape = *frame.shape;
  out.type = shape.type;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) out.to_local[3 * c + r] = static_cast<float>(frame.to_local(r, c));
  for (int r = 0; r < 3; ++r) out.origin[r] = static_cast<float>(frame.origin[r]);
  switch (shape.type) {
    case Shape::Type::Box:
    case Shape::Type::Cylinder:
    case Shape::Type::Sphere:
      primitive_half_sizes(shape, out.half);
      break;
    case Shape::Type::HalfSpace:
      if (!(std::abs(shape.offset) < kMaxLaneCoordinate)) return out;
      for (int r = 0; r < 3; ++r) out.normal[r] = static_cast<float>(shape.normal[r]);
      out.offset = static_cast<float>(shape.offset);
      break;
    case Shape::Type::Mesh:
      return out;
  }
  out.testable = true;
  return out;
}

// Half the lanes, for the joint values read in double.
typedef double HalfLanesD __attribute__((vector_size(kLanes / 2 * sizeof(double))));
typedef long long HalfLanesI __attribute__((vector_size(kLanes / 2 * sizeof(long long))));
typedef float HalfLanesF __attribute__((vector_size(kLanes / 2 * sizeof(float))));
[[gnu::always_inline]] inline HalfLanesD half_abs(HalfLanesD x) {
  return (HalfLanesD)((HalfLanesI)x & 0x7fffffffffffffffLL);
}

// The joint steps of forward kinematics in single precision.
[[gnu::always_inline]] inline void place_links(const LaneModel& model,
                                               const JointVector* const* states, int count,
                                               LaneF* frames, bool& placed) {
  for (int r = 0; r < kFrameRows; ++r) frames[model.root * kFrameRows + r] = splat(0.0f);
  frames[model.root * kFrameRows + 0] = splat(1.0f);
  frames[model.root * kFrameRows + 4] = splat(1.0f);
  frames[model.root * kFrameRows + 8] = splat(1.0f);
  placed = true;
  // Each lane's joint values (the lanes beyond `count` repeat the first state), read once.
  const double* values[kLanes];
  for (int l = 0; l < kLanes; ++l) values[l] = states[l < count ? l : 0]->data();
  for (const LaneModel::Step& step : model.steps) {
    const LaneF* parent = frames + step.parent * kFrameRows;
    LaneF* child = frames + step.child * kFrameRows;
    for (int r = 0; r < 3; ++r)
      child[9 + r] = ((parent[r] * step.translation[0] + parent[3 + r] * step.translation[1]) +
                      parent[6 + r] * step.translation[2]) +
                     parent[9 + r];
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        child[3 * c + r] =
            step.permuted
                ? parent[3 * step.source[c] + r] * step.sign[c]
                : (parent[r] * step.rotation[3 * c] + parent[3 + r] * step.rotation[3 * c + 1]) +
                      parent[6 + r] * step.rotation[3 * c + 2];
    if (step.motion == LaneModel::Step::Motion::Fixed) continue;
    // In double, four lanes at a time (one vector each where built for AVX2), then rounded once.
    HalfLanesD low, high;
    for (int l = 0; l < kLanes / 2; ++l) {
      low[l] = values[l][step.variable];
      high[l] = values[l + kLanes / 2][step.variable];
    }
    low = low * step.multiplier + step.offset;
    high = high * step.multiplier + step.offset;
    // Within range: a NaN lane is not.
    const HalfLanesI in_range =
        (half_abs(low) <= kMaxLaneValue) & (half_abs(high) <= kMaxLaneValue);
    if ((in_range[0] & in_range[1] & in_range[2] & in_range[3]) == 0) {
      placed = false;
      return;
    }
    const HalfLanesF low_f = __builtin_convertvector(low, HalfLanesF),
                     high_f = __builtin_convertvector(high, HalfLanesF);
    // Joined in registers (two 16-byte stores read back as one 32-byte load would stall).
    const LaneF value = __builtin_shufflevector(low_f, high_f, 0, 1, 2, 3, 4, 5, 6, 7);
    if (step.motion == LaneModel::Step::Motion::Prismatic) {
      for (int r = 0; r < 3; ++r)
        child[9 + r] += ((child[r] * step.axis[0] + child[3 + r] * step.axis[1]) +
                         child[6 + r] * step.axis[2]) *
                        value;
      continue;
    }
    LaneF sine, cosine;
    if (step.axis_kind < 3) {
      lane_sincos(value * step.axis_sign, sine, cosine);
      const int a = (step.axis_kind + 1) % 3, b = (step.axis_kind + 2) % 3;
      for (int r = 0; r < 3; ++r) {
        const LaneF ca = child[3 * a + r], cb = child[3 * b + r];
        child[3 * a + r] = cosine * ca + sine * cb;
        child[3 * b + r] = cosine * cb - sine * ca;
      }
      continue;
    }
    // A general axis k: R(k, v) = cos I + sin [k]x + (1 - cos) k k^T, applied on the right.
    lane_sincos(value, sine, cosine);
    const float* k = step.axis;
    const LaneF versine = 1.0f - cosine;
    LaneF m[9];  // column-major
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) m[3 * c + r] = versine * (k[r] * k[c]);
    for (int d = 0; d < 3; ++d) m[4 * d] += cosine;
    m[5] += sine * k[0];  // (2, 1)
    m[7] -= sine * k[0];  // (1, 2)
    m[6] += sine * k[1];  // (0, 2)
    m[2] -= sine * k[1];  // (2, 0)
    m[1] += sine * k[2];  // (1, 0)
    m[3] -= sine * k[2];  // (0, 1)
    LaneF rotated[9];
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        rotated[3 * c + r] =
            (child[r] * m[3 * c] + child[3 + r] * m[3 * c + 1]) + child[6 + r] * m[3 * c + 2];
    for (int i = 0; i < 9; ++i) child[i] = rotated[i];
  }
}

// Point p (body frame) placed by a lane frame.
[[gnu::always_inline]] inline void place_point(const LaneF* frame, float x, float y, float z,
                                               LaneF out[3]) {
  for (int r = 0; r < 3; ++r)
    out[r] = ((frame[r] * x + frame[3 + r] * y) + frame[6 + r] * z) + frame[9 + r];
}

}  // namespace

std::shared_ptr<const LaneModel> lane_model_for(const CollisionWorld& world) {
  if (world.attached_begin != world.obstacle_begin) return nullptr;  // attached objects
  // Links without a cover (a cover given up past its sphere budget, as an industrial arm's large
  // first link, or a half-space) are tested by their root spheres alone, and left open
  // where those are near; a robot with few covers is left to the run proofs of grid_check.
  std::size_t covered = 0;
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) covered += has_cover(world, m);
  if (2 * covered <= world.moving_bodies.size()) return nullptr;
  const RobotModel& robot = *world.model;
  auto model = std::make_shared<LaneModel>();
  model->link_count = static_cast<int>(robot.links().size());
  model->root = robot.root_link();
  // Joints are stored parents first (robot_model.hpp).
  for (const Joint& joint : robot.joints()) {
    LaneModel::Step step;
    step.parent = joint.parent_link;
    step.child = joint.child_link;
    const detail::JointSource source = detail::resolve_joint_source(joint);
    switch (joint.type) {
      case JointType::Revolute:
      case JointType::Continuous:
        if (source.variable >= 0) step.motion = LaneModel::Step::Motion::Revolute;
        break;
      case JointType::Prismatic:
        if (source.variable >= 0) step.motion = LaneModel::Step::Motion::Prismatic;
        break;
      case JointType::Fixed:
        break;
      case JointType::Floating:
      case JointType::Planar:
        if (joint.variable_index >= 0) return nullptr;
        break;
    }
    step.variable = source.variable;
    step.multiplier = source.multiplier;
    step.offset = source.offset;
    // The double-precision kinematics' own reading of the origin and axis (joint_motion.hpp):
    // signed column moves where the origin rotation is a signed permutation, the axis kind.
    const detail::FrameStep frame =
        detail::FrameStep::make(joint.origin, joint.axis, detail::StepMotion::Fixed);
    for (int r = 0; r < 3; ++r) step.translation[r] = static_cast<float>(frame.translation[r]);
    step.permuted = frame.permuted;
    for (int c = 0; c < 3; ++c) {
      step.source[c] = frame.source[c];
      step.sign[c] = static_cast<float>(frame.sign[c]);
    }
    for (int i = 0; i < 9; ++i) step.rotation[i] = static_cast<float>(frame.rotation[i]);
    if (!frame.axis.axis.allFinite()) return nullptr;
    for (int r = 0; r < 3; ++r) step.axis[r] = static_cast<float>(frame.axis.axis[r]);
    step.axis_kind =
        frame.axis.kind == detail::AxisKind::General ? 3 : static_cast<int>(frame.axis.kind);
    step.axis_sign = static_cast<float>(frame.axis.sign);
    if (!joint.origin.matrix().allFinite() ||
        joint.origin.translation().cwiseAbs().maxCoeff() >= kMaxLaneCoordinate)
      return nullptr;
    model->steps.push_back(step);
  }
  for (const CollisionWorld::ObstacleFrame& frame : world.obstacle_frames)
    model->obstacles.push_back(lane_obstacle(frame));
  const std::size_t obstacles = model->obstacles.size();
  model->axis_test.assign(world.moving_bodies.size() * obstacles, 0);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
    const CollisionBody& body =
        *world.bodies[static_cast<std::size_t>(world.moving_bodies[m])].body;
    if (body.parts.size() != 1 || !body.parts.front().mesh) continue;
    const CollisionMesh& mesh = *body.parts.front().mesh;
    const std::size_t hull =
        mesh.hull.vertices.empty() ? mesh.vertices.size() : mesh.hull.vertices.size();
    if (world.vertex_begin[m + 1] - world.vertex_begin[m] != hull) continue;  // some left out
    for (std::size_t k = 0; k < obstacles; ++k) {
      const CollisionBody& obstacle =
          *world.bodies[static_cast<std::size_t>(world.obstacle_begin) + k].body;
      const LaneModel::Obstacle& shape = model->obstacles[k];
      model->axis_test[m * obstacles + k] =
          shape.testable && lane_witness_test(shape.type) && obstacle.parts.size() == 1 &&
          hull_proof_applies(body, obstacle) && leaf_exact_supported(body, obstacle);
    }
  }
  return model;
}

namespace {

// The obstacles whose bounds come within the padding of some lane's root sphere, into
// lanes.candidates (false: the lanes' centres are not finite). In a scene of up to
// kLaneBroadPhase bounded obstacles each lane's sphere is tested against every obstacle's
// bounding sphere, eight lanes per instruction; in larger ones one sphere around all the lanes'
// goes to the state check's broad phase.
[[gnu::always_inline]] inline bool broad_phase(const CollisionWorld& world, LaneState& lanes,
                                               const LaneF* root, float root_radius,
                                               double scene_padding, unsigned lanes_asked,
                                               bool direct) {
  if (direct) {
    const SphereSet& spheres = world.obstacle_spheres;
    // As any_near rounds a reach (sphere_set.hpp), with the lanes' own slack on their centres.
    const float reach =
        static_cast<float>((root_radius + scene_padding + 2.0 * kLaneSlack) * (1.0 + 1e-6)) +
        SphereSet::kReachSlack;
    const float *x = spheres.x(), *y = spheres.y(), *z = spheres.z(), *r = spheres.r();
    const int* ids = spheres.ids();
    const std::size_t most = spheres.size() + world.unbounded_obstacles.size();
    if (lanes.candidates.size() < most) lanes.candidates.resize(most);
    // Every entry written, the count moved on only where some lane is near: no branch per
    // obstacle, whose outcome (a link beside an obstacle or not) the predictor cannot learn.
    int* out = lanes.candidates.data();
    std::size_t count = 0;
    for (std::size_t e = 0; e < spheres.entries(); ++e) {  // (padding entries never count)
      const LaneF dx = root[0] - x[e], dy = root[1] - y[e], dz = root[2] - z[e];
      const float limit = r[e] + reach;
      // Not-greater: a NaN lane stays near.
      const unsigned near = lane_bits(~(dx * dx + dy * dy + dz * dz > limit * limit)) & lanes_asked;
      out[count] = ids[e];
      count += static_cast<std::size_t>((ids[e] >= 0) & (near != 0));
    }
    for (const int o : world.unbounded_obstacles) out[count++] = o;
    lanes.candidate_count = count;
    return true;
  }
  lanes.candidates.clear();
  // One sphere around the lanes' root centres (the lanes beyond `count` repeat the first state).
  Vector3 center, half;
  for (int r = 0; r < 3; ++r) {
    float low = root[r][0], high = root[r][0];
    for (int l = 1; l < kLanes; ++l) {
      low = std::min(low, root[r][l]);
      high = std::max(high, root[r][l]);
    }
    center[r] = 0.5 * (static_cast<double>(low) + high);
    half[r] = 0.5 * (static_cast<double>(high) - low);
  }
  if (!center.allFinite() || !half.allFinite()) return false;
  any_obstacle_near(world.obstacle_spheres, world.obstacle_tree, world.unbounded_obstacles, center,
                    half.norm() + root_radius + kLaneSlack, scene_padding + kLaneSlack,
                    [&lanes](int o) {
                      lanes.candidates.push_back(o);
                      return false;
                    });
  lanes.candidate_count = lanes.candidates.size();
  return true;
}

// A link's frame (kFrameRows rows) in an obstacle's frame, per lane.
[[gnu::always_inline]] inline void place_in_obstacle(const LaneF* frame,
                                                     const LaneModel::Obstacle& obstacle,
                                                     LaneF* relative) {
  const float* to_local = obstacle.to_local;
  const float* origin = obstacle.origin;
  for (int c = 0; c < 4; ++c) {
    const LaneF x = c < 3 ? frame[3 * c] : frame[9] - origin[0];
    const LaneF y = c < 3 ? frame[3 * c + 1] : frame[10] - origin[1];
    const LaneF z = c < 3 ? frame[3 * c + 2] : frame[11] - origin[2];
    for (int r = 0; r < 3; ++r)
      relative[3 * c + r] = (x * to_local[r] + y * to_local[3 + r]) + z * to_local[6 + r];
  }
}

// Lanes of `lanes` where slot m's hull clears the obstacle (in its frame: `relative` places the
// link there) by more than reach along `axis` (world frame, from the obstacle towards the link, a
// HullHint's): the least of the hull's vertices along it against the primitive's support. Lane by
// lane, eight vertices at a time (few lanes wait for this test at once). Not-greater
// comparisons: a NaN lane is never apart.
[[gnu::always_inline]] inline unsigned apart_along(const CollisionWorld& world, std::size_t m,
                                                   const LaneModel::Obstacle& shape,
                                                   const LaneF* relative, const Vector3& axis,
                                                   float reach, unsigned lanes) {
  float u[3];
  for (int r = 0; r < 3; ++r)
    u[r] = static_cast<float>(axis.x()) * shape.to_local[r] +
           static_cast<float>(axis.y()) * shape.to_local[3 + r] +
           static_cast<float>(axis.z()) * shape.to_local[6 + r];
  float support = shape.half[0];  // sphere
  if (shape.type == Shape::Type::Box)
    support = std::abs(u[0]) * shape.half[0] + std::abs(u[1]) * shape.half[1] +
              std::abs(u[2]) * shape.half[2];
  else if (shape.type == Shape::Type::Cylinder)
    support = shape.half[0] * std::sqrt(u[0] * u[0] + u[1] * u[1]) + std::abs(u[2]) * shape.half[2];
  // The axis in the link's frame per lane, and the link origin's height along it.
  LaneF w[3];
  for (int c = 0; c < 3; ++c)
    w[c] = (relative[3 * c] * u[0] + relative[3 * c + 1] * u[1]) + relative[3 * c + 2] * u[2];
  const LaneF height = (relative[9] * u[0] + relative[10] * u[1]) + relative[11] * u[2];
  const float *x = world.vertex_x.data(), *y = world.vertex_y.data(), *z = world.vertex_z.data();
  const std::size_t begin = world.vertex_begin[m], end = world.vertex_begin[m + 1];
  const LaneI index = {0, 1, 2, 3, 4, 5, 6, 7};
  const LaneF far = splat(std::numeric_limits<float>::infinity());
  unsigned apart = 0;
  for (; lanes != 0; lanes &= lanes - 1) {
    const int l = __builtin_ctz(lanes);
    const float wx = w[0][l], wy = w[1][l], wz = w[2][l];
    LaneF lowest = far;
    for (std::size_t i = begin; i < end; i += kLanes) {  // (the columns are padded past the end)
      LaneF vx, vy, vz;
      std::memcpy(&vx, x + i, sizeof vx);
      std::memcpy(&vy, y + i, sizeof vy);
      std::memcpy(&vz, z + i, sizeof vz);
      const LaneF along = (vx * wx + vy * wy) + vz * wz;
      const LaneF counted = index < static_cast<int>(end - i) ? along : far;
      lowest = counted < lowest ? counted : lowest;
    }
    if ((lane_min(lowest) + height[l]) - support > reach) apart |= 1u << l;
  }
  return apart;
}

// What lanes_open does, inlined into a portable and an AVX2 build of it (the lanes' vectors are
// then one register each).
[[gnu::always_inline]] inline bool scene_open_body(const CollisionWorld& world, LaneState& lanes,
                                                   const JointVector* const* states, int count,
                                                   double scene_padding, LaneOpen* open,
                                                   bool stop_at_collision,
                                                   const HullHint* scene_hints) {
  const LaneModel& model = *world.lanes;
  const unsigned active = (1u << count) - 1u;
  const std::size_t rows = static_cast<std::size_t>(model.link_count) * kFrameRows;
  if (lanes.frames.size() < rows) lanes.frames.resize(rows);
  LaneF* frames = reinterpret_cast<LaneF*>(lanes.frames.data());
  bool placed = false;
  place_links(model, states, count, frames, placed);
  if (!placed) {
    for (int l = 0; l < count; ++l) open[l] = {kAllSlots, kAllSlots};
    return false;
  }
  for (int l = 0; l < count; ++l) open[l] = {};
  lanes.axis_pending.clear();

  // Root spheres of every slot, for the broad phase and the self pairs.
  const std::size_t slots = world.moving_bodies.size();
  if (lanes.roots.size() < slots * 3) lanes.roots.resize(slots * 3);
  LaneF* roots = reinterpret_cast<LaneF*>(lanes.roots.data());
  for (std::size_t m = 0; m < slots; ++m) {
    const int b = world.moving_bodies[m];
    const LaneF* frame = frames + world.bodies[static_cast<std::size_t>(b)].link * kFrameRows;
    const Vector3& c = world.local_root_centers[static_cast<std::size_t>(b)];
    place_point(frame, static_cast<float>(c.x()), static_cast<float>(c.y()),
                static_cast<float>(c.z()), roots + 3 * m);
  }

  const float scene_reach_padding = static_cast<float>(scene_padding) + kLaneSlack;
  unsigned colliding = 0;  // lanes a witness proved in collision
  const bool direct =
      world.obstacle_spheres.size() <= kLaneBroadPhase && world.obstacle_spheres.usable();
  // The slots from the last to the first: a robot's distal links (the hand, the wrist) hit
  // obstacles far more often than the links near its base, and a motion check stops at the first
  // lane a witness proves colliding (3.7% fewer instructions in the benchmark's searches).
  for (std::size_t turn = 0; world.has_obstacles() && turn < slots; ++turn) {
    const std::size_t m = slots - 1 - turn;
    if (world.scene_reach_gap[m] > scene_padding + kLaneSlack) continue;  // nothing in reach
    const LaneF* root = roots + 3 * m;
    const int b = world.moving_bodies[m];
    const float root_radius = static_cast<float>(world.root_radii[static_cast<std::size_t>(b)]);
    const double body_extent = world.bodies[static_cast<std::size_t>(b)].body->extent;
    // Lanes beyond single precision's range are left open.
    unsigned open_lanes = lane_bits(~(lane_abs(root[0]) < kMaxLaneCoordinate) |
                                    ~(lane_abs(root[1]) < kMaxLaneCoordinate) |
                                    ~(lane_abs(root[2]) < kMaxLaneCoordinate)) &
                          active;
    if (open_lanes == active || !broad_phase(world, lanes, root, root_radius, scene_padding,
                                             active & ~open_lanes, direct)) {
      open_lanes = active;
    } else {
      const LaneF* frame = frames + world.bodies[static_cast<std::size_t>(b)].link * kFrameRows;
      const unsigned char* allowed = world.scene_allowed[m].data();
      const std::size_t cover_begin = world.cover_begin[m], cover_end = world.cover_begin[m + 1];
      for (std::size_t n = 0; n < lanes.candidate_count; ++n) {
        const int o = lanes.candidates[n];
        const std::size_t k = static_cast<std::size_t>(o - world.obstacle_begin);
        if (allowed[k]) continue;
        const LaneModel::Obstacle& obstacle = model.obstacles[k];
        if (!obstacle.testable) {
          open_lanes = active;
          break;
        }
        const float* to_local = obstacle.to_local;
        const float* origin = obstacle.origin;
        // The root sphere first, placed in the obstacle's frame: most obstacles the broad phase
        // offers (it tests bounding spheres) end here.
        LaneF l[3];
        const LaneF dx = root[0] - origin[0], dy = root[1] - origin[1], dz = root[2] - origin[2];
        for (int r = 0; r < 3; ++r)
          l[r] = (dx * to_local[r] + dy * to_local[3 + r]) + dz * to_local[6 + r];
        const unsigned near_root =
            lane_bits(near_primitive(obstacle, l[0], l[1], l[2],
                                     splat(root_radius + scene_reach_padding))) &
            active & ~open_lanes;
        if (near_root == 0) continue;
        if (cover_begin == cover_end) {  // no cover: the state check decides
          open_lanes |= near_root;
          if (open_lanes == active) break;
          continue;
        }
        // The link's frame in the obstacle's frame, per lane: each sphere is then one placement.
        LaneF relative[kFrameRows];
        place_in_obstacle(frame, obstacle, relative);
        LaneI touched{};
        for (std::size_t i = cover_begin; i < cover_end; ++i) {
          place_point(relative, world.cover_x[i], world.cover_y[i], world.cover_z[i], l);
          touched |= near_primitive(obstacle, l[0], l[1], l[2],
                                    splat(world.cover_r[i] + scene_reach_padding));
        }
        const unsigned touching = lane_bits(touched) & near_root;
        // A witness vertex of the link's meshes inside the obstacle (or within the padding)
        // proves the state colliding, as the state check's own witnesses do.
        if (touching & ~colliding && lane_witness_test(obstacle.type)) {
          const float reach_in = static_cast<float>(scene_padding) - kLaneSlack;
          LaneI inside{};
          for (std::size_t i = world.witness_begin[m]; i < world.witness_begin[m + 1]; ++i) {
            place_point(relative, world.witness_x[i], world.witness_y[i], world.witness_z[i], l);
            inside |= within_primitive(obstacle, l[0], l[1], l[2], reach_in);
          }
          // The link's inner spheres, where the obstacle is too wide to lie inside the link.
          if (world.obstacle_frames[k].enclosing_radius > body_extent)
            for (std::size_t i = world.inner_begin[m]; i < world.inner_begin[m + 1]; ++i) {
              place_point(relative, world.inner_x[i], world.inner_y[i], world.inner_z[i], l);
              inside |= within_primitive(obstacle, l[0], l[1], l[2], reach_in + world.inner_r[i]);
            }
          colliding |= lane_bits(inside) & touching;
        }
        // The lanes left undecided wait for the pair's kept axis (after every slot's witnesses:
        // a state they prove colliding ends a motion check, whatever else is open).
        unsigned pending = 0;
        if (const unsigned undecided = touching & ~colliding;
            undecided && scene_hints && model.axis_test[m * model.obstacles.size() + k] &&
            scene_hints[m * model.obstacles.size() + k].axis.squaredNorm() > 0.0) {
          pending = undecided;
          lanes.axis_pending.push_back(
              {static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(k), pending});
        }
        open_lanes |= touching & ~pending;
        if (open_lanes == active || (stop_at_collision && colliding)) break;
      }
    }
    for (int l = 0; l < count; ++l)
      if (open_lanes & (1u << l)) open[l].scene |= slot_bit(m);
    if (stop_at_collision && colliding) break;
  }
  for (int l = 0; l < count; ++l) open[l].collides = (colliding >> l) & 1u;
  if (stop_at_collision && colliding) return true;
  // The pairs waiting for their kept axis: apart along it, as the state check would prove them
  // next (slot_near_scene), or open.
  for (const LaneState::AxisPending& entry : lanes.axis_pending) {
    const LaneModel::Obstacle& obstacle = model.obstacles[entry.obstacle];
    const int b = world.moving_bodies[entry.slot];
    const LaneF* frame = frames + world.bodies[static_cast<std::size_t>(b)].link * kFrameRows;
    LaneF relative[kFrameRows];
    place_in_obstacle(frame, obstacle, relative);
    const unsigned apart =
        apart_along(world, entry.slot, obstacle, relative,
                    scene_hints[entry.slot * model.obstacles.size() + entry.obstacle].axis,
                    scene_reach_padding, entry.lanes);
    const unsigned open_lanes = entry.lanes & ~apart;
    for (int l = 0; l < count; ++l)
      if (open_lanes & (1u << l)) open[l].scene |= slot_bit(entry.slot);
  }
  return true;
}

// The self pairs of the states scene_open_body placed (their root spheres in lanes.roots).
[[gnu::always_inline]] inline void self_open_body(const CollisionWorld& world, LaneState& lanes,
                                                  const JointVector* const* states, int count,
                                                  double self_padding, LaneOpen* open,
                                                  SlotMask self_proven) {
  const unsigned active = (1u << count) - 1u;
  const LaneF* roots = reinterpret_cast<const LaneF*>(lanes.roots.data());
  // Self pairs: root spheres apart, else the pair's table at the lane's configuration.
  const float self_reach_padding = static_cast<float>(self_padding) + kLaneSlack;
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
    if (k < 63 && (self_proven & slot_bit(k))) continue;
    const LaneF* a = roots + 3 * static_cast<std::size_t>(world.slot_of_body[world.self_first[k]]);
    const LaneF* b = roots + 3 * static_cast<std::size_t>(world.slot_of_body[world.self_second[k]]);
    const LaneF dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    const float limit = static_cast<float>(world.self_reach[k]) + self_reach_padding;
    const unsigned near = lane_bits(~(dx * dx + dy * dy + dz * dz > limit * limit)) & active;
    if (near == 0) continue;
    const SelfPairTable* table = world.self_tables[k].get();
    for (int l = 0; l < count; ++l)
      if ((near & (1u << l)) && !(table && table->clear_at(*states[l], self_padding)))
        open[l].self |= slot_bit(k);
  }
}

bool scene_open_portable(const CollisionWorld& world, LaneState& lanes,
                         const JointVector* const* states, int count, double scene_padding,
                         LaneOpen* open, bool stop_at_collision, const HullHint* scene_hints) {
  return scene_open_body(world, lanes, states, count, scene_padding, open, stop_at_collision,
                         scene_hints);
}
void self_open_portable(const CollisionWorld& world, LaneState& lanes,
                        const JointVector* const* states, int count, double self_padding,
                        LaneOpen* open, SlotMask self_proven) {
  self_open_body(world, lanes, states, count, self_padding, open, self_proven);
}

#ifdef KINETIC_LANES_X86
[[gnu::target(KINETIC_LANES_TARGET)]] bool scene_open_avx2(
    const CollisionWorld& world, LaneState& lanes, const JointVector* const* states, int count,
    double scene_padding, LaneOpen* open, bool stop_at_collision, const HullHint* scene_hints) {
  return scene_open_body(world, lanes, states, count, scene_padding, open, stop_at_collision,
                         scene_hints);
}
[[gnu::target(KINETIC_LANES_TARGET)]] void self_open_avx2(const CollisionWorld& world,
                                                          LaneState& lanes,
                                                          const JointVector* const* states,
                                                          int count, double self_padding,
                                                          LaneOpen* open, SlotMask self_proven) {
  self_open_body(world, lanes, states, count, self_padding, open, self_proven);
}
#endif

}  // namespace

bool lanes_open_scene(const CollisionWorld& world, LaneState& lanes,
                      const JointVector* const* states, int count, double scene_padding,
                      LaneOpen* open, bool stop_at_collision, const HullHint* scene_hints) {
#ifdef KINETIC_LANES_X86
  const auto run = cpu_has_avx2_fma() ? &scene_open_avx2 : &scene_open_portable;
#else
  const auto run = &scene_open_portable;
#endif
  return run(world, lanes, states, count, scene_padding, open, stop_at_collision, scene_hints);
}

void lanes_open_self(const CollisionWorld& world, LaneState& lanes,
                     const JointVector* const* states, int count, double self_padding,
                     LaneOpen* open, SlotMask self_proven) {
#ifdef KINETIC_LANES_X86
  const auto run = cpu_has_avx2_fma() ? &self_open_avx2 : &self_open_portable;
#else
  const auto run = &self_open_portable;
#endif
  run(world, lanes, states, count, self_padding, open, self_proven);
}

void lanes_open(const CollisionWorld& world, LaneState& lanes, const JointVector* const* states,
                int count, double scene_padding, double self_padding, LaneOpen* open,
                SlotMask self_proven) {
  if (lanes_open_scene(world, lanes, states, count, scene_padding, open))
    lanes_open_self(world, lanes, states, count, self_padding, open, self_proven);
}

}  // namespace kinetic

KINETIC_LANES_FUSE_END
