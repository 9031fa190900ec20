// Collision checking side by side: ours (sphere trees + FCL only where needed) and plain FCL on
// the mesh BVHs for every link pair (what MoveIt does). Both compute FK the same way; the peer
// then tests every pair whose world AABBs overlap with the exact narrow phase.
#include <benchmark/benchmark.h>

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

bool quick() {
  return std::getenv("KINETIC_BENCH_QUICK") != nullptr;
}

RobotModelPtr panda() {
  static RobotModelPtr model = [] {
    const std::string root = kinetic::test::example_robot_data_dir() + "/robots/panda_description/";
    LoadOptions options;
    options.package_paths = {kinetic::test::shared_robots_dir()};
    options.require_meshes = true;
    return load_robot_file(root + "urdf/panda.urdf", root + "srdf/panda.srdf", "", options);
  }();
  return model;
}

// Obstacles around the Panda that leave its default pose free.
PlanningScene scene_around(const RobotModelPtr& model, int count) {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  CollisionChecker checker(model, {SphereResolution::Default, 0.0});
  const JointVector ready = model->named_pose("default");
  PlanningScene scene;
  for (int i = 0; static_cast<int>(scene.obstacles().size()) < count; ++i) {
    const double angle = 2 * M_PI * u(rng), radius = 0.25 + 0.75 * u(rng);
    const Pose pose =
        pose_from_xyz_rpy({radius * std::cos(angle), radius * std::sin(angle), 0.05 + 1.0 * u(rng)},
                          {3 * u(rng), 3 * u(rng), 3 * u(rng)});
    PlanningScene trial = scene;
    const std::string name = "obstacle_" + std::to_string(i);
    switch (i % 3) {
      case 0:
        trial.add_obstacle(
            name, Shape::box({0.03 + 0.08 * u(rng), 0.03 + 0.08 * u(rng), 0.03 + 0.08 * u(rng)}),
            pose);
        break;
      case 1:
        trial.add_obstacle(name, Shape::cylinder(0.02 + 0.03 * u(rng), 0.05 + 0.15 * u(rng)), pose);
        break;
      default:
        trial.add_obstacle(name, Shape::sphere(0.02 + 0.04 * u(rng)), pose);
        break;
    }
    checker.set_scene(trial);
    if (!checker.in_collision(ready, {.padding = 0.0, .self = false, .scene = true})) scene = trial;
  }
  return scene;
}

// Plain FCL over the same bodies and pairs. As MoveIt's FCL plugin does, the collision objects
// are made once (FCL's constructor computes a mesh's local AABB over every vertex) and each query
// only moves them and recomputes their world AABBs.
class PeerFcl {
 public:
  explicit PeerFcl(CollisionChecker& checker) : c_(checker) {
    for (int i = 0; i < c_.body_count(); ++i) {
      objects_.emplace_back();
      for (const auto& part : c_.body(i).parts)
        objects_.back().push_back(std::make_unique<fcl::CollisionObjectd>(part.fcl_geometry()));
    }
  }

  bool in_collision(const JointVector& q, bool self, bool scene) {
    c_.update(q);  // FK + body poses: the same work on both sides
    const int n = c_.body_count();
    for (int i = 0; i < n; ++i)
      for (std::size_t k = 0; k < objects_[i].size(); ++k) {
        objects_[i][k]->setTransform(c_.body_pose(i) * c_.body(i).parts[k].pose);
        objects_[i][k]->computeAABB();
      }
    if (self)
      for (const auto& [a, b] : c_.self_pairs())
        if (collide(a, b)) return true;
    if (scene)
      for (int a = 0; a < c_.robot_body_count(); ++a)
        for (int o = c_.robot_body_count(); o < n; ++o)
          if (!c_.body(a).empty() && collide(a, o)) return true;
    return false;
  }

  double min_distance(const JointVector& q) {
    c_.update(q);
    double best = std::numeric_limits<double>::infinity();
    auto measure = [&](int a, int b) {
      for (const auto& pa : c_.body(a).parts)
        for (const auto& pb : c_.body(b).parts) {
          fcl::DistanceRequestd request;
          request.enable_nearest_points = true;
          fcl::DistanceResultd result;
          fcl::distance(pa.fcl_geometry().get(), c_.body_pose(a) * pa.pose, pb.fcl_geometry().get(),
                        c_.body_pose(b) * pb.pose, request, result);
          best = std::min(best, result.min_distance);
        }
    };
    for (const auto& [a, b] : c_.self_pairs()) measure(a, b);
    for (int a = 0; a < c_.robot_body_count(); ++a)
      for (int o = c_.robot_body_count(); o < c_.body_count(); ++o)
        if (!c_.body(a).empty()) measure(a, o);
    return best;
  }

