#include "engine/collision/acm_generator.hpp"

#include <atomic>
#include <chrono>
#include <random>
#include <sstream>
#include <thread>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"

namespace kinetic {

const char* to_string(DisableReason reason) {
  switch (reason) {
    case DisableReason::Adjacent:
      return "adjacent";
    case DisableReason::Default:
      return "default";
    case DisableReason::Always:
      return "always";
    case DisableReason::Never:
      return "never";
  }
  return "never";
}

AcmGeneratorResult generate_allowed_collisions(RobotModelPtr model,
                                               const AcmGeneratorOptions& options) {
  if (options.samples < 1)
    throw Error(ErrorCode::InvalidValue, "ACM generator: samples must be >= 1");
  // Exact answers only: a margin would mark near-misses as collisions.
  CollisionChecker base(model, {options.resolution, 0.0});
  const auto& links = model->links();
  AcmGeneratorResult result;
  result.samples = options.samples;

  std::vector<std::pair<int, int>> pairs;
  for (const auto& [a, b] : adjacent_link_pairs(*model))
    result.disabled.push_back({links[a].name, links[b].name, DisableReason::Adjacent});
  std::vector<std::vector<bool>> adjacent(links.size(), std::vector<bool>(links.size(), false));
  for (const auto& [a, b] : adjacent_link_pairs(*model)) adjacent[a][b] = adjacent[b][a] = true;

  base.update(model->zero_configuration());
  for (int a = 0; a < base.robot_body_count(); ++a)
    for (int b = a + 1; b < base.robot_body_count(); ++b) {
      if (base.body(a).empty() || base.body(b).empty() || adjacent[a][b]) continue;
      if (base.pair_in_collision(a, b))
        result.disabled.push_back({links[a].name, links[b].name, DisableReason::Default});
      else
        pairs.emplace_back(a, b);
    }

  // Samples drawn up front from one generator: the result does not depend on the thread count.
  std::mt19937_64 rng(options.seed);
  const JointVector lower = model->lower_limits(), upper = model->upper_limits();
  std::vector<JointVector> samples(options.samples);
  for (auto& q : samples) {
    q.resize(model->dof());
    for (int i = 0; i < model->dof(); ++i)
      q[i] = std::uniform_real_distribution<double>(lower[i], upper[i])(rng);
  }

  const unsigned threads =
      std::max(1u, options.threads ? options.threads : std::thread::hardware_concurrency());
  std::vector<std::vector<int>> counts(threads, std::vector<int>(pairs.size(), 0));
  std::atomic<int> done{0};
  std::atomic<bool> cancelled{false};
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      CollisionChecker checker(base);  // one checker per thread
      for (int s = static_cast<int>(t); s < options.samples && !cancelled;
           s += static_cast<int>(threads)) {
        checker.update(samples[s]);
        for (std::size_t p = 0; p < pairs.size(); ++p)
          if (checker.pair_in_collision(pairs[p].first, pairs[p].second)) ++counts[t][p];
        ++done;
      }
    });
  while (done < options.samples && !cancelled) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (options.progress && !options.progress(done, options.samples)) cancelled = true;
  }
  for (auto& w : workers) w.join();
  if (cancelled) throw Error(ErrorCode::Cancelled, "ACM generation cancelled");
  if (options.progress) options.progress(options.samples, options.samples);

  for (std::size_t p = 0; p < pairs.size(); ++p) {
    int total = 0;
    for (const auto& c : counts) total += c[p];
    const auto& [a, b] = pairs[p];
    if (total == 0)
      result.disabled.push_back({links[a].name, links[b].name, DisableReason::Never});
    else if (total == options.samples)
      result.disabled.push_back({links[a].name, links[b].name, DisableReason::Always});
    else
      result.enabled.emplace_back(links[a].name, links[b].name);
  }
  return result;
}

std::string skip_pairs_toml(const AcmGeneratorResult& result, double padding) {
  std::ostringstream out;
  out << "[collision]\npadding = " << padding << "\n";
  out << "# generated from " << result.samples << " random configurations\n";
  out << "skip_pairs = [\n";
  for (const auto& pair : result.disabled)
    out << "  [\"" << pair.link1 << "\", \"" << pair.link2 << "\"],  # " << to_string(pair.reason)
        << "\n";
  out << "]\n";
  return out.str();
}

}  // namespace kinetic
