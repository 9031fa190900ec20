#pragma once
// Dynamic-domain sampling (Yershova et al. 2005, as VAMP's RRT-Connect runs it): a node whose
// step was blocked stops drawing targets from far away. Each node's domain is unbounded until a
// step from it is blocked, then a radius that shrinks a little with every further block, down to
// a floor, and grows a little with every node grown from it. A target outside its nearest node's
// domain is turned away before any check: most of a node's far targets behind a shelf board or a
// cage's bar would be blocked steps, each a state check.
#include <cstddef>
#include <vector>

namespace kinetic {

class DynamicDomain {
 public:
  // radius: the domain a node gets at its first blocked step; floor: the least it shrinks to.
  DynamicDomain(double radius, double floor);

  // Whether a target `distance` from `node` of tree `tree` (0 or 1) lies within its domain.
  bool admits(int tree, int node, double distance) const;
  // A node was added to `tree` (roots too); `parent` (-1 for a root) grew it: its domain widens.
  void added(int tree, int node, int parent);
  // A step from `node` of `tree` was blocked: its domain narrows.
  void blocked(int tree, int node);

  double radius(int tree, int node) const;  // +inf while unbounded

 private:
  double& entry(int tree, int node);

  double first_radius_, floor_;
  std::vector<double> radii_[2];  // per tree, per node
};

}  // namespace kinetic
