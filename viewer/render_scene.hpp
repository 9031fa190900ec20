#pragma once
// RenderScene: everything one frame draws, described by value. The app (or a test) fills it from
// the robot state each frame; the renderer owns no scene state of its own.
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/math.hpp"
#include "viewer/mesh_library.hpp"

namespace kinetic::viewer {

enum InstanceFlags : uint32_t {
  kNone = 0,
  kGhost = 1u << 0,        // translucent, tinted by `color` (start/goal/playback ghosts, overlays)
  kWireframe = 1u << 1,    // edges only
  kHighlighted = 1u << 2,  // colliding link: blended towards red
  kSelected = 1u << 3,     // selection outline
  kOverlay = 1u << 4,      // drawn over everything (gizmo handles)
  kUnlit = 1u << 5,        // flat colour, no lighting
  kMeshColors = 1u << 6,   // use the mesh's own vertex/material colours (tinted by `color`)
  // With kMeshColors: the parts of the mesh with colours of their own show them as they are, and
  // `color` paints only the parts without (RViz's rule for a URDF material on a coloured mesh).
  kColorWhereMeshHasNone = 1u << 7,
};

struct Instance {
  MeshId mesh = 0;
  Eigen::Affine3f transform = Eigen::Affine3f::Identity();  // may scale (unit primitives, spheres)
  Color color = colors::kRobot;
  uint32_t flags = kNone;
  uint32_t pick_id = 0;  // returned by picking; 0 = not pickable
};

struct LineVertex {
  float position[3];
  uint8_t color[4];
};

// A polyline or segment set in world space.
struct LineBatch {
  std::vector<Vec3> points;
  Color color = colors::kTrail;
  bool strip = true;    // true: p0-p1-p2...; false: pairs (p0-p1, p2-p3, ...)
  bool on_top = false;  // ignore depth
};

struct GridSettings {
  bool visible = true;
  float minor_cell = 0.1f;  // m
  float major_cell = 1.0f;  // m
  float fade_start = 2.0f;  // m from the grid centre
  float fade_end = 6.0f;
  float extent = 8.0f;  // half size of the drawn square
};

struct Label {
  Vec3 position;  // world
  std::string text;
  Color color{1, 1, 1, 1};
};

// A line of the colour legend: what a ghost or marker of this colour stands for.
struct LegendEntry {
  std::string text;
  Color color;
};

// What the ImGui overlay shows; figures come from the app.
struct OverlayContent {
  bool show_stats = false;
  float frame_time_ms = 0;               // the app's measured frame time
  std::vector<std::string> stats_lines;  // extra lines, e.g. "planner: RRTConnect 12 ms"
  bool show_help = false;
  std::vector<std::string> help_lines;  // keyboard help; empty = the built-in camera help
  std::vector<Label> labels;
  std::vector<std::string> warnings;  // shown in a red box at the top
  std::vector<LegendEntry> legend;    // bottom left: a swatch and its meaning per line
};

struct RenderScene {
  std::vector<Instance> instances;
  std::vector<LineBatch> lines;
  std::vector<Transform> frames;  // link frames: small RGB axes
  float frame_size = 0.08f;
  bool frames_on_top = false;  // ignore depth (link origins mostly sit inside the link meshes)
  bool world_axes = true;
  float world_axes_size = 0.25f;
  GridSettings grid;
  Color background_top = colors::kBackgroundTop;
  Color background_bottom{0.30f, 0.32f, 0.36f, 1.0f};
  Color outline_color = colors::kSelection;
  float outline_width_px = 2.5f;
  float line_width_px = 2.0f;
  OverlayContent overlay;
};

}  // namespace kinetic::viewer
