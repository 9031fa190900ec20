#include "app/studio_window_factory.hpp"

#include <QLabel>
#include <QStatusBar>
#include <QTimer>
#include <cstdio>

#include "app/document/robot_files_text.hpp"
#include "app/robot/robot_load_warnings.hpp"
#include "app/viewport/viewport_window.hpp"

namespace kinetic::app {

void Studio::on_first_frame(std::function<void()> callback) {
  if (viewport) {
    viewport->on_first_frame(std::move(callback));
  } else {
    QTimer::singleShot(200, std::move(callback));
  }
}

std::unique_ptr<Studio> create_studio(const CommandLine& line) {
  auto studio = std::make_unique<Studio>();
  studio->document = std::make_unique<StudioDocument>();
  QString load_error = studio->document->load_robot(
      line.robot, companion_choice(line.srdf), companion_choice(line.config), line.package_paths);
  if (!load_error.isEmpty()) {
    std::fprintf(stderr, "kinetic-studio: %s\n", qPrintable(load_error));
    // Keep working with the default robot rather than refusing to start.
    if (line.robot != QStringLiteral("ur5e") &&
        studio->document->load_robot(QStringLiteral("ur5e")).isEmpty()) {
      load_error = QStringLiteral("%1\nOpened the UR5e instead.").arg(load_error);
    } else {
      return nullptr;
    }
  }

  QWidget* central = nullptr;
  try {
    studio->viewport = new ViewportWindow(*studio->document);
    central = QWidget::createWindowContainer(studio->viewport);
    central->setMinimumSize(320, 240);
    central->setFocusPolicy(Qt::StrongFocus);
  } catch (const std::exception& error) {
    // No Vulkan device: everything but the 3D view still works.
    delete studio->viewport;
    studio->viewport = nullptr;
    auto* label =
        new QLabel(QStringLiteral("The 3D view is unavailable: %1\nInstall a Vulkan driver "
                                  "(mesa-vulkan-drivers provides a software one).")
                       .arg(QString::fromUtf8(error.what())));
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    central = label;
    std::fprintf(stderr, "kinetic-studio: 3D view unavailable: %s\n", error.what());
  }
  studio->window = std::make_unique<MainWindow>(*studio->document, central);
  studio->window->attach_viewport(studio->viewport);
  if (!line.session.isEmpty()) {
    // Once the window is up (after the crash-recovery question, if there is one), so a bad file
    // is reported over it and the studio stays open.
    QTimer::singleShot(
        0, studio->window.get(),
        [window = studio->window.get(), path = line.session] { window->open_session(path); });
  }
  if (!load_error.isEmpty()) {
    QTimer::singleShot(0, studio->window.get(), [window = studio->window.get(), load_error] {
      window->report_error(QStringLiteral("Could not load robot"), load_error);
    });
  } else if (!studio->document->robot()->load_warnings().empty()) {
    // A mesh the loader could not find: said as when a robot is opened from the menu.
    for (const std::string& warning : studio->document->robot()->load_warnings())
      std::fprintf(stderr, "kinetic-studio: warning: %s\n", warning.c_str());
    QTimer::singleShot(
        0, studio->window.get(),
        [window = studio->window.get(), text = robot_load_warnings_text(*studio->document->robot()),
         loaded = robot_loaded_message(*studio->document)] {
          window->report_error(QStringLiteral("%1 with warnings").arg(loaded), text);
        });
  } else if (studio->document->robot_is_file()) {
    // Which SRDF and kinetic.toml came with the URDF, found or named, as after File → Open.
    studio->window->statusBar()->showMessage(robot_loaded_message(*studio->document), 10000);
  }
  return studio;
}

}  // namespace kinetic::app
