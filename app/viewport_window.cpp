#include "app/viewport_window.hpp"

#include <QMouseEvent>
#include <QPlatformSurfaceEvent>
#include <QWheelEvent>
#include <cmath>

#include "app/scene_bridge/robot_visuals.hpp"
#include "app/studio_document.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
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
}  // namespace

ViewportWindow::ViewportWindow(StudioDocument& document)
    : document_(document), context_(std::make_unique<viewer::VulkanContext>(window_options())) {
  setSurfaceType(QSurface::VulkanSurface);
  qt_instance_.setVkInstance(context_->instance());
  if (!qt_instance_.create())
    throw std::runtime_error("Qt could not use the Vulkan instance (error " +
                             std::to_string(qt_instance_.errorCode()) + ")");
  setVulkanInstance(&qt_instance_);
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    robot_dirty_ = true;
    requestUpdate();
  });
  connect(&document_, &StudioDocument::jointsChanged, this, [this] { requestUpdate(); });
}

ViewportWindow::~ViewportWindow() {
  // GPU objects go before the surface (owned by Qt) and the instance.
  robot_visuals_.reset();
  renderer_.reset();
  destroy();
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
    renderer_->resize(static_cast<uint32_t>(width() * scale), static_cast<uint32_t>(height() * scale));
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
    renderer_.reset();
    robot_dirty_ = true;
  }
  return QWindow::event(event);
}

void ViewportWindow::rebuild_robot() {
  robot_dirty_ = false;
  const RobotModelPtr robot = document_.robot();
  robot_visuals_.reset();
  kinematics_.reset();
  if (!robot) return;
  robot_visuals_ = std::make_unique<RobotVisuals>(renderer_->meshes(), robot);
  kinematics_ = std::make_unique<ForwardKinematics>(*robot);
  fit_camera();
}

void ViewportWindow::fit_camera() {
  if (!robot_visuals_ || !kinematics_) return;
  kinematics_->compute(document_.joints(), link_poses_);
  viewer::Vec3 min, max;
  robot_visuals_->bounds(link_poses_, min, max);
  camera_.fit(min, max, static_cast<float>(std::max(1, width())) / static_cast<float>(std::max(1, height())));
}

void ViewportWindow::render() {
  if (!isExposed() || width() <= 0 || height() <= 0) return;
  const qreal scale = devicePixelRatio();
  const auto w = static_cast<uint32_t>(width() * scale), h = static_cast<uint32_t>(height() * scale);
  if (!renderer_) {
    VkSurfaceKHR surface = QVulkanInstance::surfaceForWindow(this);
    if (surface == VK_NULL_HANDLE) return;
    renderer_ = std::make_unique<viewer::WindowRenderer>(*context_, surface, w, h);
  }
  if (robot_dirty_) rebuild_robot();

  viewer::RenderScene scene;
  if (robot_visuals_) {
    kinematics_->compute(document_.joints(), link_poses_);
    robot_visuals_->append(scene, link_poses_);
    for (const std::string& warning : robot_visuals_->warnings()) scene.overlay.warnings.push_back(warning);
  }
  if (renderer_->render(scene, camera_)) {
    ++frames_drawn_;
    if (frames_drawn_ == 1 && first_frame_) first_frame_();
  }
}

void ViewportWindow::mousePressEvent(QMouseEvent* event) { last_mouse_ = event->position(); }

void ViewportWindow::mouseMoveEvent(QMouseEvent* event) {
  const QPointF delta = event->position() - last_mouse_;
  last_mouse_ = event->position();
  if (event->buttons() & Qt::LeftButton) {
    camera_.orbit(static_cast<float>(-delta.x()) * kOrbitRadiansPerPixel,
                  static_cast<float>(delta.y()) * kOrbitRadiansPerPixel);
  } else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton)) {
    camera_.pan(static_cast<float>(delta.x()), static_cast<float>(delta.y()), static_cast<float>(height()));
  } else {
    return;
  }
  requestUpdate();
}

void ViewportWindow::wheelEvent(QWheelEvent* event) {
  const float steps = static_cast<float>(event->angleDelta().y()) / 120.0f;
  camera_.zoom(std::pow(0.85f, steps));
  requestUpdate();
}

}  // namespace kinetic::app