 private:
  bool collide(int a, int b) {
    for (const auto& oa : objects_[a])
      for (const auto& ob : objects_[b]) {
        if (!oa->getAABB().overlap(ob->getAABB())) continue;
        fcl::CollisionRequestd request;
        fcl::CollisionResultd result;
        fcl::collide(oa.get(), ob.get(), request, result);
        if (result.isCollision()) return true;
      }
    return false;
  }
  CollisionChecker& c_;
  std::vector<std::vector<std::unique_ptr<fcl::CollisionObjectd>>> objects_;  // per body, per part
};

struct Case {
  std::unique_ptr<CollisionChecker> ours, peer_checker;
  std::unique_ptr<PeerFcl> peer;
  JointVector q;
  double agreement = 0.0;  // fraction of random configurations with the same verdict
};

Case make_case(int obstacles, bool self, bool scene) {
  auto model = panda();
  Case c;
  c.ours = std::make_unique<CollisionChecker>(
      model, CollisionCheckerOptions{SphereResolution::Default, 0.0});
  c.peer_checker = std::make_unique<CollisionChecker>(model);
  const PlanningScene world = scene_around(model, obstacles);
  c.ours->set_scene(world);
  c.peer_checker->set_scene(world);
  c.peer = std::make_unique<PeerFcl>(*c.peer_checker);
  c.q = model->named_pose("default");
  std::mt19937_64 rng(9);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  const int samples = quick() ? 20 : 500;
  int same = 0;
  for (int i = 0; i < samples; ++i) {
    JointVector q(model->dof());
    for (int j = 0; j < model->dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    same += c.ours->in_collision(q, {.padding = 0.0, .self = self, .scene = scene}) ==
            c.peer->in_collision(q, self, scene);
  }
  c.agreement = static_cast<double>(same) / samples;
  if (c.ours->in_collision(c.q, {.padding = 0.0, .self = self, .scene = scene}) !=
      c.peer->in_collision(c.q, self, scene))
    c.agreement = -1.0;  // the benchmarked configuration itself disagrees
  return c;
}

void run_ours(benchmark::State& state, int obstacles, bool self, bool scene) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(obstacles, self, scene);
  const CheckOptions options{.padding = 0.0, .self = self, .scene = scene};
  for (auto _ : state) benchmark::DoNotOptimize(c.ours->in_collision(c.q, options));
  state.counters["verdict_agreement"] = c.agreement;
  state.counters["colliding"] = c.ours->in_collision(c.q, options);
}

void run_peer(benchmark::State& state, int obstacles, bool self, bool scene) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(obstacles, self, scene);
  for (auto _ : state) benchmark::DoNotOptimize(c.peer->in_collision(c.q, self, scene));
  state.counters["verdict_agreement"] = c.agreement;
  state.counters["colliding"] = c.peer->in_collision(c.q, self, scene);
}

void BM_Ours_self_free(benchmark::State& s) {
  run_ours(s, 0, true, false);
}
void BM_Peer_self_free(benchmark::State& s) {
  run_peer(s, 0, true, false);
}
void BM_Ours_scene_10(benchmark::State& s) {
  run_ours(s, 10, false, true);
}
void BM_Peer_scene_10(benchmark::State& s) {
  run_peer(s, 10, false, true);
}
void BM_Ours_scene_100(benchmark::State& s) {
  run_ours(s, 100, false, true);
}
void BM_Peer_scene_100(benchmark::State& s) {
  run_peer(s, 100, false, true);
}

void BM_Ours_min_distance(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(10, true, true);
  DistanceResult d;
  for (auto _ : state) benchmark::DoNotOptimize(d = c.ours->min_distance(c.q));
  const double peer = c.peer->min_distance(c.q);
  state.counters["distance_mm"] = 1000 * d.distance;
  state.counters["distance_error_um"] = 1e6 * std::abs(d.distance - peer);
}

void BM_Peer_min_distance(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(10, true, true);
  double d = 0;
  for (auto _ : state) benchmark::DoNotOptimize(d = c.peer->min_distance(c.q));
  state.counters["distance_mm"] = 1000 * d;
}

