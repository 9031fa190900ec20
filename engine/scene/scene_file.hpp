#pragma once
// Scene files (JSON, format "kinetic-scene", version 1; documented in docs/scene-format.md):
//   { "format": "kinetic-scene", "version": 1,
//     "obstacles": [ { "name": "table", "shape": { "type": "box", "size": [1, 0.8, 0.05] },
//                      "pose": { "position": [x, y, z], "orientation": [qx, qy, qz, qw] } } ],
//     "attached":  [ { "name": "tool", "link": "panda_hand", "shape": {...}, "pose": {...},
//                      "touch_links": ["panda_leftfinger"] } ],
//     "allowed": [["a", "b"]], "disallowed": [["c", "d"]] }
// Shapes: box {size}, cylinder {radius, length}, sphere {radius}, mesh {path, scale},
// half_space {normal, offset}. Relative mesh paths are relative to the scene file.
// Keys are strict: a key not listed above (or one of another shape type, such as "radius" on a
// box) is an error with a did-you-mean, and so is a key repeated in one object; a misspelt key is
// never silently ignored. Sizes are at most 1000 m and positions within 10 km of the origin.
#include <string>

#include "engine/scene/planning_scene.hpp"

namespace kinetic {

inline constexpr int kSceneFormatVersion = 1;

std::string scene_to_json(const PlanningScene& scene);
// `source` names the input in error messages; `base_dir` resolves relative mesh paths.
// Throws Error(ParseError) for malformed JSON (with line and column) and Error(InvalidValue /
// Unsupported) naming the offending entry, e.g. "obstacles[2].shape.radius", also for unknown and
// duplicate keys (e.g. `obstacles[0]: unknown key "shpe"`, hint `did you mean "shape"?`).
PlanningScene scene_from_json(const std::string& text, const std::string& source = "<scene>",
                              const std::string& base_dir = "");

// Atomic: writes a temporary file next to `path` and renames it over; on failure nothing changes
// and Error(IoError) names the file.
void save_scene(const PlanningScene& scene, const std::string& path);
// Throws Error(FileNotFound) naming the file, then as scene_from_json. A .yaml / .yml file is read
// as a MoveIt planning scene, a .scene file as MoveIt's scene text (moveit_scene_file.hpp).
PlanningScene load_scene(const std::string& path);

}  // namespace kinetic
