#include "app/viewport/viewport_window.hpp"

#include <QAction>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPlatformSurfaceEvent>
#include <QWheelEvent>
#include <cmath>
#include <set>
#include <string>

#include "app/collision/collision_monitor.hpp"
#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/task/place_target.hpp"
#include "app/viewport/scene_bridge/robot_visuals.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "viewer/mesh_file_cache.hpp"
#include "viewer/picking.hpp"
#include "viewer/swapchain_target.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::app {

namespace {
viewer::VulkanContextOptions window_options() {
  viewer::VulkanContextOptions options;
  options.enable_surface_extensions = true;
  return options;
}
constexpr float kOrbitRadiansPerPixel = 0.008f;
constexpr double kJointRadiansPerPixel = 0.01;  // right-drag on a link
constexpr double kJointMetresPerPixel = 0.002;
constexpr double kClickSlopPixels = 4.0;  // a press that moves less is a click
constexpr int kStroboscopeGhosts = 12;
constexpr int kTrailSamples = 120;
constexpr viewer::Color kFailedGoalGhost{0.95f, 0.2f, 0.15f, 0.38f};
constexpr viewer::Color kSphereColor{0.95f, 0.25f, 0.2f, 0.6f};
constexpr viewer::Color kCollisionGeometryColor{1.0f, 0.55f, 0.1f, 1.0f};

const char* const kHelpLines[] = {
    "Mouse: left-drag orbit / gizmo handle, left-click select obstacle,",
    "       right-drag on a link turns its joint, right/middle-drag pan, wheel zoom",
    "G grid   A axes   T trail   C collision spheres   W wireframe   K link frames",
    "R reset camera   F focus goal   O orthographic   Alt+1..6 front/back/left/right/top/iso",
    "Ctrl+N new session   Ctrl+S save session   Ctrl+O open session   F5 reload robot",
    "Space play/pause   Ctrl+Z undo   Ctrl+Shift+Z redo   F1 this help   F3 stats",
};
}  // namespace

ViewportWindow::ViewportWindow(StudioDocument& document)
    : document_(document),
      context_(std::make_unique<viewer::VulkanContext>(window_options())),
      mesh_cache_(std::make_shared<viewer::MeshFileCache>()) {
  setSurfaceType(QSurface::VulkanSurface);
  qt_instance_.setVkInstance(context_->instance());
  if (!qt_instance_.create())
    throw std::runtime_error("Qt could not use the Vulkan instance (error " +
                             std::to_string(qt_instance_.errorCode()) + ")");
  setVulkanInstance(&qt_instance_);
  uptime_.start();
  settle_timer_.setSingleShot(true);
  settle_timer_.setInterval(static_cast<int>(quality_policy_.motion_gap_ms()) + 10);
  connect(&settle_timer_, &QTimer::timeout, this, [this] { requestUpdate(); });
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    robot_dirty_ = true;
    camera_fit_pending_ = true;
    trail_dirty_ = true;
    requestUpdate();
  });
  for (auto signal : {&StudioDocument::jointsChanged, &StudioDocument::sceneChanged,
                      &StudioDocument::selectionChanged, &StudioDocument::goalChanged,
                      &StudioDocument::playbackChanged, &StudioDocument::playbackSceneChanged})
    connect(&document_, signal, this, [this] { requestUpdate(); });
  for (auto signal :
       {&StudioDocument::trajectoriesChanged, &StudioDocument::shownTrajectoryChanged})
    connect(&document_, signal, this, [this] {
      trail_dirty_ = true;
      requestUpdate();
    });
}

ViewportWindow::~ViewportWindow() {
  // GPU objects go before the surface (owned by Qt) and the instance.
  robot_visuals_.reset();
  collision_visuals_.reset();
  renderer_.reset();
  destroy();
}

