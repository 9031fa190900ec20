// kinetic-studio: the studio window, or --help / --version / --headless without a display.
#include <QApplication>
#include <QCoreApplication>
#include <QScreen>
#include <QTimer>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "app/app_icon.hpp"
#include "app/command_line.hpp"
#include "app/headless/headless_runner.hpp"
#include "app/studio_window_factory.hpp"
#include "engine/core/version.hpp"

namespace {

void set_application_identity() {
  QCoreApplication::setOrganizationName(QStringLiteral("Kinetic"));
  QCoreApplication::setApplicationName(QStringLiteral("kinetic-studio"));
  QCoreApplication::setApplicationVersion(QString::fromLatin1(kinetic::version()));
}

}  // namespace

int main(int argc, char** argv) {
  set_application_identity();
  std::optional<kinetic::app::CommandLine> line;
  {
    // The whole command line is parsed before a QApplication exists, so --help, --version,
    // --headless and usage errors never need a display (QApplication aborts without one).
    const QCoreApplication parsing(argc, argv);
    line = kinetic::app::parse_command_line(
        kinetic::app::without_qt_gui_options(QCoreApplication::arguments()));
    if (!line) return 2;
    if (line->headless) return kinetic::app::headless::run_headless(*line, std::cout, std::cerr);
  }

  QApplication app(argc, argv);
  QApplication::setWindowIcon(kinetic::app::studio_icon());
  // Wayland has no window icons: the compositor takes the icon from the desktop entry named here.
  QGuiApplication::setDesktopFileName(QStringLiteral("kinetic-studio"));
  auto studio = kinetic::app::create_studio(*line);
  if (!studio) return 1;
  studio->window->show();

  if (!line->screenshot.isEmpty()) {
    // Grab from the screen, not the widget: the 3D view is a native Vulkan window that
    // QWidget::grab() cannot see.
    // A short pause after the first 3D frame lets the widgets around it paint too.
    studio->on_first_frame([&studio, path = line->screenshot] {
      QTimer::singleShot(400, [&studio, path] {
        QWidget* window = studio->window.get();
        const QPixmap shot = window->screen()->grabWindow(window->winId());
        const bool saved = shot.save(path, "PNG");
        std::fprintf(saved ? stdout : stderr, "%s %s\n", saved ? "screenshot:" : "could not write",
                     qPrintable(path));
        QCoreApplication::exit(saved ? 0 : 1);
      });
    });
  }
  // exit(), not quit(): a scripted run ends without the unsaved-changes question (Qt 6's quit()
  // closes the windows first); unsaved changes stay in the autosave for the next start.
  if (line->quit_after_ms >= 0)
    QTimer::singleShot(line->quit_after_ms, &app, [] { QCoreApplication::exit(0); });
  return app.exec();
}