// The same query over random configurations (a third of them in collision): the benchmark
// pose above has every pair 10 cm apart, where a live distance readout or a servo loop also
// meets links a few centimetres apart, facing each other, or crossing.
std::vector<JointVector> random_configurations(int count) {
  const auto model = panda();
  std::mt19937_64 rng(5);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  std::vector<JointVector> out;
  for (int i = 0; i < count; ++i) {
    JointVector q(model->dof());
    for (int j = 0; j < model->dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    out.push_back(q);
  }
  return out;
}

void BM_Ours_min_distance_random(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(10, true, true);
  const std::vector<JointVector> qs = random_configurations(quick() ? 5 : 50);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(c.ours->min_distance(qs[i++ % qs.size()]));
  double worst_error = 0.0;
  for (const JointVector& q : qs)
    worst_error = std::max(worst_error, std::abs(c.ours->min_distance(q).distance -
                                                 std::max(c.peer->min_distance(q), 0.0)));
  state.counters["worst_distance_error_um"] = 1e6 * worst_error;
}

void BM_Peer_min_distance_random(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  Case c = make_case(10, true, true);
  const std::vector<JointVector> qs = random_configurations(quick() ? 5 : 50);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(c.peer->min_distance(qs[i++ % qs.size()]));
}

}  // namespace

// Self-colliding states of the Fanuc (MoveIt's fanuc_moveit_config): its links fold into each
// other, and a search near such folds confirms a self collision at nearly every blocked step.
// Random states whose self check collides, one per iteration in turn.
struct FanucFolds {
  std::unique_ptr<CollisionChecker> ours, peer_checker;
  std::unique_ptr<PeerFcl> peer;
  std::vector<JointVector> states;
};

FanucFolds& fanuc_folds() {
  static FanucFolds folds = [] {
    FanucFolds f;
    LoadOptions options;
    options.package_paths = {kinetic::test::shared_robots_dir()};
    const RobotModelPtr model = load_robot_file(
        kinetic::test::shared_robots_dir() + "/moveit_resources/fanuc_moveit_config", "", "",
        options);
    f.ours = std::make_unique<CollisionChecker>(
        model, CollisionCheckerOptions{SphereResolution::Default, 0.0});
    f.peer_checker = std::make_unique<CollisionChecker>(model);
    f.peer = std::make_unique<PeerFcl>(*f.peer_checker);
    std::mt19937_64 rng(3);
    const JointVector lo = model->lower_limits(), hi = model->upper_limits();
    while (f.states.size() < (quick() ? 4u : 64u)) {
      JointVector q(model->dof());
      for (int j = 0; j < model->dof(); ++j)
        q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      if (f.peer->in_collision(q, true, false)) f.states.push_back(q);
    }
    return f;
  }();
  return folds;
}

void BM_Ours_fanuc_self_colliding(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  FanucFolds& f = fanuc_folds();
  const CheckOptions options{.padding = 0.0, .self = true, .scene = false};
  int agree = 0;
  for (const JointVector& q : f.states) agree += f.ours->in_collision(q, options);
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(f.ours->in_collision(f.states[i++ % f.states.size()], options));
  state.counters["verdict_agreement"] = static_cast<double>(agree) / f.states.size();
}

void BM_Peer_fanuc_self_colliding(benchmark::State& state) {
  if (!kinetic::test::shared_robots_available()) return state.SkipWithError("shared robots absent");
  FanucFolds& f = fanuc_folds();
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(f.peer->in_collision(f.states[i++ % f.states.size()], true, false));
  state.counters["verdict_agreement"] = 1.0;
}

BENCHMARK(BM_Ours_self_free)->Name("Ours/panda_self_free");
BENCHMARK(BM_Peer_self_free)->Name("PeerFCL/panda_self_free");
BENCHMARK(BM_Ours_scene_10)->Name("Ours/panda_scene_10");
BENCHMARK(BM_Peer_scene_10)->Name("PeerFCL/panda_scene_10");
BENCHMARK(BM_Ours_scene_100)->Name("Ours/panda_scene_100");
BENCHMARK(BM_Peer_scene_100)->Name("PeerFCL/panda_scene_100");
BENCHMARK(BM_Ours_min_distance)->Name("Ours/panda_min_distance");
BENCHMARK(BM_Peer_min_distance)->Name("PeerFCL/panda_min_distance");
BENCHMARK(BM_Ours_min_distance_random)->Name("Ours/panda_min_distance_random");
BENCHMARK(BM_Peer_min_distance_random)->Name("PeerFCL/panda_min_distance_random");

BENCHMARK(BM_Ours_fanuc_self_colliding)->Name("Ours/fanuc_self_colliding");
BENCHMARK(BM_Peer_fanuc_self_colliding)->Name("PeerFCL/fanuc_self_colliding");

BENCHMARK_MAIN();
