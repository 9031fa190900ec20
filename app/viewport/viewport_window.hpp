#pragma once
// ViewportWindow: the 3D view. A QWindow with a Vulkan surface made from the viewer's own
// VkInstance (QVulkanInstance wraps it), drawn by the viewer's WindowRenderer. Redraws when the
// document changes. It draws the robot (colliding links highlighted), the goal ghost and the goal
// gizmo, playback and stroboscope ghosts, the scene's obstacles, the shown trajectory's trail and
// the Task panel's place target (a violet ghost of the part where it will be put).
// While a trajectory with scene changes plays, the world drawn is the playback scene, its held
// objects on the playback ghost.
// Mouse: left-drag a gizmo handle moves the goal (or the selected obstacle, or the place target
// while the Task panel's Move in 3D view is on: position and yaw only), left-click selects an
// obstacle (empty space deselects), left-drag elsewhere orbits, right-drag on a link turns its
// joint, right/middle-drag elsewhere pans, wheel zooms.
// Left-click on the place target (where nothing is in front of it; a target not yet moved wraps
// its object, so a click there takes the target) turns Move in 3D view on, as the panel's button
// does, and leaves the selection. While the target has the gizmo, a click on an obstacle selects
// it and gives the gizmo to it (Move in 3D view off); a click on empty space (which still
// deselects) or on a link leaves the gizmo on the target, so a press that just misses a handle
// does not drop it.
#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QVulkanInstance>
#include <QWindow>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/goal/gizmo_drag.hpp"
#include "app/viewport/frame_quality_policy.hpp"
#include "app/viewport/view_options.hpp"
#include "engine/core/types.hpp"
#include "viewer/camera.hpp"
#include "viewer/gizmo.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::viewer {
class VulkanContext;
class WindowRenderer;
class MeshLibrary;
class MeshFileCache;
}  // namespace kinetic::viewer

namespace kinetic {
class ForwardKinematics;
class PlanningScene;
class RobotModel;
}  // namespace kinetic

namespace kinetic::app {

class StudioDocument;
class RobotVisuals;
class GoalController;
class CollisionMonitor;
class PlaceTarget;

class ViewportWindow : public QWindow {
  Q_OBJECT
 public:
  // Pick ids: robot links from kRobotPickBase + 1, scene objects from kScenePickBase + 1, the
  // Task panel's place target kPlaceTargetPickId (below both).
  static constexpr uint32_t kRobotPickBase = 1000;
  static constexpr uint32_t kScenePickBase = 100000;
  static constexpr uint32_t kPlaceTargetPickId = 1;

  // Throws viewer::Error when no Vulkan device exists (the caller shows the message instead).
  explicit ViewportWindow(StudioDocument& document);
  ~ViewportWindow() override;

  // Optional collaborators (owned by the main window): the goal gizmo's pose and IK, and live
  // collision results.
  void set_goal_controller(GoalController* goal);
  void set_collision_monitor(CollisionMonitor* monitor);
  // The Task panel's place target: drawn while it has a marker, moved by the gizmo when it asks.
  void set_place_target(PlaceTarget* target);
  // Key presses the view does not use go to this object (the main window, for its shortcuts).
  void set_key_forwarding(QObject* target) { key_target_ = target; }

  viewer::Camera& camera() { return camera_; }
  // Replaces the camera (a restored session's); the next robot rebuild keeps it instead of fitting.
  // The projection stays as ViewOption::Orthographic says.
  void set_camera(const viewer::Camera& camera);
  // Turns the camera to a standard view around the same target, at the same distance.
  void show_standard_view(viewer::StandardView view);
  // Called once, after the first frame has been presented.
  void on_first_frame(std::function<void()> callback) { first_frame_ = std::move(callback); }
  int frames_drawn() const { return frames_drawn_; }
  double frame_time_ms() const { return frame_time_ms_; }
  // The last presented frame's quality (Fast: drawn single-sample at a reduced resolution during
  // motion on a slow device).
  viewer::FrameQuality last_frame_quality() const { return last_quality_; }
  const std::vector<std::string>& robot_warnings() const;
  // Work for a robot load's worker thread: reads the robot's display meshes (visual and
  // collision) into the cache this view uploads from, except those it holds already, so the
  // rebuild after robotChanged only uploads them. Made on the GUI thread; what it returns needs
  // nothing of this window (it may run after the window is gone) and stops between files when
  // `cancel` turns true.
  std::function<void(const RobotModel& robot, const std::atomic<bool>* cancel)> mesh_warmer() const;
  // Resets the view: the default direction, framing the robot at its current joints.
  void fit_camera();
  void focus_goal();

  void set_option(ViewOption option, bool on);
  bool option(ViewOption option) const;

