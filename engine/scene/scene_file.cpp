#include "engine/scene/scene_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/json_input.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/saved_rotation.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/scene/moveit_scene_file.hpp"

namespace kinetic {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json vec_json(const Vector3& v) {
  return json::array({v.x(), v.y(), v.z()});
}

json pose_json(const Pose& pose) {
  const std::array<double, 4> q = saved_quaternion(pose.linear());
  return {{"position", vec_json(pose.translation())},
          {"orientation", json::array({q[0], q[1], q[2], q[3]})}};
}

json shape_json(const Shape& s) {
  json out{{"type", to_string(s.type)}};
  switch (s.type) {
    case Shape::Type::Box:
      out["size"] = vec_json(s.box_size);
      break;
    case Shape::Type::Cylinder:
      out["radius"] = s.radius;
      out["length"] = s.length;
      break;
    case Shape::Type::Sphere:
      out["radius"] = s.radius;
      break;
    case Shape::Type::Mesh:
      out["path"] = s.mesh_path;
      out["scale"] = vec_json(s.mesh_scale);
      break;
    case Shape::Type::HalfSpace:
      out["normal"] = vec_json(s.normal);
      out["offset"] = s.offset;
      break;
  }
  return out;
}

// The most obstacles a scene file may hold: setting up collision checking stays linear in them,
// this keeps a scene's memory and start-up within reason.
constexpr std::size_t kMaxSceneObstacles = 100000;

// The keys each object level accepts: anything else is an error, so that a misspelt key is not
// silently ignored (a typo in "obstacles" would otherwise load an empty scene).
const std::vector<std::string> kTopLevelKeys{"format",   "version", "obstacles",
                                             "attached", "allowed", "disallowed"};
const std::vector<std::string> kObstacleKeys{"name", "shape", "pose"};
const std::vector<std::string> kAttachedKeys{"name", "link", "shape", "pose", "touch_links"};
const std::vector<std::string> kPoseKeys{"position", "orientation"};
const std::vector<std::string> kAnyShapeKeys{"type", "size",  "radius", "length",
                                             "path", "scale", "normal", "offset"};

const std::vector<std::string>& shape_keys(Shape::Type type) {
  static const std::vector<std::string> box{"type", "size"}, cylinder{"type", "radius", "length"},
      sphere{"type", "radius"}, mesh{"type", "path", "scale"},
      half_space{"type", "normal", "offset"};
  switch (type) {
    case Shape::Type::Box:
      return box;
    case Shape::Type::Cylinder:
      return cylinder;
    case Shape::Type::Sphere:
      return sphere;
    case Shape::Type::Mesh:
      return mesh;
    case Shape::Type::HalfSpace:
      return half_space;
  }
  return box;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string unknown_key_hint(const std::string& key, const std::vector<std::string>& known) {
  // Only the best match: "touch_link" should suggest "touch_links", not also "link".
  const std::vector<std::string> close = closest_names(key, known, 1);
  if (!close.empty()) return "did you mean \"" + close.front() + "\"?";
  return "known keys: " + quoted_list(known, " and ", '"');
}

json parse_json(const std::string& text, const std::string& source) {
  const JsonTextCheck check = check_json_text(text);
  // Syntax, numbers such as 1e400, or nesting past kMaxJsonNesting.
  if (!check.malformed.empty())
    throw Error(ErrorCode::ParseError,
                "scene file " + source + ": malformed JSON: " + check.malformed,
                "fix the JSON syntax at the position given");
  if (check.duplicate)
    throw Error(ErrorCode::InvalidValue,
                "scene file " + source + ": " + check.duplicate->path + ": duplicate key \"" +
                    check.duplicate->key + "\"",
                "a key may appear only once in an object; remove or rename one of them");
  return json::parse(text);
}

// True when an integer JSON value lies in [low, high]. Checked before any conversion: get<int>()
// would wrap 3000000000 to a negative number.
bool integer_in_range(const json& value, std::int64_t low, std::int64_t high) {
  if (value.is_number_unsigned())
    return high >= 0 && value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high) &&
           static_cast<std::int64_t>(value.get<std::uint64_t>()) >= low;
  const std::int64_t v = value.get<std::int64_t>();
  return v >= low && v <= high;
}

constexpr double kMaxScenePosition = 1e4;  // m

// Reads fields with error messages naming the source and the JSON path.
class Reader {
 public:
  Reader(std::string source, std::string base_dir)
      : source_(std::move(source)), base_(std::move(base_dir)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem,
                         const std::string& hint = {},
                         ErrorCode code = ErrorCode::InvalidValue) const {
    throw Error(code, "scene file " + source_ + ": " + where + ": " + problem, hint);
  }

  // Every key of `object` must be in `known`.
  void only_keys(const json& object, const std::string& where,
                 const std::vector<std::string>& known) const {
    if (!object.is_object()) fail(where, "expected an object");
    for (const auto& item : object.items())
      if (!contains(known, item.key()))
        fail(where, "unknown key \"" + printable(item.key()) + "\"",
             unknown_key_hint(item.key(), known));
  }