void ViewportWindow::set_goal_controller(GoalController* goal) {
  goal_ = goal;
  if (goal) {
    connect(goal, &GoalController::shownPoseChanged, this, [this] { requestUpdate(); });
    connect(goal, &GoalController::ikStatusChanged, this, [this] { requestUpdate(); });
    // The trail traces the TCP of the group the gizmo moves.
    connect(goal, &GoalController::groupChanged, this, [this] {
      trail_dirty_ = true;
      requestUpdate();
    });
  }
  requestUpdate();
}

void ViewportWindow::set_collision_monitor(CollisionMonitor* monitor) {
  collisions_ = monitor;
  if (monitor) {
    connect(monitor, &CollisionMonitor::reportChanged, this, [this] { requestUpdate(); });
    monitor->set_spheres_wanted(option(ViewOption::CollisionSpheres));
  }
  requestUpdate();
}

void ViewportWindow::set_place_target(PlaceTarget* target) {
  place_ = target;
  if (target) connect(target, &PlaceTarget::changed, this, [this] { requestUpdate(); });
  requestUpdate();
}

void ViewportWindow::set_option(ViewOption which, bool on) {
  options_[static_cast<int>(which)] = on;
  if (which == ViewOption::CollisionSpheres && collisions_) collisions_->set_spheres_wanted(on);
  if (which == ViewOption::Orthographic) camera_.orthographic = on;
  requestUpdate();
}

bool ViewportWindow::option(ViewOption which) const {
  return options_[static_cast<int>(which)];
}

std::function<void(const RobotModel&, const std::atomic<bool>*)> ViewportWindow::mesh_warmer()
    const {
  // A snapshot of what the library holds: a reload of the same robot reads nothing.
  std::set<std::string> held =
      renderer_ ? renderer_->meshes().file_keys() : std::set<std::string>{};
  return [cache = mesh_cache_, held = std::move(held)](const RobotModel& robot,
                                                       const std::atomic<bool>* cancel) {
    cache->warm(robot_mesh_files(robot), held, cancel);
  };
}

const std::vector<std::string>& ViewportWindow::robot_warnings() const {
  static const std::vector<std::string> none;
  return robot_visuals_ ? robot_visuals_->warnings() : none;
}

void ViewportWindow::exposeEvent(QExposeEvent*) {
  if (isExposed()) render();
}

void ViewportWindow::resizeEvent(QResizeEvent*) {
  if (renderer_) {
    const qreal scale = devicePixelRatio();
    renderer_->resize(static_cast<uint32_t>(width() * scale),
                      static_cast<uint32_t>(height() * scale));
  }
  requestUpdate();
}

bool ViewportWindow::event(QEvent* event) {
  if (event->type() == QEvent::UpdateRequest) {
    render();
    return true;
  }
  if (event->type() == QEvent::PlatformSurface &&
      static_cast<QPlatformSurfaceEvent*>(event)->surfaceEventType() ==
          QPlatformSurfaceEvent::SurfaceAboutToBeDestroyed) {
    // The swapchain must go before Qt destroys the VkSurfaceKHR it was made from.
    robot_visuals_.reset();
    collision_visuals_.reset();
    renderer_.reset();
    robot_dirty_ = true;
  }
  return QWindow::event(event);
}

void ViewportWindow::rebuild_robot() {
  robot_dirty_ = false;
  const RobotModelPtr robot = document_.robot();
  robot_visuals_.reset();
  collision_visuals_.reset();
  kinematics_.reset();
  if (!robot) return;
  robot_visuals_ = std::make_unique<RobotVisuals>(renderer_->meshes(), robot);
  collision_visuals_ =
      std::make_unique<RobotVisuals>(renderer_->meshes(), robot, RobotVisuals::Geometry::Collision);
  kinematics_ = std::make_unique<ForwardKinematics>(*robot);
  // A surface rebuilt for the same robot keeps the user's view.
  if (camera_fit_pending_) fit_camera();
}

void ViewportWindow::set_camera(const viewer::Camera& camera) {
  camera_ = camera;
  camera_.orthographic =
      option(ViewOption::Orthographic);  // a view option; sessions save no projection
  camera_fit_pending_ = false;
  requestUpdate();
}

