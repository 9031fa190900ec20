#pragma once
// Undo commands for the studio document: each stores the value before and after an edit and
// applies it through a setter. The edits of one gesture (a drag in the 3D view, see
// StudioDocument::begin_gesture) merge into one undo step however long it lasts, and nothing else
// merges into them; other consecutive edits of the same kind merge while they come less than
// kMergeWindowMs apart (a slider drag); discrete edits (a click on Store or Delete) are built
// with merges = false and stay one step each.
#include <QElapsedTimer>
#include <QUndoCommand>
#include <functional>
#include <utility>

namespace kinetic::app {

// Ids for QUndoCommand::id(): commands with the same id may merge.
enum class EditKind { Joints = 1, Scene, Goal, Trajectories, StoredStates };

template <typename Value>
class ValueEditCommand : public QUndoCommand {
 public:
  using Setter = std::function<void(const Value&)>;
  // Edits outside a gesture further apart than this start a new undo step.
  static constexpr qint64 kMergeWindowMs = 800;

  // `gesture`: the open gesture's number, 0 outside one.
  ValueEditCommand(EditKind kind, const QString& text, Value before, Value after, Setter setter,
                   bool merges = true, quint64 gesture = 0)
      : QUndoCommand(text),
        kind_(kind),
        before_(std::move(before)),
        after_(std::move(after)),
        setter_(std::move(setter)),
        merges_(merges),
        gesture_(gesture) {
    clock_.start();
  }

  void redo() override { setter_(after_); }
  void undo() override { setter_(before_); }
  int id() const override { return static_cast<int>(kind_); }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = dynamic_cast<const ValueEditCommand*>(other);
    if (!merges_ || !next || next->text() != text()) return false;
    // A gesture's edits merge by its number, not by time: on a machine slow to answer a drag's
    // steps (IK, frames of a software renderer) they came more than the window apart, and one
    // drag took several undo steps.
    if (gesture_ != 0 || next->gesture_ != 0) {
      if (next->gesture_ != gesture_) return false;
    } else if (clock_.elapsed() > kMergeWindowMs) {
      return false;
    }
    after_ = next->after_;
    clock_.restart();
    return true;
  }

 private:
  EditKind kind_;
  Value before_, after_;
  Setter setter_;
  bool merges_;
  quint64 gesture_;
  QElapsedTimer clock_;
};

}  // namespace kinetic::app