  // What the last frame's overlay was given to show (for tests and tools); the overlay adds the
  // frame's own statistics (triangles, draw calls, instances) under the frame time.
  const viewer::OverlayContent& last_overlay() const { return last_overlay_; }
  // The gizmo as last drawn (for tests and tools); nullopt when none is shown.
  std::optional<viewer::Gizmo> gizmo() const;
  // The smaller gizmos of the goal's other end effectors (a group of two arms), by name, as last
  // drawn; grabbing one makes its end effector the active one and drags it.
  const std::vector<std::pair<std::string, viewer::Gizmo>>& other_gizmos() const {
    return other_gizmos_;
  }
  // Pixel (logical coordinates) where a world point projects; nullopt behind the camera.
  std::optional<QPointF> project(const Vector3& world) const;

 signals:
  void frameDrawn();

 protected:
  void exposeEvent(QExposeEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void rebuild_robot();
  void render();
  void build_scene(viewer::RenderScene& scene);
  void add_ghost(viewer::RenderScene& scene, const JointVector& q, viewer::Color tint,
                 const std::vector<int>& highlighted = {});
  void add_collision_overlays(viewer::RenderScene& scene);
  void add_trail(viewer::RenderScene& scene);
  void add_overlay_text(viewer::RenderScene& scene);
  void add_world(viewer::RenderScene& scene);
  // The scene drawn: the playback scene while one is shown with its ghost, else the document's.
  const PlanningScene& drawn_scene() const;
  // What the gizmo moves: the place target when it asks, else the selected obstacle, else the
  // goal TCP (world frame).
  enum class GizmoSubject { Goal, Obstacle, Place };
  struct GizmoTarget {
    GizmoSubject subject = GizmoSubject::Goal;
    Pose pose = Pose::Identity();
  };
  std::optional<GizmoTarget> gizmo_target() const;
  viewer::Gizmo make_gizmo(const GizmoTarget& target) const;
  void add_place_marker(viewer::RenderScene& scene);
  // The goal's other end effectors' gizmos, and every end effector's name beside its gizmo.
  void add_end_effector_gizmos(viewer::RenderScene& scene);
  // A press on one of them: that end effector becomes the goal's active one. True when a drag
  // began.
  bool grab_other_gizmo(const viewer::Ray& ray);
  viewer::Ray ray_at(const QPointF& position) const;
  void drag_gizmo_to(const Pose& pose);
  void click_select(const QPointF& position);
  bool begin_joint_drag(const QPointF& position);

  StudioDocument& document_;
  std::unique_ptr<viewer::VulkanContext> context_;
  QVulkanInstance qt_instance_;
  std::unique_ptr<viewer::WindowRenderer> renderer_;
  // Meshes read by robot loads' workers, for every renderer this window makes (mesh_warmer()).
  std::shared_ptr<viewer::MeshFileCache> mesh_cache_;
  std::unique_ptr<RobotVisuals> robot_visuals_;
  std::unique_ptr<RobotVisuals> collision_visuals_;
  std::unique_ptr<ForwardKinematics> kinematics_;
  std::vector<Pose> link_poses_;
  std::vector<Pose> ghost_poses_;
  std::vector<Pose> playback_poses_;  // the playback ghost's links: held objects ride on them
  viewer::Camera camera_;
  QPointer<GoalController> goal_;
  QPointer<CollisionMonitor> collisions_;
  QPointer<PlaceTarget> place_;
  QPointer<QObject> key_target_;

  // Mouse gestures.
  QPointF last_mouse_, press_position_;
  bool press_moved_ = false;
  GizmoDrag gizmo_drag_;
  GizmoSubject dragged_subject_ = GizmoSubject::Goal;  // of the drag in progress
  viewer::GizmoHandle hovered_ = viewer::GizmoHandle::None;
  int dragged_variable_ = -1;  // joint turned by a right-drag on its link

  // Last frame, for picking what the user sees.
  viewer::RenderScene last_scene_;
  std::optional<viewer::Gizmo> last_gizmo_;
  std::vector<std::pair<std::string, viewer::Gizmo>> other_gizmos_;

  // Trail of the shown trajectory, rebuilt when it changes.
  std::vector<Vector3> trail_;
  bool trail_dirty_ = true;
  std::string trail_error_;

  bool options_[kViewOptionCount] = {true, true, true};  // grid, axes, trail; the rest off
  std::function<void()> first_frame_;
  int frames_drawn_ = 0;
  double frame_time_ms_ = 0;
  QElapsedTimer frame_clock_;
  QElapsedTimer uptime_;  // steady clock for the quality policy
  FrameQualityPolicy quality_policy_;
  viewer::FrameQuality last_quality_ = viewer::FrameQuality::Full;
  viewer::OverlayContent last_overlay_;
  QTimer settle_timer_;  // draws the Full frame owed after motion
  bool robot_dirty_ = true;
  bool fast_frame_ = false;         // the frame being built is a Fast one (lighter ghosts)
  bool camera_fit_pending_ = true;  // a new robot is framed once it is built
};

}  // namespace kinetic::app