void ViewportWindow::fit_camera() {
  // A robot loaded since the last frame: its visuals are built with the next frame, which fits.
  if (robot_dirty_) {
    camera_fit_pending_ = true;
    requestUpdate();
    return;
  }
  if (!robot_visuals_ || !kinematics_) return;
  camera_fit_pending_ = false;
  kinematics_->compute(document_.joints(), link_poses_);
  viewer::Vec3 min, max;
  robot_visuals_->bounds(link_poses_, min, max);
  const viewer::Camera defaults;
  camera_.yaw = defaults.yaw;
  camera_.pitch = defaults.pitch;
  const float aspect =
      static_cast<float>(std::max(1, width())) / static_cast<float>(std::max(1, height()));
  camera_.fit(min, max, aspect);
  // The goal gizmo keeps its size on screen around the TCP, so it reached past the robot's
  // bounds (its top ring cut off above an upright arm): room for it as well, at the distance the
  // fit gives (a second pass settles that distance).
  if (const auto target = gizmo_target()) {
    const viewer::Gizmo gizmo = make_gizmo(*target);
    for (int pass = 0; pass < 2; ++pass) {
      const viewer::Vec3 reach = viewer::Vec3::Constant(
          viewer::gizmo_scale(gizmo, camera_, static_cast<float>(std::max(1, height()))));
      const viewer::Vec3 centre = gizmo.pose.translation();
      camera_.fit(min.cwiseMin(centre - reach), max.cwiseMax(centre + reach), aspect);
    }
  }
  requestUpdate();
}

void ViewportWindow::show_standard_view(viewer::StandardView view) {
  camera_.set_view(view);
  requestUpdate();
}

void ViewportWindow::focus_goal() {
  if (const auto target = gizmo_target()) {
    camera_.focus(target->pose.translation().cast<float>());
    requestUpdate();
  }
}

std::optional<ViewportWindow::GizmoTarget> ViewportWindow::gizmo_target() const {
  if (place_ && place_->has_gizmo())
    return GizmoTarget{GizmoSubject::Place, place_->marker()->pose};
  const std::string selected = document_.selected_object().toStdString();
  if (!selected.empty() && document_.scene().has_obstacle(selected))
    return GizmoTarget{GizmoSubject::Obstacle, document_.scene().obstacle(selected).pose};
  if (goal_)
    if (const auto pose = goal_->shown_pose_world()) return GizmoTarget{GizmoSubject::Goal, *pose};
  return std::nullopt;
}

viewer::Gizmo ViewportWindow::make_gizmo(const GizmoTarget& target) const {
  viewer::Gizmo gizmo;
  gizmo.pose = viewer::Transform::Identity();
  gizmo.pose.translation() = target.pose.translation().cast<float>();
  if (target.subject == GizmoSubject::Place) {
    // The place is a position and a yaw: world axes, and only the ring about world Z.
    gizmo.rings = {false, false, true};
  } else if (option(ViewOption::LocalFrame)) {
    gizmo.pose.linear() = target.pose.linear().cast<float>();
  }
  gizmo.hovered = gizmo_drag_.active() ? gizmo_drag_.handle() : hovered_;
  return gizmo;
}

std::optional<viewer::Gizmo> ViewportWindow::gizmo() const {
  return last_gizmo_;
}

viewer::Ray ViewportWindow::ray_at(const QPointF& position) const {
  return camera_.ray_through_pixel(
      static_cast<float>(position.x()), static_cast<float>(position.y()),
      static_cast<float>(std::max(1, width())), static_cast<float>(std::max(1, height())));
}

