#pragma once
// Builds the studio: document, robot, 3D viewport and main window, from the command line.
#include <functional>
#include <memory>

#include "app/command_line.hpp"
#include "app/document/studio_document.hpp"
#include "app/main_window.hpp"

namespace kinetic::app {

class ViewportWindow;

struct Studio {
  std::unique_ptr<StudioDocument> document;
  std::unique_ptr<MainWindow> window;
  ViewportWindow* viewport = nullptr;  // owned by the window; null when Vulkan is unavailable

  // Runs `callback` once the viewport has presented its first frame (at once without a viewport).
  void on_first_frame(std::function<void()> callback);
};

// Returns null (after printing why) only when not even a fallback robot could be loaded.
std::unique_ptr<Studio> create_studio(const CommandLine& line);

}  // namespace kinetic::app
