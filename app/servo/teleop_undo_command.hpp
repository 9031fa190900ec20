#pragma once
// A teleoperation session as one undo step: the joints it started from and where the arm is.
// Pushed when the arm first moves (so Ctrl+Z works mid-session) and then kept up to date frame by
// frame; its id is -1, so it never merges with the slider and gizmo edits around it.
#include <QUndoCommand>
#include <functional>
#include <utility>

#include "engine/core/types.hpp"

namespace kinetic::app {

class TeleopUndoCommand : public QUndoCommand {
 public:
  using Setter = std::function<void(const JointVector&)>;

  TeleopUndoCommand(const QString& text, JointVector before, JointVector after, Setter setter)
      : QUndoCommand(text),
        before_(std::move(before)),
        after_(std::move(after)),
        setter_(std::move(setter)) {}

  void set_after(const JointVector& q) { after_ = q; }
  const JointVector& before() const { return before_; }
  const JointVector& after() const { return after_; }

  void redo() override {
    // QUndoStack::push() redoes at once; the arm is already there.
    if (pushed_) setter_(after_);
    pushed_ = true;
  }
  void undo() override { setter_(before_); }

 private:
  JointVector before_, after_;
  Setter setter_;
  bool pushed_ = false;
};

}  // namespace kinetic::app