std::optional<QPointF> ViewportWindow::project(const Vector3& world) const {
  const viewer::Vec3 v = world.cast<float>() - camera_.eye();
  const float w = static_cast<float>(std::max(1, width())),
              h = static_cast<float>(std::max(1, height()));
  const float half_h = std::tan(camera_.fov_y / 2), aspect = w / h;
  float depth = camera_.orthographic ? camera_.distance : v.dot(camera_.forward());
  if (depth <= camera_.near_plane) return std::nullopt;
  const float ndc_x = v.dot(camera_.right()) / (depth * half_h * aspect);
  const float ndc_y = v.dot(camera_.up()) / (depth * half_h);
  return QPointF((ndc_x + 1) / 2 * w, (1 - ndc_y) / 2 * h);
}

void ViewportWindow::add_ghost(viewer::RenderScene& scene, const JointVector& q, viewer::Color tint,
                               const std::vector<int>& highlighted) {
  if (!robot_visuals_ || q.size() != document_.robot()->dof()) return;
  kinematics_->compute(q, ghost_poses_);
  RobotStyle style;
  style.tint = tint;
  style.flags = viewer::kGhost;
  style.highlighted_links = highlighted;
  // While the view moves on a slow device, a ghost is drawn from the collision meshes: a real
  // arm's visual meshes have a hundred times their triangles, and a ghost costs two passes (the
  // Panda's goal ghost doubled a drag's frame time on lavapipe). The settled frame draws it fully.
  const bool light = fast_frame_ && collision_visuals_ && !collision_visuals_->empty();
  (light ? collision_visuals_ : robot_visuals_)->append(scene, ghost_poses_, style);
}

void ViewportWindow::add_collision_overlays(viewer::RenderScene& scene) {
  if (option(ViewOption::CollisionGeometry) && collision_visuals_) {
    RobotStyle style;
    style.tint = kCollisionGeometryColor;
    style.flags = viewer::kWireframe | viewer::kUnlit;
    collision_visuals_->append(scene, link_poses_, style);
  }
  if (option(ViewOption::CollisionSpheres) && collisions_) {
    const viewer::MeshId unit = renderer_->meshes().sphere(1.0f);
    for (const CollisionSphere& sphere : collisions_->report().spheres) {
      viewer::Instance instance;
      instance.mesh = unit;
      instance.transform = Eigen::Affine3f::Identity();
      instance.transform.translate(sphere.center.cast<float>());
      instance.transform.scale(static_cast<float>(sphere.radius));
      instance.color = kSphereColor;
      instance.flags = viewer::kWireframe | viewer::kUnlit;
      scene.instances.push_back(instance);
    }
  }
}

void ViewportWindow::add_trail(viewer::RenderScene& scene) {
  const int shown = document_.shown_trajectory();
  if (shown < 0 || shown >= static_cast<int>(document_.trajectories().size())) return;
  const Trajectory& trajectory = document_.trajectories()[static_cast<size_t>(shown)].trajectory;
  if (trail_dirty_) {
    trail_dirty_ = false;
    trail_.clear();
    trail_error_.clear();
    try {
      if (!trajectory.empty())
        trail_ = tcp_trail(*document_.robot(), trajectory, goal_ ? goal_->group() : std::string(),
                           kTrailSamples);
    } catch (const std::exception& error) {
      trail_error_ = std::string("trail: ") + error.what();
    }
  }
  if (option(ViewOption::Trail) && trail_.size() >= 2)
    add_tcp_trail(scene, trail_, viewer::colors::kTrail);
  if (document_.stroboscope() && !trajectory.empty() &&
      trajectory.dof() == document_.robot()->dof()) {
    for (int i = 0; i < kStroboscopeGhosts; ++i) {
      const double t =
          trajectory.start_time() + trajectory.duration() * i / (kStroboscopeGhosts - 1);
      add_ghost(scene, trajectory.sample(t).position, viewer::colors::kPlaybackGhost);
    }
    scene.overlay.legend.push_back({"motion (stroboscope)", viewer::colors::kPlaybackGhost});
  }
}

