// The viewport's frame-quality policy: multisampled still frames, single-sample frames only while
// the view keeps changing on a device too slow for multisampled ones, and a settle frame after.
#include <QtTest>

#include "app/viewport/frame_quality_policy.hpp"

using kinetic::app::FrameQualityPolicy;
using kinetic::viewer::FrameQuality;

class FrameQualityPolicyTest : public QObject {
  Q_OBJECT
 private slots:
  void slow_device_drops_multisampling_only_during_motion() {
    FrameQualityPolicy policy(33.0, 150.0);
    QCOMPARE(policy.choose(0.0), FrameQuality::Full);    // the first frame
    policy.drawn(FrameQuality::Full, 80.0, 80.0);        // lavapipe-like cost
    QCOMPARE(policy.choose(100.0), FrameQuality::Fast);  // next frame 20 ms later: motion
    policy.drawn(FrameQuality::Fast, 25.0, 125.0);
    QVERIFY(policy.owes_settle_frame());
    QCOMPARE(policy.choose(140.0), FrameQuality::Fast);
    policy.drawn(FrameQuality::Fast, 25.0, 165.0);
    // The settle frame after the motion stops is full quality and pays the debt.
    QCOMPARE(policy.choose(165.0 + 160.0), FrameQuality::Full);
    policy.drawn(FrameQuality::Full, 80.0, 405.0);
    QVERIFY(!policy.owes_settle_frame());
  }

  void fast_device_stays_multisampled() {
    FrameQualityPolicy policy(33.0, 150.0);
    policy.drawn(FrameQuality::Full, 4.0, 4.0);
    for (double t = 20.0; t < 500.0; t += 16.0) {
      QCOMPARE(policy.choose(t), FrameQuality::Full);
      policy.drawn(FrameQuality::Full, 4.0, t + 4.0);
    }
    QVERIFY(!policy.owes_settle_frame());
  }

  void a_cheaper_full_frame_restores_multisampling_in_motion() {
    FrameQualityPolicy policy(33.0, 150.0);
    policy.drawn(FrameQuality::Full, 90.0, 90.0);  // e.g. a first frame that built pipelines
    QCOMPARE(policy.choose(100.0), FrameQuality::Fast);
    policy.drawn(FrameQuality::Fast, 10.0, 110.0);
    QCOMPARE(policy.choose(400.0), FrameQuality::Full);
    policy.drawn(FrameQuality::Full, 12.0, 412.0);
    QCOMPARE(policy.full_frame_cost_ms(), 12.0);
    QCOMPARE(policy.choose(420.0), FrameQuality::Full);
  }
};

QTEST_GUILESS_MAIN(FrameQualityPolicyTest)
#include "frame_quality_policy_test.moc"
