#pragma once
// Allowed-collision-matrix generator, like MoveIt's Setup Assistant: samples random
// configurations and marks link pairs that never collide, always collide, or collide at the
// default pose (plus adjacent pairs). Runs on all cores; save_generated_skip_pairs()
// (acm_config_file.hpp) writes the result into a robot's kinetic.toml as [collision] skip_pairs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/geometry/sphere_tree.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

enum class DisableReason { Adjacent, Default, Always, Never };
const char* to_string(DisableReason reason);

struct AcmGeneratorOptions {
  int samples = 10000;
  unsigned threads = 0;    // 0 = all cores
  std::uint64_t seed = 1;  // same seed, same result (independent of the thread count)
  SphereResolution resolution = SphereResolution::Default;
  // Called from the calling thread with (done, total) about every 50 ms; return false to cancel
  // (then Error(Cancelled) is thrown).
  std::function<bool(int done, int total)> progress;
};

struct DisabledLinkPair {
  std::string link1, link2;
  DisableReason reason = DisableReason::Never;
};

struct AcmGeneratorResult {
  std::vector<DisabledLinkPair> disabled;
  std::vector<std::pair<std::string, std::string>> enabled;  // pairs that must be checked
  int samples = 0;
};

// Considers only links with collision geometry. Pairs are ordered by link index.
AcmGeneratorResult generate_allowed_collisions(RobotModelPtr model,
                                               const AcmGeneratorOptions& options = {});

// "[collision]\nskip_pairs = [ [\"a\", \"b\"], ... ]" with the reason as a comment per pair.
std::string skip_pairs_toml(const AcmGeneratorResult& result, double padding = 0.0);

}  // namespace kinetic