void ViewportWindow::add_overlay_text(viewer::RenderScene& scene) {
  if (robot_visuals_)
    for (const std::string& warning : robot_visuals_->warnings())
      scene.overlay.warnings.push_back(warning);
  if (goal_ && goal_->ik_failed() && !goal_->ik_status().isEmpty())
    scene.overlay.warnings.push_back("IK: " + goal_->ik_status().toStdString());
  if (!trail_error_.empty()) scene.overlay.warnings.push_back(trail_error_);
  scene.overlay.show_help = option(ViewOption::Help);
  for (const char* line : kHelpLines) scene.overlay.help_lines.emplace_back(line);
  scene.overlay.show_stats = option(ViewOption::Stats);
  // (The overlay draws the frame's triangles, draw calls and instances itself, under the time.)
  scene.overlay.frame_time_ms = static_cast<float>(frame_time_ms_);
}

const PlanningScene& ViewportWindow::drawn_scene() const {
  const bool playback = document_.playback_scene() && document_.playback_joints() &&
                        document_.robot() &&
                        document_.playback_joints()->size() == document_.robot()->dof();
  return playback ? *document_.playback_scene() : document_.scene();
}

void ViewportWindow::add_world(viewer::RenderScene& scene) {
  const PlanningScene& world = drawn_scene();
  // Held objects ride on the robot that moves in that world: the playback ghost, not the robot.
  const std::vector<Pose>* holder = &link_poses_;
  if (&world != &document_.scene()) {
    kinematics_->compute(*document_.playback_joints(), playback_poses_);
    holder = &playback_poses_;
  }
  std::vector<std::string> warnings;
  add_scene_objects(scene, renderer_->meshes(), world, *document_.robot(), *holder,
                    document_.selected_object().toStdString(), kScenePickBase, &warnings);
  for (std::string& warning : warnings) scene.overlay.warnings.push_back(std::move(warning));
}

void ViewportWindow::add_place_marker(viewer::RenderScene& scene) {
  if (place_ && place_->marker()) {
    add_shape_ghost(scene, renderer_->meshes(), place_->marker()->shape, place_->marker()->pose,
                    viewer::colors::kPlaceTarget, kPlaceTargetPickId);
    scene.overlay.legend.push_back({"place target", viewer::colors::kPlaceTarget});
  }
}

void ViewportWindow::build_scene(viewer::RenderScene& scene) {
  scene.grid.visible = option(ViewOption::Grid);
  scene.world_axes = option(ViewOption::Axes);
  const RobotModelPtr robot = document_.robot();
  if (robot_visuals_ && robot) {
    kinematics_->compute(document_.joints(), link_poses_);
    RobotStyle style;
    style.pick_id_base = kRobotPickBase;
    if (option(ViewOption::Wireframe)) style.flags = viewer::kWireframe;
    if (collisions_ && collisions_->report().valid)
      style.highlighted_links = collisions_->report().current.colliding_links;
    robot_visuals_->append(scene, link_poses_, style);
    if (option(ViewOption::LinkFrames)) {
      // RGB axes of scene.frame_size (8 cm) at every link origin, seen through the links.
      for (const Pose& pose : link_poses_) scene.frames.push_back(pose.cast<float>());
      scene.frames_on_top = true;
    }
    add_collision_overlays(scene);

    add_world(scene);

    const GoalState& goal = document_.goal();
    if (goal.joints) {
      const bool failed = goal_ && goal_->ik_failed();
      std::vector<int> highlighted;
      if (collisions_ && collisions_->report().has_goal)
        highlighted = collisions_->report().goal.colliding_links;
      add_ghost(scene, *goal.joints, failed ? kFailedGoalGhost : viewer::colors::kGoalGhost,
                highlighted);
      scene.overlay.legend.push_back({failed ? "goal (IK failed)" : "goal",
                                      failed ? kFailedGoalGhost : viewer::colors::kGoalGhost});
    }
    if (document_.playback_joints()) {
      add_ghost(scene, *document_.playback_joints(), viewer::colors::kPlaybackGhost);
      scene.overlay.legend.push_back({"playback", viewer::colors::kPlaybackGhost});
    }
    add_trail(scene);
    add_place_marker(scene);
  }
  last_gizmo_.reset();
  other_gizmos_.clear();
  if (const auto target = gizmo_target()) {
    last_gizmo_ = make_gizmo(*target);
    viewer::add_gizmo(scene, renderer_->meshes(), *last_gizmo_, camera_,
                      static_cast<float>(height()));
    if (target->subject == GizmoSubject::Goal) add_end_effector_gizmos(scene);
  }
  add_overlay_text(scene);
}