  const json& field(const json& object, const std::string& name, const std::string& where) const {
    if (!object.is_object()) fail(where, "expected an object");
    const auto it = object.find(name);
    if (it == object.end()) fail(where, "missing \"" + name + "\"");
    return *it;
  }

  double number(const json& value, const std::string& where) const {
    if (!value.is_number()) fail(where, "expected a number, got " + std::string(value.type_name()));
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(where, "expected a finite number");
    return v;
  }

  std::string string(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, "expected a string, got " + std::string(value.type_name()));
    return value.get<std::string>();
  }

  template <int N>
  Eigen::Matrix<double, N, 1> vector(const json& value, const std::string& where) const {
    if (!value.is_array() || value.size() != N)
      fail(where, "expected an array of " + std::to_string(N) + " numbers");
    Eigen::Matrix<double, N, 1> v;
    for (int i = 0; i < N; ++i) v[i] = number(value[i], where + "[" + std::to_string(i) + "]");
    return v;
  }

  Pose pose(const json& value, const std::string& where) const {
    only_keys(value, where, kPoseKeys);
    Pose pose = Pose::Identity();
    pose.translation() = vector<3>(field(value, "position", where), where + ".position");
    // As for shape sizes: far beyond any cell, and overflowing the checks' squared distances.
    if (pose.translation().cwiseAbs().maxCoeff() > kMaxScenePosition)
      fail(where + ".position",
           "is more than 10 km from the origin; give metres in the robot's frame");
    const Eigen::Vector4d q = vector<4>(field(value, "orientation", where), where + ".orientation");
    if (q.norm() < 1e-9) fail(where + ".orientation", "quaternion has zero length");
    pose.linear() = rotation_from_saved_quaternion(q[0], q[1], q[2], q[3]);
    return pose;
  }

  Shape shape(const json& value, const std::string& where) const {
    only_keys(value, where, kAnyShapeKeys);  // typos first, with a did-you-mean
    const std::string type_name = string(field(value, "type", where), where + ".type");
    const Shape::Type type = guarded(where, [&] { return shape_type_from_string(type_name); });
    // A key of another shape type ("radius" on a box) is a mistake too.
    const std::vector<std::string>& keys = shape_keys(type);
    for (const auto& item : value.items())
      if (!contains(keys, item.key()))
        fail(where, "key \"" + item.key() + "\" does not apply to a " + type_name,
             "a " + type_name + " takes " + quoted_list(keys, " and ", '"'));
    return guarded(where, [&] {
      switch (type) {
        case Shape::Type::Box:
          return Shape::box(vector<3>(field(value, "size", where), where + ".size"));
        case Shape::Type::Cylinder:
          return Shape::cylinder(number(field(value, "radius", where), where + ".radius"),
                                 number(field(value, "length", where), where + ".length"));
        case Shape::Type::Sphere:
          return Shape::sphere(number(field(value, "radius", where), where + ".radius"));
        case Shape::Type::Mesh: {
          fs::path path = string(field(value, "path", where), where + ".path");
          if (path.is_relative() && !base_.empty()) path = fs::path(base_) / path;
          Vector3 scale = Vector3::Ones();
          if (value.contains("scale")) scale = vector<3>(value["scale"], where + ".scale");
          return Shape::mesh(path.lexically_normal().string(), scale);
        }
        case Shape::Type::HalfSpace:
          return Shape::half_space(vector<3>(field(value, "normal", where), where + ".normal"),
                                   number(field(value, "offset", where), where + ".offset"));
      }
      fail(where, "unknown shape");
    });
  }

  // Runs `action`, prefixing an engine error (which knows nothing of the file) with the source
  // and `where`; errors already naming the scene file pass through.
  template <typename Action>
  auto guarded(const std::string& where, Action&& action) const -> decltype(action()) {
    try {
      return action();
    } catch (const Error& e) {
      if (e.message().rfind("scene file ", 0) == 0) throw;
      fail(where, e.message(), e.hint());
    }
  }

  std::pair<std::string, std::string> name_pair(const json& value, const std::string& where) const {
    if (!value.is_array() || value.size() != 2)
      fail(where, "expected a pair of names [\"a\", \"b\"]");
    return {string(value[0], where + "[0]"), string(value[1], where + "[1]")};
  }

  const json& array(const json& root, const std::string& name) const {
    static const json empty = json::array();
    const auto it = root.find(name);
    if (it == root.end()) return empty;
    if (!it->is_array()) fail(name, "expected an array");
    return *it;
  }

 private:
  std::string source_, base_;
};

}  // namespace

