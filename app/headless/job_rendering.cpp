#include "app/headless/job_rendering.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/headless/frame_disk_space.hpp"
#include "app/headless/interruption.hpp"
#include "app/headless/whole_motion.hpp"
#include "app/viewport/scene_bridge/robot_visuals.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "viewer/error.hpp"
#include "viewer/headless.hpp"
#include "viewer/image.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

namespace {

constexpr int kTrailSamples = 200;  // points on the TCP trail
constexpr int kBoundsSamples = 24;  // robot states used to frame the whole motion
// Objects the job attaches, releases or picks and places, so they stand out from the other
// obstacles wherever they are: on the table, in the gripper, where they were placed.
constexpr viewer::Color kHandledObject{0.70f, 0.40f, 0.90f, 1.0f};

// Half extents of an obstacle's local bounding box, for framing (zero: not framed: half-spaces
// are unbounded, meshes are framed by their origin only).
Vector3 shape_half_extents(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Box:
      return shape.box_size / 2;
    case Shape::Type::Cylinder:
      return {shape.radius, shape.radius, shape.length / 2};
    case Shape::Type::Sphere:
      return Vector3::Constant(shape.radius);
    case Shape::Type::Mesh:
    case Shape::Type::HalfSpace:
      return Vector3::Zero();
  }
  return Vector3::Zero();
}

}  // namespace

struct JobRenderer::Target {
  std::unique_ptr<viewer::HeadlessRenderer> renderer;
  std::unique_ptr<RobotVisuals> robot;
};

JobRenderer::JobRenderer() {
  try {
    viewer::VulkanContextOptions options;
    options.application_name = "kinetic-studio --headless";
    options.enable_validation =
        false;  // deterministic, quiet output; the viewer tests run the layers
    context_ = std::make_shared<viewer::VulkanContext>(options);
  } catch (const std::exception& error) {
    throw JobFailure(
        kExitRenderFailed,
        std::string("rendering needs a Vulkan device (Mesa's lavapipe works without a GPU): ") +
            error.what());
  }
}

JobRenderer::~JobRenderer() = default;

void JobRenderer::prepare_target(uint32_t width, uint32_t height) {
  for (auto& t : targets_)
    if (t->renderer->width() == width && t->renderer->height() == height) return;
  auto t = std::make_unique<Target>();
  t->renderer = std::make_unique<viewer::HeadlessRenderer>(context_, width, height);
  targets_.push_back(std::move(t));
}

JobRenderer::Target& JobRenderer::target(uint32_t width, uint32_t height, const JobResult& result) {
  prepare_target(width, height);
  Target* found = nullptr;
  for (auto& t : targets_)
    if (t->renderer->width() == width && t->renderer->height() == height) found = t.get();
  Target& t = *found;
  if (!t.robot) {
    // Read the visual meshes on every core at once (RobotVisuals then only uploads them).
    std::vector<fs::path> mesh_files;
    for (const Link& link : result.robot->links())
      for (const VisualShape& visual : link.visuals)
        if (visual.geometry.type == Geometry::Type::Mesh && !visual.geometry.mesh_path.empty())
          mesh_files.emplace_back(visual.geometry.mesh_path);
    t.renderer->meshes().preload(mesh_files);
    t.robot = std::make_unique<RobotVisuals>(t.renderer->meshes(), result.robot);
  }
  return t;
}

std::vector<std::string> JobRenderer::warnings(const RobotModel& robot) const {
  // A mesh file that does not exist was already reported by the loader; these are the ones that
  // exist but could not be read (a corrupt or unsupported file).
  std::vector<std::string> reported;
  for (const Link& link : robot.links())
    for (const VisualShape& visual : link.visuals)
      if (visual.geometry.type == Geometry::Type::Mesh && visual.geometry.mesh_path.empty())
        reported.push_back(link.name + ": mesh '" + visual.geometry.mesh_uri + "'");
  std::vector<std::string> all;
  for (const auto& t : targets_)
    if (t->robot)
      for (const std::string& warning : t->robot->warnings()) {
        const bool known =
            std::any_of(reported.begin(), reported.end(),
                        [&](const std::string& prefix) { return warning.rfind(prefix, 0) == 0; });
        if (!known && std::find(all.begin(), all.end(), warning) == all.end())
          all.push_back(warning);
      }
  return all;
}

