#pragma once
// ViewportWindow: the 3D view. A QWindow with a Vulkan surface made from the viewer's own
// VkInstance (QVulkanInstance wraps it), drawn by the viewer's WindowRenderer. Redraws when the
// document changes; the mouse moves the camera (left orbit, right/middle pan, wheel zoom).
#include <QVulkanInstance>
#include <QWindow>
#include <functional>
#include <memory>
#include <vector>

#include "engine/core/types.hpp"
#include "viewer/camera.hpp"

namespace kinetic::viewer {
class VulkanContext;
class WindowRenderer;
class MeshLibrary;
}  // namespace kinetic::viewer

namespace kinetic {
class ForwardKinematics;
}

namespace kinetic::app {

class StudioDocument;
class RobotVisuals;

class ViewportWindow : public QWindow {
  Q_OBJECT
 public:
  // Throws viewer::Error when no Vulkan device exists (the caller shows the message instead).
  explicit ViewportWindow(StudioDocument& document);
  ~ViewportWindow() override;

  viewer::Camera& camera() { return camera_; }
  // Called once, after the first frame has been presented.
  void on_first_frame(std::function<void()> callback) { first_frame_ = std::move(callback); }
  int frames_drawn() const { return frames_drawn_; }
  const std::vector<std::string>& robot_warnings() const;
  void fit_camera();

 protected:
  void exposeEvent(QExposeEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void rebuild_robot();
  void render();

  StudioDocument& document_;
  std::unique_ptr<viewer::VulkanContext> context_;
  QVulkanInstance qt_instance_;
  std::unique_ptr<viewer::WindowRenderer> renderer_;
  std::unique_ptr<RobotVisuals> robot_visuals_;
  std::unique_ptr<ForwardKinematics> kinematics_;
  std::vector<Pose> link_poses_;
  viewer::Camera camera_;
  QPointF last_mouse_;
  std::function<void()> first_frame_;
  int frames_drawn_ = 0;
  bool robot_dirty_ = true;
};

}  // namespace kinetic::app