void ViewportWindow::add_end_effector_gizmos(viewer::RenderScene& scene) {
  if (!goal_ || goal_->end_effectors().empty() || !last_gizmo_) return;
  // Smaller than the active one, which the Goal panel's fields are for.
  constexpr float kOtherGizmoScale = 0.65f;
  constexpr viewer::Color kOtherGizmoLabel{1.0f, 0.62f, 0.15f, 1.0f};  // the goal's colour
  for (const auto& [name, pose] : goal_->other_end_effector_poses_world()) {
    viewer::Gizmo gizmo = make_gizmo(GizmoTarget{GizmoSubject::Goal, pose});
    gizmo.hovered = viewer::GizmoHandle::None;
    gizmo.size_px *= kOtherGizmoScale;
    viewer::add_gizmo(scene, renderer_->meshes(), gizmo, camera_, static_cast<float>(height()));
    scene.overlay.labels.push_back({gizmo.pose.translation(), name, kOtherGizmoLabel});
    other_gizmos_.emplace_back(name, gizmo);
  }
  scene.overlay.labels.push_back(
      {last_gizmo_->pose.translation(), goal_->end_effector(), {1, 1, 1, 1}});
}

bool ViewportWindow::grab_other_gizmo(const viewer::Ray& ray) {
  for (const auto& [name, gizmo] : other_gizmos_) {
    const viewer::GizmoHandle handle =
        viewer::pick_gizmo(gizmo, camera_, ray, static_cast<float>(height()));
    if (handle == viewer::GizmoHandle::None) continue;
    goal_->set_end_effector(name);  // the active gizmo moves to this end effector
    const auto target = gizmo_target();
    if (!target || target->subject != GizmoSubject::Goal) return false;
    last_gizmo_ = make_gizmo(*target);
    if (!gizmo_drag_.begin(*last_gizmo_, handle, target->pose, ray)) return false;
    document_.begin_gesture();  // the drag is one undo step
    dragged_subject_ = GizmoSubject::Goal;
    requestUpdate();
    return true;
  }
  return false;
}

void ViewportWindow::render() {
  if (!isExposed() || width() <= 0 || height() <= 0) return;
  frame_clock_.start();
  const qreal scale = devicePixelRatio();
  const auto w = static_cast<uint32_t>(width() * scale),
             h = static_cast<uint32_t>(height() * scale);
  if (!renderer_) {
    VkSurfaceKHR surface = QVulkanInstance::surfaceForWindow(this);
    if (surface == VK_NULL_HANDLE) return;
    renderer_ = std::make_unique<viewer::WindowRenderer>(*context_, surface, w, h);
    renderer_->meshes().set_file_cache(mesh_cache_);
  }
  if (robot_dirty_) rebuild_robot();

  const viewer::FrameQuality quality =
      quality_policy_.choose(static_cast<double>(uptime_.nsecsElapsed()) / 1e6);
  fast_frame_ = quality == viewer::FrameQuality::Fast && renderer_->has_fast_quality();
  viewer::RenderScene scene;
  build_scene(scene);
  last_overlay_ = scene.overlay;
  if (renderer_->render(scene, camera_, quality)) {
    ++frames_drawn_;
    frame_time_ms_ = static_cast<double>(frame_clock_.nsecsElapsed()) / 1e6;
    last_quality_ = quality;
    quality_policy_.drawn(quality, frame_time_ms_,
                          static_cast<double>(uptime_.nsecsElapsed()) / 1e6);
    if (quality_policy_.owes_settle_frame())
      settle_timer_.start();  // restarted by every Fast frame
    last_scene_ = std::move(scene);
    emit frameDrawn();
    if (frames_drawn_ == 1) {
      if (first_frame_) first_frame_();
      // Build the single-sample pipelines while the user looks at the first frame, not during
      // the first drag.
      QTimer::singleShot(0, this, [this] {
        if (renderer_) renderer_->prepare_fast_quality();
      });
    }
  }
}

