#pragma once
// The studio as the teleop tests open it: the UR5e at "ready" (its "home" stands straight up, a
// singularity for Cartesian jogging; "ready" has room in every direction), no undo history, the
// Teleop dock in front (its buttons take real mouse events) and the window exposed.
#include <QtTest>
#include <memory>

#include "app/studio_window_factory.hpp"
#include "support/pose_difference.hpp"

namespace kinetic::test {

// nullptr (with a warning saying why) when the studio did not open as expected.
inline std::unique_ptr<app::Studio> open_teleop_studio() {
  auto studio = app::create_studio(app::CommandLine{});
  if (!studio || studio->document->robot()->name() != "ur5e") {
    qWarning("the studio did not open with the UR5e");
    return nullptr;
  }
  studio->document->set_joints(studio->document->robot()->named_pose("ready"));
  studio->document->undo_stack().clear();
  if (!studio->window->teleop().panel || !studio->window->teleop().controller) {
    qWarning("the studio has no Teleop panel");
    return nullptr;
  }
  studio->window->teleop().dock->raise();
  studio->window->show();
  if (!QTest::qWaitForWindowExposed(studio->window.get()) ||
      !QTest::qWaitFor([&] { return studio->window->teleop().panel->isVisible(); }, 2000)) {
    qWarning("the studio window or its Teleop panel was not shown");
    return nullptr;
  }
  return studio;
}

}  // namespace kinetic::test
