#include "engine/collision/self_pair_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numbers>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_world.hpp"

namespace kinetic {
namespace {

// m: half a cell's width times the pair's speed, summed over the variables. A cell's bound is its
// centre's distance less up to this, so it proves a pair only this much farther apart than the
// padding; finer cells cost more measurements (a plan on the benchmark's Panda fills a few
// thousand) and more lookups per segment. 3 mm planned MotionBenchMaker 7% faster than 1.5 mm
// (docs/design-notes.md); the wrist pairs still clear by it.
constexpr double kCellLoss = 0.003;
// Cells per table at most (4 bytes each): coarser cells beyond.
constexpr std::size_t kMaxCells = std::size_t{1} << 20;
// m: distances are measured up to this (GJK stops there): no padding or proof asks for more.
constexpr double kDistanceCap = 0.5;
// A variable whose closing speed is below this (m per rad or m per m) does not move the pair.
constexpr double kStill = 1e-12;
constexpr double kTurn = 2.0 * std::numbers::pi;
// Fine cells per coarse cell along each axis.
constexpr int kCoarseRatio = 4;
// States looked up along a segment at most (a lookup each, a measurement each for cells not yet
// measured).
constexpr int kMaxSteps = 4096;
// measure_ahead: a coarse level of at most this many cells is measured whole (about 1.5
// microseconds a cell: the Panda's four wrist tables, 16,000 cells, in 25 ms), so that searches
// find its bounds ready. Measured as first asked, they were 5% of MotionBenchMaker's planning
// time (11,000 cells over its 700 problems), most of it in the first problems of each run.
constexpr std::size_t kMeasuredAheadCells = 16384;

// Tables in use, so that every world of the same robot shares its pair's cells.
struct Registry {
  struct Entry {
    std::weak_ptr<const RobotModel> model;
    int link_a, link_b;
    const CollisionBody *body_a, *body_b;  // kept alive by the table
    std::weak_ptr<const SelfPairTable> table;
  };
  std::mutex mutex;
  std::vector<Entry> entries;
};
Registry& registry() {
  static Registry r;
  return r;
}

// The axes of self pair k, or none where the pair does not qualify.
std::vector<SelfPairTable::Axis> axes_of(const CollisionWorld& world, std::size_t k) {
  const RobotModel& model = *world.model;
  const auto dof = static_cast<std::size_t>(model.dof());
  const double* speed = world.self_speed_table.data() + k * dof;
  std::vector<SelfPairTable::Axis> axes;
  for (std::size_t v = 0; v < dof; ++v) {
    if (!(speed[v] > kStill)) continue;
    if (axes.size() == 2 || !std::isfinite(speed[v])) return {};
    const Joint& joint = model.variable_joint(static_cast<int>(v));
    SelfPairTable::Axis axis;
    axis.variable = static_cast<int>(v);
    axis.speed = speed[v];
    const bool turns = joint.type == JointType::Revolute || joint.type == JointType::Continuous;
    const double span = joint.limits.upper - joint.limits.lower;
    if (turns && (!joint.limits.has_position_limits || !(span < kTurn))) {
      axis.periodic = true;
      axis.lower = -std::numbers::pi;
      axis.span = kTurn;
    } else if ((turns || joint.type == JointType::Prismatic) && joint.limits.has_position_limits &&
               std::isfinite(span) && span >= 0.0) {
      axis.lower = joint.limits.lower;
      axis.span = span;
    } else {
      return {};
    }
    axes.push_back(axis);
  }
  if (axes.empty()) return {};
  // Each axis's share of the loss, split evenly: width = 2 * loss / (axes * speed).
  std::size_t total = 1;
  for (auto& axis : axes) {
    const double width = 2.0 * kCellLoss / (static_cast<double>(axes.size()) * axis.speed);
    axis.fine_cells = std::max(1, static_cast<int>(std::ceil(axis.span / width)));
    total *= static_cast<std::size_t>(axis.fine_cells);
  }
  if (total > kMaxCells) {
    const double shrink = std::pow(static_cast<double>(kMaxCells) / static_cast<double>(total),
                                   1.0 / static_cast<double>(axes.size()));
    for (auto& axis : axes)
      axis.fine_cells = std::max(1, static_cast<int>(std::floor(axis.fine_cells * shrink)));
  }
  return axes;
}

// Where value x falls on an axis of `cells` cells of `width`: the cell, and x's distance from the
// cell's centre (beyond the table's ends, the real distance).
// Products with reciprocals rather than divisions: where rounding puts x in the cell beside its
// own, the offset is still x's true distance from the centre of the cell used, and any cell's
// centre gives a valid bound (its distance less the speed times that offset).
void locate(const SelfPairTable::Axis& axis, int cells, double width, double inverse_width,
            double x, int& cell, double& offset) {
  constexpr double kInverseTurn = 1.0 / kTurn;
  double u = x - axis.lower;
  if (axis.periodic) u -= kTurn * std::floor(u * kInverseTurn);
  cell = std::clamp(static_cast<int>(std::floor(u * inverse_width)), 0, cells - 1);
  offset = std::abs(u - (cell + 0.5) * width);
}

}  // namespace

SelfPairTable::SelfPairTable(std::shared_ptr<const ForwardKinematics> fk, JointVector reference,
                             int link_a, int link_b, std::shared_ptr<const CollisionBody> body_a,
                             std::shared_ptr<const CollisionBody> body_b, std::vector<Axis> axes)
    : fk_(std::move(fk)),
      reference_(std::move(reference)),
      link_a_(link_a),
      link_b_(link_b),
      body_a_(std::move(body_a)),
      body_b_(std::move(body_b)),
      axes_(std::move(axes)) {
  for (int l = 0; l < 2; ++l) {
    Level& level = levels_[l];
    std::size_t tiles = 1;
    for (std::size_t i = 0; i < axes_.size(); ++i) {
      const int fine = axes_[i].fine_cells;
      level.cells[i] = l == 1 ? fine : std::max(1, (fine + kCoarseRatio - 1) / kCoarseRatio);
      level.width[i] = axes_[i].span / level.cells[i];
      level.inverse_width[i] = 1.0 / level.width[i];
      level.count *= static_cast<std::size_t>(level.cells[i]);
      const int most = axes_.size() == 1 ? 1024 : 32;
      while ((1 << level.tile_shift[i]) < std::min(level.cells[i], most)) ++level.tile_shift[i];
      level.tile_cells[i] = 1 << level.tile_shift[i];
      level.tiles[i] = (level.cells[i] + level.tile_cells[i] - 1) / level.tile_cells[i];
      tiles *= static_cast<std::size_t>(level.tiles[i]);
    }
    level.tile = std::make_unique<std::atomic<std::atomic<float>*>[]>(tiles);
    for (std::size_t t = 0; t < tiles; ++t) level.tile[t].store(nullptr, std::memory_order_relaxed);
  }
}

SelfPairTable::Level::~Level() {
  if (!tile) return;
  for (std::size_t t = 0; t < static_cast<std::size_t>(tiles[0]) * tiles[1]; ++t)
    delete[] tile[t].load(std::memory_order_relaxed);
}

std::atomic<float>& SelfPairTable::Level::value(const int* cell) const {
  const std::size_t t = static_cast<std::size_t>(cell[0] >> tile_shift[0]) * tiles[1] +
                        static_cast<std::size_t>(cell[1] >> tile_shift[1]);
  std::atomic<float>* values = tile[t].load(std::memory_order_acquire);
  if (!values) {  // first touch: a tile of NaN; a thread that loses the race frees its own
    const std::size_t size = static_cast<std::size_t>(tile_cells[0]) * tile_cells[1];
    auto* fresh = new std::atomic<float>[size];
    for (std::size_t i = 0; i < size; ++i)
      fresh[i].store(std::numeric_limits<float>::quiet_NaN(), std::memory_order_relaxed);
    if (tile[t].compare_exchange_strong(values, fresh, std::memory_order_acq_rel))
      values = fresh;
    else
      delete[] fresh;
  }
  return values[(static_cast<std::size_t>(cell[0] & (tile_cells[0] - 1)) << tile_shift[1]) +
                static_cast<std::size_t>(cell[1] & (tile_cells[1] - 1))];
}

std::size_t SelfPairTable::measured_cells() const {
  std::size_t measured = 0;
  for (const Level& level : levels_) {
    const std::size_t size = static_cast<std::size_t>(level.tile_cells[0]) * level.tile_cells[1];
    for (std::size_t t = 0; t < static_cast<std::size_t>(level.tiles[0]) * level.tiles[1]; ++t)
      if (const std::atomic<float>* values = level.tile[t].load(std::memory_order_acquire))
        for (std::size_t i = 0; i < size; ++i)
          measured += std::isnan(values[i].load(std::memory_order_relaxed)) ? 0 : 1;
  }
  return measured;
}

std::size_t SelfPairTable::allocated_cells() const {
  std::size_t allocated = 0;
  for (const Level& level : levels_) {
    const std::size_t size = static_cast<std::size_t>(level.tile_cells[0]) * level.tile_cells[1];
    for (std::size_t t = 0; t < static_cast<std::size_t>(level.tiles[0]) * level.tiles[1]; ++t)
      allocated += level.tile[t].load(std::memory_order_acquire) ? size : 0;
  }
  return allocated;
}

std::shared_ptr<const SelfPairTable> SelfPairTable::of_pair(const CollisionWorld& world,
                                                            std::size_t k) {
  const auto [a, b] = world.self_pairs[k];
  // Robot links only (an attached object's pose is the world's own), with a hull to measure.
  if (a >= world.attached_begin || b >= world.attached_begin) return nullptr;
  const auto& body_a = world.bodies[static_cast<std::size_t>(a)].body;
  const auto& body_b = world.bodies[static_cast<std::size_t>(b)].body;
  if (!hull_proof_applies(*body_a, *body_b)) return nullptr;
  std::vector<Axis> axes = axes_of(world, k);
  if (axes.empty()) return nullptr;
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  std::erase_if(r.entries, [](const Registry::Entry& e) { return e.table.expired(); });
  for (const Registry::Entry& e : r.entries)
    if (e.link_a == a && e.link_b == b && e.body_a == body_a.get() && e.body_b == body_b.get() &&
        e.model.lock() == world.model)
      if (auto table = e.table.lock()) return table;
  auto table = std::make_shared<const SelfPairTable>(world.fk, world.model->zero_configuration(), a,
                                                     b, body_a, body_b, std::move(axes));
  r.entries.push_back({world.model, a, b, body_a.get(), body_b.get(), table});
  return table;
}

double SelfPairTable::centre_distance(const Level& level, const int* cell) const {
  std::atomic<float>& slot = level.value(cell);
  const float known = slot.load(std::memory_order_relaxed);
  if (!std::isnan(known)) return known;
  JointVector q = reference_;
  for (std::size_t i = 0; i < axes_.size(); ++i)
    q[axes_[i].variable] = axes_[i].lower + (cell[i] + 0.5) * level.width[i];
  const double d = hull_distance_bound(*body_a_, fk_->link_pose(q, link_a_), *body_b_,
                                       fk_->link_pose(q, link_b_), kDistanceCap);
  // Rounded down, so the stored value never exceeds the bound measured.
  auto stored = static_cast<float>(d);
  if (static_cast<double>(stored) > d) stored = std::nextafter(stored, -1.0f);
  slot.store(stored, std::memory_order_relaxed);
  return stored;
}

void SelfPairTable::measure_ahead() const {
  std::call_once(measured_ahead_, [this] {
    if (levels_[0].count <= kMeasuredAheadCells) measure_coarse_level();
  });
}

void SelfPairTable::measure_coarse_level() const {
  const Level& level = levels_[0];
  int cell[2] = {0, 0};
  for (cell[0] = 0; cell[0] < level.cells[0]; ++cell[0])
    for (cell[1] = 0; cell[1] < level.cells[1]; ++cell[1]) centre_distance(level, cell);
}

double SelfPairTable::bound_near(const Level& level, const double* p) const {
  int cell[2] = {0, 0};
  double loss = 0.0;
  for (std::size_t i = 0; i < axes_.size(); ++i) {
    double offset = 0.0;
    locate(axes_[i], level.cells[i], level.width[i], level.inverse_width[i], p[i], cell[i], offset);
    loss += axes_[i].speed * offset;
  }
  return centre_distance(level, cell) - loss;
}

bool SelfPairTable::clear_at(const JointVector& q, double padding) const {
  double p[2] = {0.0, 0.0};
  for (std::size_t i = 0; i < axes_.size(); ++i) p[i] = q[axes_[i].variable];
  return bound_near(levels_[0], p) > padding || bound_near(levels_[1], p) > padding;
}

bool SelfPairTable::clear_along(const JointVector& q0, const JointVector& dq, double t0, double t1,
                                double padding) const {
  // Conservative advancement through the cells: a state's bound b says the pair keeps clear of
  // the padding for (b - padding) / rate on either side of it, rate being how fast the pair can
  // close per unit of t on this segment; the next state looked up is the first one that bound
  // does not cover. Far apart (most states) a lookup or two prove the whole segment, where fixed
  // pieces of half a cell took one lookup per piece; near, the steps shrink to what the cells'
  // bounds allow, the fine level's where the coarse one's fall short.
  double rate = 0.0;
  for (const Axis& axis : axes_) rate += axis.speed * std::abs(dq[axis.variable]);
  double p[2] = {0.0, 0.0};
  double t = t0;
  for (int step = 0; step < kMaxSteps; ++step) {
    for (std::size_t i = 0; i < axes_.size(); ++i)
      p[i] = q0[axes_[i].variable] + dq[axes_[i].variable] * t;
    double bound = bound_near(levels_[0], p);
    if (!(bound > padding)) bound = bound_near(levels_[1], p);
    if (!(bound > padding)) return false;
    if (!(rate > 0.0)) return true;  // the pair does not move along this segment
    t += (bound - padding) / rate;   // clear on [t, t + reach): the next state to look up
    if (t > t1) return true;
  }
  return false;  // thousands of steps: not worth it
}

}  // namespace kinetic
