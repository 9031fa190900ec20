#include "engine/scene/moveit_scene_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/yaml_fields.hpp"

namespace kinetic {
namespace {

std::string lower_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// A shape of MoveIt's primitive types with the dimensions in its order; Unsupported for the rest.
Shape moveit_primitive(const std::string& type, const std::vector<double>& d,
                       const std::string& field,
                       const std::function<void(const std::string&)>& fail, bool text_order) {
  const auto need = [&](std::size_t n, const std::string& names) {
    if (d.size() != n)
      fail("expected " + std::to_string(n) + (n == 1 ? " number" : " numbers") + " (" + names +
           ") for a " + type + ", got " + std::to_string(d.size()));
  };
  if (type == "box") {
    need(3, "x y z");
    return Shape::box({d[0], d[1], d[2]});
  }
  if (type == "sphere") {
    need(1, "radius");
    return Shape::sphere(d[0]);
  }
  if (type == "cylinder") {
    // shape_msgs/SolidPrimitive: [height, radius]; the .scene text writes radius, then length.
    need(2, text_order ? "radius length" : "height radius");
    return text_order ? Shape::cylinder(d[0], d[1]) : Shape::cylinder(d[1], d[0]);
  }
  throw Error(
      ErrorCode::Unsupported, field + ": a " + type + " has no Kinetic shape",
      "use boxes, spheres and cylinders (a cone fits in a cylinder of its radius and height)");
}

std::string part_name(const std::string& id, std::size_t index) {
  return index == 0 ? id : id + "/" + std::to_string(index);
}

void add(PlanningScene& scene, const std::string& name, const Shape& shape, const Pose& pose,
         const std::string& where) {
  try {
    scene.add_obstacle(name, shape, pose);
  } catch (const Error& error) {
    throw Error(error.code(), where + ": " + error.message(), error.hint());
  }
}

}  // namespace

SceneFileFormat scene_file_format(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == "yaml" || ext == "yml") return SceneFileFormat::MoveItYaml;
  if (ext == "scene") return SceneFileFormat::MoveItText;
  return SceneFileFormat::KineticJson;
}

PlanningScene moveit_scene_from_yaml(const std::string& text, const std::string& source) {
  const YamlFields y(source);
  const YAML::Node root = y.parse(text);
  if (!root.IsMap())
    throw Error(ErrorCode::InvalidValue,
                source + ": expected a MoveIt planning scene (a map with \"world\")");
  const YAML::Node world = y.member(root, "world", "world");
  if (!world.IsDefined()) {
    const bool request = y.member(root, "goal_constraints", "").IsDefined();
    throw Error(ErrorCode::InvalidValue,
                source + ": no \"world\": this is not a MoveIt planning scene",
                request ? "this is a motion plan request: give it as a job step's \"request\", or "
                          "to --benchmark"
                        : "a planning scene has world.collision_objects");
  }
  PlanningScene scene;
  const std::vector<YAML::Node> objects =
      y.sequence(y.member(world, "collision_objects", "world"), "world.collision_objects");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::string field = "world.collision_objects[" + std::to_string(i) + "]";
    const YAML::Node& object = objects[i];
    const std::string id = y.text(y.required(object, "id", field), field + ".id");
    const std::string named = field + " ('" + id + "')";
    if (y.member(object, "operation", field).IsDefined()) {
      const YAML::Node op = y.member(object, "operation", field);
      if (!op.IsScalar() || op.Scalar() != "0")
        y.fail(op, named + ".operation", "only ADD (0) is read from a scene file");
    }
    for (const char* other : {"meshes", "planes"})
      if (!y.sequence(y.member(object, other, field), named + "." + other).empty())
        throw Error(ErrorCode::Unsupported,
                    y.source() + ": " + named + "." + other + ": inline " + other +
                        " have no Kinetic shape",
                    "export the object as a mesh file and add it with the scene panel's Add mesh");
    const Pose object_pose = y.pose(y.member(object, "pose", field), named + ".pose");
    const std::vector<YAML::Node> primitives =
        y.sequence(y.member(object, "primitives", field), named + ".primitives");
    const std::vector<YAML::Node> poses =
        y.sequence(y.member(object, "primitive_poses", field), named + ".primitive_poses");
    if (primitives.empty()) y.fail(object, named, "has no primitives");
    if (poses.size() != primitives.size())
      y.fail(object, named + ".primitive_poses",
             "expected one pose per primitive (" + std::to_string(primitives.size()) + "), got " +
                 std::to_string(poses.size()));
    for (std::size_t p = 0; p < primitives.size(); ++p) {
      const std::string where = named + ".primitives[" + std::to_string(p) + "]";
      const std::string type = y.text(y.required(primitives[p], "type", where), where + ".type");
      const YAML::Node dims = y.required(primitives[p], "dimensions", where);
      const std::vector<double> d = y.numbers(dims, where + ".dimensions");
      const Shape shape = moveit_primitive(
          type, d, y.source() + ": " + where,
          [&](const std::string& why) { y.fail(dims, where + ".dimensions", why); }, false);
      const Pose pose =
          object_pose * y.pose(poses[p], named + ".primitive_poses[" + std::to_string(p) + "]");
      add(scene, part_name(id, p), shape, pose, y.source() + ": " + where);
    }
  }
  return scene;
}

