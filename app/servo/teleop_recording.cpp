#include "app/servo/teleop_recording.hpp"

#include "app/document/studio_document.hpp"
#include "app/servo/teleop_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

TeleopRecording::TeleopRecording(StudioDocument& document, panels::ServoPanel& panel,
                                 TeleopController& controller, TrajectoryFeatures& trajectories,
                                 QObject* parent)
    : QObject(parent),
      document_(document),
      panel_(panel),
      controller_(controller),
      trajectories_(trajectories) {
  connect(&panel_, &panels::ServoPanel::recordToggled, this, &TeleopRecording::on_record_toggled);
  connect(&controller_, &TeleopController::enabledChanged, this,
          &TeleopRecording::on_enabled_changed);
  connect(&trajectories_.recorder(), &TrajectoryRecorder::recordingChanged, this,
          &TeleopRecording::on_recording_changed);
  connect(&trajectories_.recorder(), &TrajectoryRecorder::finished, this,
          &TeleopRecording::on_finished);
}

void TeleopRecording::on_record_toggled(bool on) {
  if (!controller_.enabled()) return;  // armed: starts with the session
  if (on && !trajectories_.recorder().recording()) {
    ours_ = true;
    trajectories_.set_recording(true);
  } else if (!on && ours_) {
    trajectories_.set_recording(false);
  }
}

void TeleopRecording::on_enabled_changed(bool enabled) {
  if (enabled) {
    if (panel_.record_requested()) on_record_toggled(true);
    return;
  }
  if (ours_ && trajectories_.recorder().recording()) trajectories_.set_recording(false);
  panel_.set_recording(false);
}

void TeleopRecording::on_recording_changed(bool recording) {
  if (recording || !ours_) return;
  // Stopped here, by disabling, from the Trajectories panel or by a robot change.
  ours_ = false;
  awaiting_ = true;
  panel_.set_recording(false);
}

void TeleopRecording::on_finished(int index, const QString& error) {
  if (!awaiting_) return;
  awaiting_ = false;
  if (index < 0) {
    panel_.show_note(error, true);
    return;
  }
  const auto& list = document_.trajectories();
  if (index >= static_cast<int>(list.size())) return;
  panel_.show_note(tr("Recorded %1 samples into '%2' (Trajectories list).")
                       .arg(trajectories_.recorder().samples().size())
                       .arg(list[static_cast<std::size_t>(index)].name),
                   false);
}

}  // namespace kinetic::app
