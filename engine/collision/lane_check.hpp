#pragma once
// Eight configurations at once (VAMP's way: Thomason, Kingston and Kavraki, "Motions in
// Microseconds via Vectorized Sampling-Based Planning", 2024): forward kinematics, the links'
// sphere covers against the scene's primitives and the self pairs' root spheres, in single
// precision, one configuration per float lane. A state check pays its forward kinematics, broad
// phase and covers per state, a few hundred cycles each before any exact tier; the lanes pay them
// once per eight states.
//
// The lanes prove, and nothing else: a lane's state is free of the slots and pairs they clear, or
// it collides where a witness vertex of a link's meshes (witness_check.hpp) lies inside an
// obstacle; what they cannot clear (a cover within the padding of an obstacle, root spheres of a
// pair without a table proof) is left open for the state check (state_check.hpp) to decide as it
// always does. So every verdict built on them is the state check's. The covers hold their meshes
// (cover_check) and the lanes test them with a slack far above single precision's rounding
// (lane_check.cpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_world.hpp"

namespace kinetic {

inline constexpr int kLanes = 8;

// What the lanes need beyond the world: its kinematics in single precision. Built per world
// (CollisionWorld::lanes); null where the lanes cannot serve it (lane_model_for says why not).
struct LaneModel {
  struct Step {
    int parent = -1, child = -1;  // links
    // Origin (parent link -> joint): translation, and rotation as signed column moves where it is
    // a signed permutation (URDF rpy of multiples of pi/2), else a column-major matrix.
    float translation[3] = {0, 0, 0};
    bool permuted = true;
    int source[3] = {0, 1, 2};
    float sign[3] = {1, 1, 1};
    float rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    enum class Motion { Fixed, Revolute, Prismatic } motion = Motion::Fixed;
    int axis_kind = 2;          // 0, 1, 2: along ±x, ±y, ±z (axis_sign); 3: general
    float axis[3] = {0, 0, 1};  // unit, joint frame (prismatic and general revolute)
    float axis_sign = 1;
    int variable = -1;  // source variable (own or mimicked)
    double multiplier = 1, offset = 0;
  };
  std::vector<Step> steps;  // parents before children
  int link_count = 0;
  int root = 0;
  // Per obstacle (index - obstacle_begin), its primitive in single precision: world -> shape
  // frame, and the shape's sizes. testable false: a mesh or an obstacle beyond the lanes' range.
  struct Obstacle {
    bool testable = false;
    Shape::Type type = Shape::Type::Box;
    float to_local[9] = {};  // column-major
    float origin[3] = {};
    float half[3] = {};  // box: half extents; cylinder: (radius, -, half length); sphere: radius
    float normal[3] = {}, offset = 0;  // half-space: solid where normal . p <= offset
  };
  std::vector<Obstacle> obstacles;
  // Per moving slot and obstacle ([slot * obstacles + obstacle index]): whether the axis a
  // scalar hull proof kept for the pair (HullHint) may prove it apart in the lanes too: the state
  // check decides the pair exactly (hull_proof_applies, leaf_exact_supported, one part each), the
  // slot's hull vertices are all in the world's vertex columns, and the obstacle is a primitive
  // the lanes test.
  std::vector<unsigned char> axis_test;
};

// The lanes' model of `world`, or null where they cannot serve it: a robot whose links mostly lack
// sphere covers (the built-in arms' primitive links), attached objects, joints the steps cannot
// express.
std::shared_ptr<const LaneModel> lane_model_for(const CollisionWorld& world);

// One float per lane, aligned for the vector loads.
struct alignas(32) LaneBlock {
  float lane[kLanes];
};

// Per-thread buffers of the lanes.
struct LaneState {
  std::vector<LaneBlock> frames;    // per link 12 rows: 3 rotation columns, the translation
  std::vector<LaneBlock> roots;     // per moving slot its root sphere's centre (3 rows)
  std::vector<int> candidates;      // obstacles the broad phase offers one slot: the first
  std::size_t candidate_count = 0;  // candidate_count entries (the rest are scratch)
  // Scene pairs whose lanes wait for the test along the pair's kept hull axis (lanes_open_scene).
  struct AxisPending {
    std::uint32_t slot, obstacle;
    unsigned lanes;
  };
  std::vector<AxisPending> axis_pending;
};

// What the lanes left open in one state: slots whose scene clearance and self pairs whose
// separation the state check must decide (slot_bit of the slot / pair index).
struct LaneOpen {
  SlotMask scene = 0;
  SlotMask self = 0;
  // A witness vertex of a link's meshes lies inside an obstacle (or within the padding): the
  // state collides, whatever is open (the state check would find it so too).
  bool collides = false;
};

// For states[0, count) (count <= kLanes, full joint vectors), what each leaves open at these
// paddings (CollisionWorld::padding_for). A state the lanes cannot place (joint values beyond
// their range) has everything open.
// self_proven: self pairs (slot_bit of their index) the caller has proven apart in every state.
void lanes_open(const CollisionWorld& world, LaneState& lanes, const JointVector* const* states,
                int count, double scene_padding, double self_padding, LaneOpen* open,
                SlotMask self_proven = 0);
// lanes_open in two parts, so that a caller can stop at a witness before proving self pairs:
// the scene (open[].scene and .collides; false where the states cannot be placed, everything
// then open), then the self pairs of the same states (open[].self), only after a true.
// stop_at_collision: return at the first slot where a witness proves some lane colliding; the
// other lanes' and slots' open bits are then incomplete (a motion check needs one blocked state).
// scene_hints (null: none): a state check's CollisionState::scene_hull_hint (not empty). A pair
// whose cover touches an obstacle in a lane without a witness inside is then proven apart there
// where the hulls clear the padding along the pair's kept axis, as the state check would prove it
// next (slot_near_scene): in the cage's motion checks that axis proved 84% of the pairs the lanes
// left open. Not where the covers decide (CheckOptions::covers_decide): there a touching cover
// collides.
bool lanes_open_scene(const CollisionWorld& world, LaneState& lanes,
                      const JointVector* const* states, int count, double scene_padding,
                      LaneOpen* open, bool stop_at_collision = false,
                      const HullHint* scene_hints = nullptr);
void lanes_open_self(const CollisionWorld& world, LaneState& lanes,
                     const JointVector* const* states, int count, double self_padding,
                     LaneOpen* open, SlotMask self_proven = 0);

}  // namespace kinetic
