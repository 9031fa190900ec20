#pragma once
// Undo commands for the studio document: each stores the value before and after an edit and
// applies it through a setter. Consecutive edits of the same kind merge while a gesture lasts
// (a slider drag or a gizmo drag becomes one undo step); discrete edits (a click on Store or
// Delete) are built with merges = false and stay one step each.
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
  // Edits further apart than this start a new undo step.
  static constexpr qint64 kMergeWindowMs = 800;

  ValueEditCommand(EditKind kind, const QString& text, Value before, Value after, Setter setter,
                   bool merges = true)
      : QUndoCommand(text),
        kind_(kind),
        before_(std::move(before)),
        after_(std::move(after)),
        setter_(std::move(setter)),
        merges_(merges) {
    clock_.start();
  }

  void redo() override { setter_(after_); }
  void undo() override { setter_(before_); }
  int id() const override { return static_cast<int>(kind_); }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = dynamic_cast<const ValueEditCommand*>(other);
    if (!merges_ || !next || next->text() != text() || clock_.elapsed() > kMergeWindowMs)
      return false;
    after_ = next->after_;
    clock_.restart();
    return true;
  }

 private:
  EditKind kind_;
  Value before_, after_;
  Setter setter_;
  bool merges_;
  QElapsedTimer clock_;
};

}  // namespace kinetic::app