std::string scene_to_json(const PlanningScene& scene) {
  json root{{"format", "kinetic-scene"}, {"version", kSceneFormatVersion}};
  json obstacles = json::array();
  for (const auto& o : scene.obstacles())
    obstacles.push_back(
        {{"name", o.name}, {"shape", shape_json(o.shape)}, {"pose", pose_json(o.pose)}});
  json attached = json::array();
  for (const auto& a : scene.attached_objects())
    attached.push_back({{"name", a.name},
                        {"link", a.link},
                        {"shape", shape_json(a.shape)},
                        {"pose", pose_json(a.pose)},
                        {"touch_links", a.touch_links}});
  json allowed = json::array(), disallowed = json::array();
  for (const auto& [names, allow] : scene.overrides())
    (allow ? allowed : disallowed).push_back({names.first, names.second});
  root["obstacles"] = obstacles;
  root["attached"] = attached;
  root["allowed"] = allowed;
  root["disallowed"] = disallowed;
  try {
    return root.dump(2) + "\n";
  } catch (const json::type_error&) {
    // JSON text must be UTF-8; a mesh path from the file system need not be.
    throw Error(ErrorCode::InvalidValue,
                "cannot write the scene as JSON: an object name or mesh path is not valid UTF-8",
                "rename the object or the mesh file");
  }
}

PlanningScene scene_from_json(const std::string& text, const std::string& source,
                              const std::string& base_dir) {
  const json root = parse_json(text, source);
  const Reader r(source, base_dir);
  if (!root.is_object()) r.fail("top level", "expected a JSON object");
  // The format first: another kind of file (a job, a session) is said as one, not as its first
  // key a scene does not have.
  const std::string format = r.string(r.field(root, "format", "top level"), "format");
  if (format != "kinetic-scene")
    r.fail("format",
           "expected \"kinetic-scene\", got \"" + printable(format) + "\" (is this a scene file?)");
  r.only_keys(root, "top level", kTopLevelKeys);
  const json& version = r.field(root, "version", "top level");
  if (!version.is_number_integer()) r.fail("version", "expected an integer");
  if (!integer_in_range(version, 1, kSceneFormatVersion))
    r.fail("version",
           "version " + version.dump() + " is not supported (this build reads version " +
               std::to_string(kSceneFormatVersion) + ")",
           {}, ErrorCode::Unsupported);

  PlanningScene scene;
  const json& obstacles = r.array(root, "obstacles");
  if (obstacles.size() > kMaxSceneObstacles)
    r.fail("obstacles",
           "has " + std::to_string(obstacles.size()) + " obstacles; a scene may have at most " +
               std::to_string(kMaxSceneObstacles) + " (merge small ones into larger shapes)");
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const std::string where = "obstacles[" + std::to_string(i) + "]";
    const json& o = obstacles[i];
    r.only_keys(o, where, kObstacleKeys);
    const std::string name = r.string(r.field(o, "name", where), where + ".name");
    const Shape shape = r.shape(r.field(o, "shape", where), where + ".shape");
    const Pose pose = r.pose(r.field(o, "pose", where), where + ".pose");
    r.guarded(where, [&] { scene.add_obstacle(name, shape, pose); });
  }
  const json& attached = r.array(root, "attached");
  for (std::size_t i = 0; i < attached.size(); ++i) {
    const std::string where = "attached[" + std::to_string(i) + "]";
    const json& a = attached[i];
    r.only_keys(a, where, kAttachedKeys);
    AttachedObject object;
    object.name = r.string(r.field(a, "name", where), where + ".name");
    object.link = r.string(r.field(a, "link", where), where + ".link");
    object.shape = r.shape(r.field(a, "shape", where), where + ".shape");
    object.pose = r.pose(r.field(a, "pose", where), where + ".pose");
    if (a.contains("touch_links")) {
      const json& touch = a["touch_links"];
      if (!touch.is_array()) r.fail(where + ".touch_links", "expected an array of link names");
      for (std::size_t t = 0; t < touch.size(); ++t)
        object.touch_links.push_back(
            r.string(touch[t], where + ".touch_links[" + std::to_string(t) + "]"));
    }
    r.guarded(where, [&] { scene.add_attached(object); });
  }
  for (const char* key : {"allowed", "disallowed"}) {
    const json& pairs = r.array(root, key);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto [a, b] = r.name_pair(pairs[i], std::string(key) + "[" + std::to_string(i) + "]");
      if (std::string(key) == "allowed")
        scene.allow(a, b);
      else
        scene.disallow(a, b);
    }
  }
  return scene;
}

void save_scene(const PlanningScene& scene, const std::string& path) {
  write_file_atomically(path, scene_to_json(scene));
}

PlanningScene load_scene(const std::string& path) {
  const std::string text = read_input_file(path, kSceneInput);
  switch (scene_file_format(path)) {
    case SceneFileFormat::MoveItYaml:
      return moveit_scene_from_yaml(text, path);
    case SceneFileFormat::MoveItText:
      return moveit_scene_from_text(text, path);
    case SceneFileFormat::KineticJson:
      break;
  }
  const fs::path p(path);
  return scene_from_json(text, path, p.has_parent_path() ? p.parent_path().string() : ".");
}

}  // namespace kinetic
