#include "node/membership/phi_accrual_detector.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift {
namespace {

using std::chrono::milliseconds;
using TimePoint = PhiAccrualDetector::TimePoint;

const TimePoint kPhiStart{std::chrono::hours(1)};

// A detector that has seen `count` heartbeats, `interval` apart; returns the last heartbeat time.
TimePoint feed_regular(PhiAccrualDetector& d, milliseconds interval, int count) {
  TimePoint t = kPhiStart;
  for (int i = 0; i < count; ++i, t += interval) d.heartbeat(t);
  return t - interval;
}

TEST(PhiAccrualDetectorTest, ZeroBeforeFirstHeartbeat) {
  PhiAccrualDetector d({});
  EXPECT_EQ(d.phi(kPhiStart), 0);
  EXPECT_EQ(d.phi(kPhiStart + std::chrono::hours(5)), 0);
  EXPECT_FALSE(d.suspicious(kPhiStart + std::chrono::hours(5)));
}

TEST(PhiAccrualDetectorTest, PhiGrowsMonotonicallyWithSilence) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 50);
  double previous = d.phi(last);
  for (int ms = 10; ms <= 5000; ms += 10) {
    const double phi = d.phi(last + milliseconds(ms));
    EXPECT_GE(phi, previous) << ms;
    EXPECT_TRUE(std::isfinite(phi)) << ms;
    previous = phi;
  }
  EXPECT_GT(previous, 8);
}

TEST(PhiAccrualDetectorTest, RegularHeartbeatsKeepPhiLowAt150ms) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 100);
  EXPECT_LT(d.phi(last + milliseconds(150)), 1.0);
  EXPECT_FALSE(d.suspicious(last + milliseconds(150)));
}

TEST(PhiAccrualDetectorTest, OneSecondOfSilenceCrossesDefaultThreshold) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 100);
  EXPECT_FALSE(d.suspicious(last + milliseconds(400)));
  EXPECT_TRUE(d.suspicious(last + milliseconds(1000)));
  EXPECT_GE(d.phi(last + milliseconds(1000)), 8.0);
}

TEST(PhiAccrualDetectorTest, FirstIntervalJudgesAPeerWithoutHistory) {
  PhiAccrualDetector d({});
  d.heartbeat(kPhiStart);  // monitoring starts; no interval seen yet
  EXPECT_LT(d.phi(kPhiStart + milliseconds(150)), 1.0);
  EXPECT_TRUE(d.suspicious(kPhiStart + milliseconds(1000)));
}

TEST(PhiAccrualDetectorTest, JitteryArrivalsWidenTheTolerance) {
  PhiAccrualDetector regular({});
  PhiAccrualDetector jittery({});
  TimePoint t = kPhiStart;
  for (int i = 0; i < 100; ++i, t += milliseconds(100)) regular.heartbeat(t);
  const TimePoint regular_last = t - milliseconds(100);
  t = kPhiStart;
  for (int i = 0; i < 100; ++i) {
    jittery.heartbeat(t);
    if (i + 1 < 100) t += milliseconds(i % 2 == 0 ? 10 : 190);  // same mean, std dev 90 ms
  }
  const TimePoint jittery_last = t;
  for (int ms : {400, 500, 600, 800}) {
    EXPECT_LT(jittery.phi(jittery_last + milliseconds(ms)),
              regular.phi(regular_last + milliseconds(ms)))
        << ms;
  }
  // The regular peer is suspected after 600 ms of silence, the jittery one not yet.
  EXPECT_TRUE(regular.suspicious(regular_last + milliseconds(600)));
  EXPECT_FALSE(jittery.suspicious(jittery_last + milliseconds(600)));
}

TEST(PhiAccrualDetectorTest, StdDevIsClampedToMinimum) {
  // Perfectly regular arrivals have std dev ~0; the clamp keeps phi at the formula's value with
  // std dev = min_std_dev, and a larger minimum makes the detector more patient.
  PhiAccrualDetector::Params p;
  p.window = 10;  // the bootstrap samples leave the window
  p.acceptable_pause = milliseconds(0);
  PhiAccrualDetector d(p);
  const TimePoint last = feed_regular(d, milliseconds(100), 30);
  const double y = (250.0 - 100.0) / 50.0;
  const double expected = std::log10(1 + std::exp(y * (1.5976 + 0.070566 * y * y)));
  EXPECT_NEAR(d.phi(last + milliseconds(250)), expected, 1e-6);

  p.min_std_dev = milliseconds(200);
  PhiAccrualDetector patient(p);
  const TimePoint patient_last = feed_regular(patient, milliseconds(100), 30);
  EXPECT_LT(patient.phi(patient_last + milliseconds(250)), d.phi(last + milliseconds(250)));
}

TEST(PhiAccrualDetectorTest, AcceptablePauseDelaysSuspicion) {
  PhiAccrualDetector::Params p;
  p.acceptable_pause = milliseconds(0);
  PhiAccrualDetector strict(p);
  PhiAccrualDetector lenient({});
  const TimePoint last = feed_regular(strict, milliseconds(100), 50);
  feed_regular(lenient, milliseconds(100), 50);
  EXPECT_TRUE(strict.suspicious(last + milliseconds(400)));
  EXPECT_FALSE(lenient.suspicious(last + milliseconds(400)));
}

TEST(PhiAccrualDetectorTest, PhiStaysFiniteAfterVeryLongSilence) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 10);
  const double phi = d.phi(last + std::chrono::hours(24));
  EXPECT_TRUE(std::isfinite(phi));
  EXPECT_GT(phi, 1000);
}

TEST(PhiAccrualDetectorTest, HeartbeatResetsSuspicion) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 20);
  const TimePoint late = last + milliseconds(1500);
  EXPECT_TRUE(d.suspicious(late));
  d.heartbeat(late);
  EXPECT_FALSE(d.suspicious(late + milliseconds(100)));
}

// News that the peer was alive (a refutation it sent through others) restarts the clock without
// teaching the detector an interval: after it, phi is what it was a moment after a heartbeat.
TEST(PhiAccrualDetectorTest, AliveAtRestartsTheClockButLearnsNoInterval) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 20);
  const double after_beat = d.phi(last + milliseconds(100));
  const TimePoint late = last + milliseconds(1500);
  ASSERT_TRUE(d.suspicious(late));
  d.alive_at(late);
  EXPECT_EQ(d.last_heartbeat(), late);
  EXPECT_DOUBLE_EQ(d.phi(late + milliseconds(100)), after_beat) << "the 1.5 s gap not learned";
  d.alive_at(last);  // older news moves nothing
  EXPECT_EQ(d.last_heartbeat(), late);
  PhiAccrualDetector fresh({});
  fresh.alive_at(kPhiStart);  // before any heartbeat: starts the clock like one
  EXPECT_TRUE(fresh.started());
}

TEST(PhiAccrualDetectorTest, OutOfOrderHeartbeatIsIgnored) {
  PhiAccrualDetector d({});
  const TimePoint last = feed_regular(d, milliseconds(100), 20);
  const double before = d.phi(last + milliseconds(300));
  d.heartbeat(last - milliseconds(50));
  EXPECT_EQ(d.phi(last + milliseconds(300)), before);
}

}  // namespace
}  // namespace drift
