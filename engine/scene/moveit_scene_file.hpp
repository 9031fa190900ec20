#pragma once
// MoveIt's two scene formats, read into a PlanningScene (world frame = the robot's root):
//  - a moveit_msgs/PlanningScene as YAML (what `rostopic echo`, MoveIt's warehouse and
//    MotionBenchMaker write): world.collision_objects[], each with an `id`, `primitives`
//    (box [x y z], sphere [r], cylinder [height radius], all in m) and one `primitive_poses` entry
//    per primitive, composed with the object's optional `pose`. An object of several primitives
//    becomes one obstacle per primitive, named "ID", "ID/1", "ID/2", ...
//  - MoveIt's `.scene` text (RViz's Motion Planning panel, "Export"): a name line, then per object
//    "* ID", its pose (new format; old files have none), the shape count, per shape its type and
//    sizes (box x y z, sphere r, cylinder radius length), its pose and colour, then the subframes
//    (new format); "." ends it.
// Robot state, allowed collision matrix, fixed frames and colours are not scene objects here and
// are ignored. Cones, planes, meshes given inline and octomaps have no Kinetic shape: they are an
// Error(Unsupported) naming the object. Errors name the file, the line and the field.
#include <string>

#include "engine/scene/planning_scene.hpp"

namespace kinetic {

PlanningScene moveit_scene_from_yaml(const std::string& text,
                                     const std::string& source = "<scene>");
PlanningScene moveit_scene_from_text(const std::string& text,
                                     const std::string& source = "<scene>");

// By the file name: .yaml / .yml, .scene; "" otherwise (a Kinetic JSON scene).
enum class SceneFileFormat { KineticJson, MoveItYaml, MoveItText };
SceneFileFormat scene_file_format(const std::string& path);

}  // namespace kinetic