void ViewportWindow::mousePressEvent(QMouseEvent* event) {
  last_mouse_ = press_position_ = event->position();
  press_moved_ = false;
  if (event->button() == Qt::LeftButton && last_gizmo_) {
    const viewer::Ray ray = ray_at(event->position());
    const viewer::GizmoHandle handle =
        viewer::pick_gizmo(*last_gizmo_, camera_, ray, static_cast<float>(height()));
    if (handle != viewer::GizmoHandle::None) {
      if (const auto target = gizmo_target();
          target && gizmo_drag_.begin(*last_gizmo_, handle, target->pose, ray)) {
        document_.begin_gesture();  // the drag is one undo step
        dragged_subject_ = target->subject;
        requestUpdate();
        return;
      }
    }
    if (goal_ && grab_other_gizmo(ray)) return;
  }
  if (event->button() == Qt::RightButton && dragged_variable_ < 0 &&
      begin_joint_drag(event->position()))
    document_.begin_gesture();
}

bool ViewportWindow::begin_joint_drag(const QPointF& position) {
  dragged_variable_ = -1;
  const RobotModelPtr robot = document_.robot();
  if (!robot || !renderer_) return false;
  const auto hit = viewer::pick(last_scene_, renderer_->meshes(), ray_at(position));
  if (!hit || hit->pick_id <= kRobotPickBase || hit->pick_id >= kScenePickBase) return false;
  int link = static_cast<int>(hit->pick_id - kRobotPickBase - 1);
  // The nearest moving joint above the link (fixed joints pass the drag to their parent).
  while (link >= 0 && link < static_cast<int>(robot->links().size())) {
    const int joint = robot->links()[static_cast<size_t>(link)].parent_joint;
    if (joint < 0) return false;
    const Joint& j = robot->joints()[static_cast<size_t>(joint)];
    const int variable = j.variable_index >= 0 ? j.variable_index : j.mimic_source_variable;
    if (variable >= 0) {
      dragged_variable_ = variable;
      return true;
    }
    link = j.parent_link;
  }
  return false;
}

void ViewportWindow::drag_gizmo_to(const Pose& pose) {
  switch (dragged_subject_) {
    case GizmoSubject::Place:
      if (place_) place_->drag_to(pose);  // panel fields, not the document: no undo entry
      break;
    case GizmoSubject::Obstacle: {
      const std::string name = document_.selected_object().toStdString();
      if (!document_.scene().has_obstacle(name)) return;
      PlanningScene scene = document_.scene();
      scene.move_obstacle(name, pose);
      document_.edit_scene(scene, tr("Move obstacle"));
      break;
    }
    case GizmoSubject::Goal:
      // The gizmo follows at once; IK answers later with the solution nearest the last step's.
      if (goal_) goal_->drag_goal_world(pose);
      break;
  }
}

