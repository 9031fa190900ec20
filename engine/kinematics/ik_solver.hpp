#pragma once
// Common interface of every IK solver (analytic and numeric).
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

enum class NullSpaceObjective { None, JointCentering, Manipulability, MinimalDisplacement };

struct IkOptions {
  double position_tolerance = 1e-4;     // m (default 0.1 mm)
  double orientation_tolerance = 1e-3;  // rad (default 1 mrad)
  double timeout_ms = 5.0;              // numeric solvers: total budget incl. restarts
  int max_iterations = 200;             // numeric solvers: per attempt
  bool position_only = false;
  bool respect_limits = true;
  NullSpaceObjective objective = NullSpaceObjective::None;
  std::uint64_t random_seed = 0;  // restarts draw from this seed: reproducible results
  // false: IkResult::condition_number stays 0. It costs an SVD of the Jacobian, about three times
  // the solve itself when the seed is next to the answer (dense path IK, which does not need it).
  bool condition_number = true;
  // Polled by the numeric solvers between iterations: once it reads true, solve() throws
  // Error(Cancelled), so a caller can stop a long budget (Ctrl-C in a headless run) at once.
  const std::atomic<bool>* cancel = nullptr;
};

struct IkResult {
  bool converged = false;
  JointVector q;                   // chain order (size of the solver's chain dof)
  double position_error = 0.0;     // m
  double orientation_error = 0.0;  // rad
  int iterations = 0;
  double condition_number = 0.0;  // of the Jacobian at q (0 unless IkOptions::condition_number)
  std::vector<JointVector> solutions;  // analytic / sweep solvers: all valid solutions
  std::string message;                 // why it failed, when it failed
};

class IkSolver {
 public:
  virtual ~IkSolver() = default;
  virtual std::string name() const = 0;
  virtual int dof() const = 0;
  // target: pose of the chain tip (TCP) in the chain base frame; seed: chain order, size dof().
  virtual IkResult solve(const Pose& target, const JointVector& seed,
                         const IkOptions& options = {}) const = 0;
};

using IkSolverPtr = std::shared_ptr<const IkSolver>;

}  // namespace kinetic