namespace {

// Reads the .scene text word by word, keeping the line for messages.
class SceneText {
 public:
  SceneText(const std::string& text, std::string source) : source_(std::move(source)) {
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back({number, line});
    }
  }
  // The rest of the current line (trimmed): "* ID" gives the id after the "*" read as a word.
  std::string line(const std::string& what) {
    if (row_ >= lines_.size()) fail("expected " + what + ", the file ends");
    std::string text = lines_[row_].second;
    std::size_t at = 0;
    for (std::size_t w = 0; w < word_; ++w) {
      at = text.find_first_not_of(" \t", at);
      at = text.find_first_of(" \t", at);
      if (at == std::string::npos) at = text.size();
    }
    text = text.substr(at);
    ++row_, word_ = 0;
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
  }
  std::string word(const std::string& what) {
    while (row_ < lines_.size()) {
      std::istringstream words(lines_[row_].second);
      std::string w;
      std::size_t index = 0;
      while (words >> w) {
        if (index++ == word_) {
          ++word_;
          return w;
        }
      }
      ++row_, word_ = 0;
    }
    fail("expected " + what + ", the file ends");
  }
  double number(const std::string& what) {
    const std::string w = word(what);
    try {
      std::size_t used = 0;
      const double value = std::stod(w, &used);
      if (used == w.size() && std::isfinite(value)) return value;
    } catch (const std::exception&) {
    }
    fail("expected " + what + " (a number), got \"" + w + "\"");
  }
  // A whole number in [low, high], checked before it is converted (1e10 or NaN as an int is
  // undefined behaviour; fuzzing found the shape count so converted).
  int count(const std::string& what, int low, int high) {
    const double value = number(what);
    if (!(value >= low && value <= high) || value != std::floor(value)) {
      std::ostringstream got;
      got << value;
      fail("expected " + what + " (a whole number from " + std::to_string(low) + " to " +
           std::to_string(high) + "), got " + got.str());
    }
    return static_cast<int>(value);
  }
  Pose pose(const std::string& what) {
    Pose pose = Pose::Identity();
    const double x = number(what + " x"), yv = number(what + " y"), z = number(what + " z");
    pose.translation() = Vector3(x, yv, z);
    const double qx = number(what + " qx"), qy = number(what + " qy"), qz = number(what + " qz"),
                 qw = number(what + " qw");
    const Quaternion q(qw, qx, qy, qz);
    if (q.norm() < 1e-9) fail(what + ": the quaternion is zero");
    pose.linear() = q.normalized().toRotationMatrix();
    return pose;
  }
  // The line after the first "* NAME" has spaces in the new format (the object's position), a
  // lone shape count in the old.
  bool new_format() const {
    for (std::size_t i = 0; i + 1 < lines_.size(); ++i)
      if (!lines_[i].second.empty() && lines_[i].second[0] == '*') {
        std::string next = lines_[i + 1].second;
        const auto first = next.find_first_not_of(" \t");
        const auto last = next.find_last_not_of(" \t");
        next = first == std::string::npos ? std::string() : next.substr(first, last - first + 1);
        return next.find(' ') != std::string::npos;
      }
    return true;
  }
  [[noreturn]] void fail(const std::string& problem) const {
    const int line =
        row_ < lines_.size() ? lines_[row_].first : (lines_.empty() ? 1 : lines_.back().first);
    throw Error(
        ErrorCode::ParseError, source_ + ":" + std::to_string(line) + ": " + problem,
        "MoveIt's .scene text: a name line, then per object \"* ID\", pose, shape count, shapes "
        "(type, sizes, pose, colour), subframes; \".\" ends it");
  }
  int line_number() const { return row_ < lines_.size() ? lines_[row_].first : 0; }

 private:
  std::string source_;
  std::vector<std::pair<int, std::string>> lines_;
  std::size_t row_ = 0, word_ = 0;
};

}  // namespace

PlanningScene moveit_scene_from_text(const std::string& text, const std::string& source) {
  SceneText in(text, source);
  const bool new_format = in.new_format();
  (void)in.line("the scene's name");
  PlanningScene scene;
  while (true) {
    const std::string marker = in.word("\"* ID\" or the closing \".\"");
    if (marker == ".") break;
    if (marker != "*") in.fail("expected \"* ID\" or the closing \".\", got \"" + marker + "\"");
    const int object_line = in.line_number();
    const std::string id = in.line("the object's id");
    if (id.empty()) in.fail("an object without an id after \"*\"");
    const std::string where = source + ":" + std::to_string(object_line) + ": object '" + id + "'";
    const Pose object_pose = new_format ? in.pose("object '" + id + "' pose") : Pose::Identity();
    const int count = in.count("object '" + id + "' shape count", 1, 10000);
    for (int s = 0; s < count; ++s) {
      const std::string shape_what = "object '" + id + "' shape " + std::to_string(s);
      const std::string type = in.word(shape_what + " type");
      std::size_t n = type == "box" ? 3 : type == "sphere" ? 1 : type == "cylinder" ? 2 : 0;
      if (n == 0)
        throw Error(ErrorCode::Unsupported, where + ": a " + type + " has no Kinetic shape",
                    "use boxes, spheres and cylinders (a cone fits in a cylinder of its radius and "
                    "height)");
      std::vector<double> d;
      for (std::size_t k = 0; k < n; ++k) d.push_back(in.number(shape_what + " size"));
      const Shape shape = moveit_primitive(
          type, d, where, [&](const std::string& why) { in.fail(why); }, true);
      const Pose pose = object_pose * in.pose(shape_what + " pose");
      for (int c = 0; c < 4; ++c) (void)in.number(shape_what + " colour (r g b a)");
      add(scene, part_name(id, static_cast<std::size_t>(s)), shape, pose, where);
    }
    if (new_format) {
      const int subframes = in.count("object '" + id + "' subframe count", 0, 10000);
      for (int f = 0; f < subframes; ++f) {
        (void)in.word("subframe name");
        (void)in.pose("object '" + id + "' subframe");
      }
    }
  }
  return scene;
}

}  // namespace kinetic