viewer::Camera make_camera(const CameraSpec& spec,
                           const std::vector<viewer::BoundingSphere>& framed, float aspect) {
  viewer::Camera camera;
  camera.orthographic = spec.orthographic;
  if (spec.eye) {
    const viewer::Vec3 offset = *spec.eye - *spec.target;
    camera.target = *spec.target;
    camera.distance = offset.norm();
    camera.pitch = std::asin(std::clamp(offset.z() / camera.distance, -1.0f, 1.0f));
    camera.yaw = std::atan2(offset.y(), offset.x());
  } else {
    if (spec.has_view) camera.set_view(spec.view);
    camera.fit_tight(framed, aspect);
  }
  camera.distance /= spec.zoom;
  return camera;
}

std::vector<double> frame_times(const FramesSpec& spec, double duration) {
  std::vector<double> times;
  if (spec.count > 0) {
    for (int i = 0; i < spec.count; ++i)
      times.push_back(spec.count == 1 ? duration : duration * i / (spec.count - 1));
  } else {
    for (int i = 0; i / spec.fps < duration - 1e-9; ++i) times.push_back(i / spec.fps);
    times.push_back(duration);
  }
  return times;
}

std::string frame_file(const std::string& pattern, size_t index, size_t count) {
  const fs::path path(pattern);
  std::string name = path.filename().string();
  const size_t first = name.find('#');
  size_t last = first;
  while (last < name.size() && name[last] == '#') ++last;
  const size_t width = std::max(last - first, std::to_string(count > 0 ? count - 1 : 0).size());
  std::string number = std::to_string(index);
  number.insert(0, width > number.size() ? width - number.size() : 0, '0');
  name.replace(first, last - first, number);
  return (path.parent_path() / name).string();
}

namespace {

void write_image(const viewer::RgbaImage& image, const fs::path& path, const std::string& output,
                 const OutputSet& outputs) {
  try {
    viewer::write_png(image, path);
  } catch (const std::exception& error) {
    throw JobFailure(kExitWriteFailed, output + ": " + outputs.in_final_names(error.what()));
  }
}

// The scene parts that stay the same for every frame of one output (ghosts, trail, bounds).
struct StaticParts {
  viewer::RenderScene scene;
  std::vector<viewer::BoundingSphere> framed;  // what the camera frames
};

// shown: the state drawn solid in a still image; a goal ghost on top of it would only tint it.
StaticParts static_parts(const ImageSpec& spec, const JobResult& result, const Trajectory& motion,
                         const RobotVisuals& robot, const JointVector* shown = nullptr) {
  StaticParts parts;
  const ForwardKinematics fk(*result.robot);
  std::vector<Pose> poses;
  for (int i = 0; i < kBoundsSamples; ++i) {
    fk.compute(
        motion.sample(motion.start_time() + motion.duration() * i / (kBoundsSamples - 1)).position,
        poses);
    robot.bounding_spheres(poses, parts.framed);
  }
  // Obstacles where they stand at any time: the loaded scene's, and where scene and pick and place
  // steps left them.
  std::vector<const PlanningScene*> scenes{&result.scene};
  for (const StepResult& step : result.steps)
    if (!step.moves() || step.is_task()) scenes.push_back(&step.scene);
  for (const PlanningScene* scene : scenes)
    for (const Obstacle& obstacle : scene->obstacles()) {
      if (obstacle.shape.type == Shape::Type::HalfSpace) continue;
      const Vector3 half = shape_half_extents(obstacle.shape);
      for (int corner = 0; corner < 8; ++corner) {
        const Vector3 local((corner & 1) ? half.x() : -half.x(),
                            (corner & 2) ? half.y() : -half.y(),
                            (corner & 4) ? half.z() : -half.z());
        parts.framed.push_back({(obstacle.pose * local).cast<float>(), 0.0f});
      }
    }
  if (spec.ghost_start) {
    fk.compute(result.start, poses);
    robot.append(parts.scene, poses,
                 RobotStyle{viewer::colors::kStartGhost, viewer::kGhost, {}, 0});
    parts.scene.overlay.legend.push_back({"start", viewer::colors::kStartGhost});
  }
  if (spec.ghost_goals) {
    const std::size_t before = parts.scene.instances.size();
    for (const StepResult& step : result.steps) {
      if (!step.moves()) continue;  // ends where the step before it did: one ghost is enough
      if (shown && shown->size() == step.end.size() && shown->isApprox(step.end, 1e-9)) continue;
      fk.compute(step.end, poses);
      robot.append(parts.scene, poses,
                   RobotStyle{viewer::colors::kGoalGhost, viewer::kGhost, {}, 0});
    }
    if (parts.scene.instances.size() > before)
      parts.scene.overlay.legend.push_back({"goal", viewer::colors::kGoalGhost});
  }
  if (spec.trail)
    add_tcp_trail(parts.scene, tcp_trail(*result.robot, motion, result.group, kTrailSamples),
                  viewer::colors::kTrail);
  return parts;
}

// Whether a step of the job attaches, releases, or picks and places the object.
bool handled_by_job(const Job& job, const std::string& object) {
  return std::any_of(job.steps.begin(), job.steps.end(), [&](const StepSpec& step) {
    return (step.scene_change && step.scene_change->object == object) ||
           (step.pick_place && step.pick_place->request.object == object);
  });
}

// The robot at q in `planning_scene` (obstacles at their poses, attached objects with their links).
viewer::RenderScene compose(const StaticParts& parts, const Job& job, const JobResult& result,
                            const PlanningScene& planning_scene, const RobotVisuals& robot,
                            viewer::MeshLibrary& meshes, const JointVector& q) {
  viewer::RenderScene scene;
  const std::vector<Pose> poses = compute_link_poses(*result.robot, q);
  robot.append(scene, poses, RobotStyle{std::nullopt, viewer::kNone, {}, 0});
  const size_t first_object = scene.instances.size();
  add_scene_objects(scene, meshes, planning_scene, *result.robot, poses);
  for (size_t i = first_object; i < scene.instances.size(); ++i)
    if (scene.instances[i].color == viewer::colors::kObstacle &&  // not a missing mesh's red box
        handled_by_job(job, scene_object_for_pick_id(planning_scene, scene.instances[i].pick_id)))
      scene.instances[i].color = kHandledObject;
  // Ghosts after the solid geometry so they blend over it.
  scene.instances.insert(scene.instances.end(), parts.scene.instances.begin(),
                         parts.scene.instances.end());
  scene.lines = parts.scene.lines;
  scene.overlay.legend = parts.scene.overlay.legend;  // which ghost is the start, which a goal
  return scene;
}

}  // namespace