void ViewportWindow::mouseMoveEvent(QMouseEvent* event) {
  const QPointF delta = event->position() - last_mouse_;
  last_mouse_ = event->position();
  if ((event->position() - press_position_).manhattanLength() > kClickSlopPixels)
    press_moved_ = true;
  if (gizmo_drag_.active() && (event->buttons() & Qt::LeftButton)) {
    drag_gizmo_to(gizmo_drag_.update(ray_at(event->position())));
    requestUpdate();
    return;
  }
  if (event->buttons() == Qt::NoButton) {
    // Hover highlight of the handle under the cursor.
    const viewer::GizmoHandle handle =
        last_gizmo_ ? viewer::pick_gizmo(*last_gizmo_, camera_, ray_at(event->position()),
                                         static_cast<float>(height()))
                    : viewer::GizmoHandle::None;
    if (handle != hovered_) {
      hovered_ = handle;
      requestUpdate();
    }
    return;
  }
  if ((event->buttons() & Qt::RightButton) && dragged_variable_ >= 0) {
    const RobotModelPtr robot = document_.robot();
    JointVector q = document_.joints();
    const bool prismatic = robot->variable_joint(dragged_variable_).type == JointType::Prismatic;
    q[dragged_variable_] -= delta.y() * (prismatic ? kJointMetresPerPixel : kJointRadiansPerPixel);
    document_.edit_joints(robot->clamp_to_limits(q), tr("Drag joint"));
    return;
  }
  if (event->buttons() & Qt::LeftButton) {
    camera_.orbit(static_cast<float>(-delta.x()) * kOrbitRadiansPerPixel,
                  static_cast<float>(delta.y()) * kOrbitRadiansPerPixel);
  } else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton)) {
    camera_.pan(static_cast<float>(delta.x()), static_cast<float>(delta.y()),
                static_cast<float>(height()));
  } else {
    return;
  }
  requestUpdate();
}

void ViewportWindow::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    if (gizmo_drag_.active()) {
      gizmo_drag_.end();
      // The drag's last pose gets every IK solution ("solution n of m" in the Goal panel).
      if (dragged_subject_ == GizmoSubject::Goal && goal_) goal_->end_drag();
      document_.end_gesture();  // the goal's IK answers still owed keep it open
      requestUpdate();
      return;
    }
    if (!press_moved_) click_select(event->position());
  }
  if (event->button() == Qt::RightButton && dragged_variable_ >= 0) {
    dragged_variable_ = -1;
    document_.end_gesture();
  }
}

void ViewportWindow::click_select(const QPointF& position) {
  if (!renderer_) return;
  const auto hit = viewer::pick(last_scene_, renderer_->meshes(), ray_at(position));
  if (hit && hit->pick_id == kPlaceTargetPickId) {
    // Grabs the target as Move in 3D view does. The selection stays as it is, as with the
    // button: the obstacle behind the target is not selected.
    if (place_) place_->request_gizmo(true);
    return;
  }
  std::string name;
  if (hit && hit->pick_id > kScenePickBase)
    name = scene_object_for_pick_id(drawn_scene(), hit->pick_id, kScenePickBase);
  // A click on a link keeps the selection; empty space or an object replaces it.
  if (hit && name.empty()) return;
  // An obstacle takes the gizmo from the place target, even one already selected (no selection
  // change then tells the Task feature); empty space leaves the gizmo where it is.
  if (!name.empty() && place_) place_->request_gizmo(false);
  document_.set_selected_object(QString::fromStdString(name));
}

void ViewportWindow::wheelEvent(QWheelEvent* event) {
  const float steps = static_cast<float>(event->angleDelta().y()) / 120.0f;
  camera_.zoom(std::pow(0.85f, steps));
  requestUpdate();
}

void ViewportWindow::keyPressEvent(QKeyEvent* event) {
  // A native child window gets key events before the widgets' shortcut map sees them: hand them
  // to the main window's actions so the View / Edit keys work while the 3D view has focus.
  if (key_target_) {
    const QKeySequence pressed(event->keyCombination());
    for (QAction* action : key_target_->findChildren<QAction*>()) {
      if (!action->isEnabled()) continue;
      for (const QKeySequence& shortcut : action->shortcuts())
        if (shortcut.matches(pressed) == QKeySequence::ExactMatch) {
          action->trigger();
          event->accept();
          return;
        }
    }
  }
  QWindow::keyPressEvent(event);
}

}  // namespace kinetic::app
