#include "engine/geometry/convex_hull.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace kinetic {

namespace {

// Qhull's messages (a flat input is an expected case here) go nowhere.
struct NullFile {
  FILE* file = std::fopen("/dev/null", "w");
  ~NullFile() {
    if (file != nullptr) std::fclose(file);
  }
};

ConvexHull unreduced(const std::vector<Vector3>& points) {
  return ConvexHull{points, {}, {}};
}

}  // namespace

ConvexHull convex_hull(const std::vector<Vector3>& points) {
  if (points.size() < 4 || points.size() > kMaxHullPoints) return unreduced(points);
  std::vector<coordT> coordinates;
  coordinates.reserve(points.size() * 3);
  for (const Vector3& p : points) coordinates.insert(coordinates.end(), {p.x(), p.y(), p.z()});

  NullFile sink;
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, sink.file);
  // Qt: triangulated facets, so every pair of a facet's vertices is a hull edge.
  std::string options = "qhull Qt";
  const int failed = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coordinates.data(), False,
                                  options.data(), nullptr, sink.file);
  ConvexHull hull;
  if (failed == 0) {
    std::vector<int> hull_index(points.size(), -1);
    vertexT* vertex = nullptr;
    vertexT** vertexp = nullptr;
    FORALLvertices {
      const int id = qh_pointid(qh, vertex->point);
      if (id < 0 || static_cast<std::size_t>(id) >= points.size() ||
          hull_index[static_cast<std::size_t>(id)] >= 0)
        continue;
      hull_index[static_cast<std::size_t>(id)] = static_cast<int>(hull.vertices.size());
      hull.vertices.push_back(points[static_cast<std::size_t>(id)]);
    }
    std::vector<std::vector<std::uint32_t>> adjacent(hull.vertices.size());
    facetT* facet = nullptr;
    FORALLfacets {
      std::vector<std::uint32_t> corners;
      FOREACHvertex_(facet->vertices) {
        const int id = qh_pointid(qh, vertex->point);
        if (id >= 0 && static_cast<std::size_t>(id) < points.size() &&
            hull_index[static_cast<std::size_t>(id)] >= 0)
          corners.push_back(static_cast<std::uint32_t>(hull_index[static_cast<std::size_t>(id)]));
      }
      for (const std::uint32_t a : corners)
        for (const std::uint32_t b : corners)
          if (a != b) adjacent[a].push_back(b);
    }
    hull.neighbour_start.push_back(0);
    for (auto& list : adjacent) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      hull.neighbours.insert(hull.neighbours.end(), list.begin(), list.end());
      hull.neighbour_start.push_back(static_cast<std::uint32_t>(hull.neighbours.size()));
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int still_long = 0, total_long = 0;
  qh_memfreeshort(qh, &still_long, &total_long);
  if (failed != 0 || hull.vertices.size() < 4) return unreduced(points);
  return hull;
}

}  // namespace kinetic
