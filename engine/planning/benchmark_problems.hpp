#pragma once
// A folder of planning problems as MotionBenchMaker lays them out (and MoveIt's benchmarks can
// export): DIR/<scene>/sceneNNNN.yaml + requestNNNN.yaml, a MoveIt planning scene and motion plan
// request per problem number; or the pairs directly in DIR. Problems are found, not read: the
// runner reads each when it runs it.
#include <string>
#include <vector>

namespace kinetic {

struct BenchmarkProblem {
  std::string scene;  // the folder's name, without a trailing "_ROBOT" ("box_panda" -> "box")
  int index = 0;      // NNNN
  std::string scene_file, request_file;
};

// Sorted by scene, then index; at most `per_scene` problems of each scene (0: all). Throws
// Error(FileNotFound) for a folder that is absent, Error(InvalidValue) naming the file for a
// request without its scene (or the reverse), and for a folder holding no problems at all.
std::vector<BenchmarkProblem> find_benchmark_problems(const std::string& dir,
                                                      const std::string& robot_name,
                                                      int per_scene = 0);

}  // namespace kinetic