void JobRenderer::screenshot(const Job& job, JobResult& result, const ScreenshotSpec& spec,
                             OutputSet& outputs) {
  const Trajectory& motion = trajectory_for(job, result, spec.trajectory);
  const std::string output = "screenshot \"" + spec.file + "\"";
  try {
    Target& t = target(spec.image.width, spec.image.height, result);
    const double at = spec.at < 0 ? motion.end_time() : motion.start_time() + spec.at;
    const JointVector shown = motion.sample(at).position;
    const StaticParts parts = static_parts(spec.image, result, motion, *t.robot, &shown);
    const PlanningScene& planning_scene = scene_at(job, result, spec.trajectory, at);
    const viewer::RenderScene scene =
        compose(parts, job, result, planning_scene, *t.robot, t.renderer->meshes(), shown);
    const viewer::Camera camera =
        make_camera(spec.image.camera, parts.framed, t.renderer->aspect());
    write_image(t.renderer->render(scene, camera), outputs.claim(spec.file, output), output,
                outputs);
  } catch (const viewer::Error& error) {
    throw JobFailure(kExitRenderFailed, output + ": rendering failed: " + error.what());
  }
}

void JobRenderer::frames(const Job& job, JobResult& result, const FramesSpec& spec,
                         OutputSet& outputs) {
  const Trajectory& motion = trajectory_for(job, result, spec.trajectory);
  const std::string output = "frames \"" + spec.pattern + "\"";
  try {
    Target& t = target(spec.image.width, spec.image.height, result);
    const StaticParts parts = static_parts(spec.image, result, motion, *t.robot);
    const viewer::Camera camera =
        make_camera(spec.image.camera, parts.framed, t.renderer->aspect());
    const std::vector<double> times = frame_times(spec, motion.duration());
    for (size_t i = 0; i < times.size(); ++i) {
      stop_if_interrupted();
      const double at = motion.start_time() + times[i];
      const PlanningScene& planning_scene = scene_at(job, result, spec.trajectory, at);
      const viewer::RenderScene scene = compose(parts, job, result, planning_scene, *t.robot,
                                                t.renderer->meshes(), motion.sample(at).position);
      const std::string file = frame_file(spec.pattern, i, times.size());
      const fs::path written = outputs.claim(file, output);
      write_image(t.renderer->render(scene, camera), written, output, outputs);
      // The first frame's real size is a better measure than the estimate checked before planning.
      if (i == 0) check_rest_of_frames_fits(written, times.size() - 1, output);
    }
  } catch (const viewer::Error& error) {
    throw JobFailure(kExitRenderFailed, output + ": rendering failed: " + error.what());
  }
}

}  // namespace kinetic::app::headless
