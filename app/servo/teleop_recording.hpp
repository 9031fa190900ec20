#pragma once
// The Teleop panel's Record: records each teleoperation session into a trajectory with the
// studio's TrajectoryRecorder (the Trajectories panel's rate and timing). Checked while enabled,
// it records from now; checked before enabling, from the start of the session. Disabling ends the
// recording (the timed trajectory lands in the Trajectories list) and unchecks it. A recording
// the user started from the Trajectories panel is left alone.
#include <QObject>

namespace kinetic::panels {
class ServoPanel;
}

namespace kinetic::app {

class StudioDocument;
class TeleopController;
class TrajectoryFeatures;

class TeleopRecording : public QObject {
  Q_OBJECT
 public:
  TeleopRecording(StudioDocument& document, panels::ServoPanel& panel, TeleopController& controller,
                  TrajectoryFeatures& trajectories, QObject* parent = nullptr);

 private:
  void on_record_toggled(bool on);
  void on_enabled_changed(bool enabled);
  void on_recording_changed(bool recording);
  void on_finished(int index, const QString& error);

  StudioDocument& document_;
  panels::ServoPanel& panel_;
  TeleopController& controller_;
  TrajectoryFeatures& trajectories_;
  bool ours_ = false;      // the recorder runs because of this panel
  bool awaiting_ = false;  // our recording is being timed
};

}  // namespace kinetic::app
