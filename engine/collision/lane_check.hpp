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
#include <memory>
#include <vector>

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
bool lanes_open_scene(const CollisionWorld& world, LaneState& lanes,
                      const JointVector* const* states, int count, double scene_padding,
                      LaneOpen* open, bool stop_at_collision = false);
void lanes_open_self(const CollisionWorld& world, LaneState& lanes,
                     const JointVector* const* states, int count, double self_padding,
                     LaneOpen* open, SlotMask self_proven = 0);

}  // namespace kinetic
