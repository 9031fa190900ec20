#pragma once
// The folder each kind of file dialog was last used in, kept across runs in the application's
// QSettings ("file_dialogs/<kind>"), so the next dialog for trajectories, scenes, meshes, sessions
// or robots opens where the user last was rather than in the working directory. Every dialog of
// a kind shares its folder (Import and Export of trajectories, the Scene panel's and the File
// menu's scene dialogs).
#include <QString>

class QSettings;

namespace kinetic::panels {

enum class FileDialogKind { Trajectory, Scene, Mesh, Session, Robot };

// The folder a dialog of this kind last chose a file in; "" before the first or when that folder
// is gone (the dialog then opens where it would by default). Without `settings`: the
// application's QSettings.
QString last_dialog_folder(FileDialogKind kind);
QString last_dialog_folder(FileDialogKind kind, const QSettings& settings);

// Remembers the folder of `chosen`, a file a dialog of this kind returned ("" — cancelled — is
// ignored).
void remember_dialog_folder(FileDialogKind kind, const QString& chosen);
void remember_dialog_folder(FileDialogKind kind, const QString& chosen, QSettings& settings);

// A save dialog's suggestion: `file_name` in the remembered folder ("plan-3.json" ->
// "/home/me/cell/plan-3.json"), or alone when none is remembered.
QString in_last_dialog_folder(FileDialogKind kind, const QString& file_name);
QString in_last_dialog_folder(FileDialogKind kind, const QString& file_name,
                              const QSettings& settings);

}  // namespace kinetic::panels
