// Bidirectional KPIECE (Şucan & Kavraki 2009; OMPL's BKPIECE1): the trees are projected onto a
// coarse grid over the first three joints (the ones that move the arm most). Expansion prefers
// cells on the frontier of the explored region that have been tried least, then a random node of
// the cell grows towards a random state near it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/planning/sampling/bidirectional_search.hpp"

namespace kinetic {

namespace {
constexpr int kCellsPerAxis = 12;

class FrontierCells : public GrowthStrategy {
 public:
  FrontierCells(const PlanningSpace& space, double range)
      : space_(space), range_(range), axes_(std::min(3, space.dof())) {}

  bool propose(const NodeTree& tree, int tree_id, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    auto& grid = grids_[tree_id];
    if (grid.cells.empty()) return false;
    // Score: frontier cells count four times; each past selection and each node halves interest.
    double total = 0.0;
    scores_.resize(grid.cells.size());
    for (std::size_t i = 0; i < grid.cells.size(); ++i) {
      const Cell& c = grid.cells[i];
      const double frontier = occupied_neighbours(grid, c.key) < 2 * axes_ ? 4.0 : 1.0;
      scores_[i] = frontier / ((1.0 + c.selections) * std::sqrt(1.0 + c.nodes.size()));
      total += scores_[i];
    }
    double pick = std::uniform_real_distribution<double>(0.0, total)(rng);
    std::size_t chosen = grid.cells.size() - 1;
    for (std::size_t i = 0; i < scores_.size(); ++i) {
      pick -= scores_[i];
      if (pick <= 0.0) {
        chosen = i;
        break;
      }
    }
    Cell& cell = grid.cells[chosen];
    ++cell.selections;
    node = cell.nodes[std::uniform_int_distribution<std::size_t>(0, cell.nodes.size() - 1)(rng)];
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    target = tree.state(node);
    const double half = range_ / std::sqrt(static_cast<double>(space_.dof()));
    for (int j = 0; j < space_.dof(); ++j)
      target[j] = std::clamp(target[j] + half * unit(rng), space_.lower()[j], space_.upper()[j]);
    return true;
  }

  void added(const NodeTree& tree, int tree_id, int node) override {
    auto& grid = grids_[tree_id];
    const std::int64_t key = key_of(tree.state(node));
    auto [it, inserted] = grid.index.try_emplace(key, static_cast<int>(grid.cells.size()));
    if (inserted) grid.cells.push_back({key, {}, 0});
    grid.cells[it->second].nodes.push_back(node);
  }

 private:
  struct Cell {
    std::int64_t key;
    std::vector<int> nodes;
    int selections;
  };
  struct Grid {
    std::vector<Cell> cells;
    std::unordered_map<std::int64_t, int> index;
  };

  int coordinate(const Eigen::Ref<const Eigen::VectorXd>& q, int axis) const {
    const double span = space_.upper()[axis] - space_.lower()[axis];
    const int c = static_cast<int>((q[axis] - space_.lower()[axis]) / span * kCellsPerAxis);
    return std::clamp(c, 0, kCellsPerAxis - 1);
  }
  std::int64_t key_of(const Eigen::Ref<const Eigen::VectorXd>& q) const {
    std::int64_t key = 0;
    for (int a = 0; a < axes_; ++a) key = key * (kCellsPerAxis + 2) + coordinate(q, a) + 1;
    return key;
  }
  int occupied_neighbours(const Grid& grid, std::int64_t key) const {
    int count = 0;
    std::int64_t stride = 1;
    for (int a = 0; a < axes_; ++a) {
      count += grid.index.count(key + stride) + grid.index.count(key - stride);
      stride *= kCellsPerAxis + 2;
    }
    return count;
  }

  const PlanningSpace& space_;
  double range_;
  int axes_;
  Grid grids_[2];
  std::vector<double> scores_;
};
}  // namespace

SearchOutcome plan_kpiece(PlanningSpace& space, const JointVector& start,
                          const std::vector<JointVector>& goals, const PlannerOptions& options,
                          SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  FrontierCells strategy(space, extension_range(space, options));
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
