// Qt Test: undo steps of a gesture (StudioDocument::begin_gesture). A drag in the 3D view is one
// undo step however slowly its steps come: on a machine slow to answer them (IK, a software
// renderer's frames) they came more than the merge window apart and one drag took six steps. No
// edit before or after a gesture joins its step, and edits outside gestures keep the time window.
#include <QtTest>

#include "app/document/document_commands.hpp"
#include "app/document/studio_document.hpp"

using kinetic::JointVector;
using kinetic::app::StudioDocument;
using kinetic::app::ValueEditCommand;

namespace {

// Longer than the merge window: without a gesture, edits this far apart are separate steps.
constexpr int kPastTheWindowMs = static_cast<int>(ValueEditCommand<int>::kMergeWindowMs) + 150;

}  // namespace

class UndoGestureTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    document_ = std::make_unique<StudioDocument>();
    QCOMPARE(document_->load_robot(QStringLiteral("ur5e")), QString());
    start_ = document_->joints();
    steps_ = document_->undo_stack().count();
  }

  void a_slow_gesture_is_one_undo_step() {
    document_->begin_gesture();
    for (const double angle : {0.1, 0.2, 0.3}) {
      document_->edit_joints(turned(angle), QStringLiteral("Drag joint"));
      QTest::qWait(kPastTheWindowMs);
    }
    document_->end_gesture();
    QCOMPARE(document_->undo_stack().count(), steps_ + 1);
    QCOMPARE(document_->joints(), turned(0.3));
    document_->undo_stack().undo();
    QCOMPARE(document_->joints(), start_);
  }

  void edits_just_before_and_after_a_gesture_are_steps_of_their_own() {
    document_->edit_joints(turned(0.1), QStringLiteral("Drag joint"));
    document_->begin_gesture();
    document_->edit_joints(turned(0.2), QStringLiteral("Drag joint"));
    document_->end_gesture();
    document_->edit_joints(turned(0.3), QStringLiteral("Drag joint"));
    QCOMPARE(document_->undo_stack().count(), steps_ + 3);
    document_->undo_stack().undo();
    QCOMPARE(document_->joints(), turned(0.2));
    document_->undo_stack().undo();
    QCOMPARE(document_->joints(), turned(0.1));
  }

  void two_quick_gestures_are_two_steps() {
    for (const double angle : {0.1, 0.2}) {
      document_->begin_gesture();
      document_->edit_joints(turned(angle), QStringLiteral("Drag joint"));
      document_->end_gesture();
    }
    QCOMPARE(document_->undo_stack().count(), steps_ + 2);
  }

  // The view's drag and the goal's owed IK answers each hold the gesture: it lasts until both end.
  void a_nested_gesture_ends_with_the_outermost() {
    document_->begin_gesture();
    document_->begin_gesture();
    document_->edit_joints(turned(0.1), QStringLiteral("Drag joint"));
    document_->end_gesture();  // the view's release
    QTest::qWait(kPastTheWindowMs);
    document_->edit_joints(turned(0.2), QStringLiteral("Drag joint"));  // the last answer
    document_->end_gesture();
    document_->end_gesture();  // one end too many changes nothing
    QCOMPARE(document_->undo_stack().count(), steps_ + 1);
  }

  void outside_gestures_the_time_window_still_merges() {
    document_->edit_joints(turned(0.1), QStringLiteral("Move joints"));
    document_->edit_joints(turned(0.2), QStringLiteral("Move joints"));
    QCOMPARE(document_->undo_stack().count(), steps_ + 1);
    QTest::qWait(kPastTheWindowMs);
    document_->edit_joints(turned(0.3), QStringLiteral("Move joints"));
    QCOMPARE(document_->undo_stack().count(), steps_ + 2);
  }

 private:
  JointVector turned(double angle) const {
    JointVector q = start_;
    q[0] += angle;
    return q;
  }

  std::unique_ptr<StudioDocument> document_;
  JointVector start_;
  int steps_ = 0;
};

QTEST_MAIN(UndoGestureTest)
#include "undo_gesture_test.moc"
