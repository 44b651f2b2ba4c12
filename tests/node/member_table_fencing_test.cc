// MemberTable's hardened failure detection (issue 5): refutation and fencing of ourselves,
// stale identities, positive indirect probes (vouch), our own pauses, and what helpers answer.
// Time is injected; no sockets.
#include <gtest/gtest.h>

#include "node/membership/member_table.h"
#include "tests/node/member_table_clock.h"

namespace drift {
namespace {

using namespace member_table_test;
MemberTable table_with(std::uint32_t self_id, std::uint64_t incarnation = 1) {
  return MemberTable(info(self_id, incarnation), PhiAccrualDetector::Params{}, kSuspectTimeout);
}

// Member 2 beats every 100 ms from kT0 to kT0 + `until_ms`, then falls silent; returns the time
// at which the table made it suspect (ticking every 100 ms).
TimePoint silence_until_suspect(MemberTable& t, int until_ms) {
  t.merge(info(2), kT0);
  for (int ms = 0; ms <= until_ms; ms += 100) t.heartbeat(2, 1, {}, kT0 + milliseconds(ms));
  for (int ms = until_ms + 100;; ms += 100) {
    const TimePoint now = kT0 + milliseconds(ms);
    if (!t.tick(now).empty()) return now;
  }
}

// --- refutation and fencing of ourselves -----------------------------------------------------

TEST(MemberTableFencingTest, SuspicionIsRefutedWithoutFencing) {
  MemberTable t = table_with(1, 10);
  auto ts = t.merge(info(1, 10, State::kSuspect), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{1, State::kSuspect, State::kAlive, 11}));
}

TEST(MemberTableFencingTest, DeathAtOurIncarnationFencesWithAHigherOne) {
  MemberTable t = table_with(1, 10);
  auto ts = t.merge(info(1, 10, State::kDead), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{1, State::kDead, State::kAlive, 11}));
  EXPECT_EQ(t.self().incarnation, 11u);
  EXPECT_EQ(t.self().state, State::kAlive);
  // The old death is news no more: the fenced identity starts at 11.
  EXPECT_TRUE(t.merge(info(1, 10, State::kDead), kT0).empty());
}

TEST(MemberTableFencingTest, DeathAtAnIncarnationWeRefutedPastStillFences) {
  // Suspected at 10, we refuted to 11; meanwhile someone declared us dead at 10 and acted on it.
  MemberTable t = table_with(1, 10);
  t.merge(info(1, 10, State::kSuspect), kT0);
  ASSERT_EQ(t.self().incarnation, 11u);
  auto ts = t.merge(info(1, 10, State::kDead), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{1, State::kDead, State::kAlive, 12}));
}

TEST(MemberTableFencingTest, DeathOfAnEarlierProcessIsIgnored) {
  MemberTable t = table_with(1, 1000);  // restarted: incarnations grow at every start
  EXPECT_TRUE(t.merge(info(1, 999, State::kDead), kT0).empty());
  EXPECT_TRUE(t.merge(info(1, 999, State::kSuspect), kT0).empty());
  EXPECT_EQ(t.self().incarnation, 1000u);
}

// --- stale identities ------------------------------------------------------------------------

TEST(MemberTableFencingTest, AnIdentityDeclaredDeadStaysStaleAfterARevival) {
  MemberTable t = table_with(1);
  t.merge(info(2, 5), kT0);
  EXPECT_FALSE(t.is_stale(2, 5));
  t.merge(info(2, 5, State::kDead), kT0);
  EXPECT_TRUE(t.is_stale(2, 5));
  EXPECT_TRUE(t.is_stale(2, 4));
  EXPECT_FALSE(t.is_stale(2, 6));
  // It fenced and came back at 6: its old connections (Hello at 5) stay stale.
  t.merge(info(2, 6), kT0);
  EXPECT_EQ(t.find(2)->info.state, State::kAlive);
  EXPECT_TRUE(t.is_stale(2, 5));
  EXPECT_FALSE(t.is_stale(2, 6));
  EXPECT_FALSE(t.is_stale(9, 1));  // unknown
}

TEST(MemberTableFencingTest, AnOlderIncarnationThatRefutedIsNotStale) {
  MemberTable t = table_with(1);
  t.merge(info(2, 5), kT0);
  t.merge(info(2, 6), kT0);  // it refuted a suspicion; its connections still say 5
  EXPECT_FALSE(t.is_stale(2, 5));
}

TEST(MemberTableFencingTest, DeclaringAMonitoredMemberDeadMakesItStale) {
  MemberTable t = table_with(1);
  const TimePoint suspect_at = silence_until_suspect(t, 500);
  ASSERT_EQ(t.tick(suspect_at + kSuspectTimeout).size(), 1u);
  EXPECT_EQ(t.find(2)->info.state, State::kDead);
  EXPECT_TRUE(t.is_stale(2, 1));
  EXPECT_TRUE(t.heartbeat(2, 1, {}, suspect_at + kSuspectTimeout).empty());
}

// --- positive indirect probes ----------------------------------------------------------------

TEST(MemberTableFencingTest, VouchRestartsTheSuspicionClock) {
  MemberTable t = table_with(1);
  const TimePoint suspect_at = silence_until_suspect(t, 500);
  const TimePoint vouched_at = suspect_at + milliseconds(400);
  EXPECT_TRUE(t.vouch(2, 1, vouched_at));
  EXPECT_TRUE(t.tick(suspect_at + kSuspectTimeout).empty());  // the old deadline passes
  EXPECT_EQ(t.find(2)->info.state, State::kSuspect);
  EXPECT_TRUE(t.tick(vouched_at + kSuspectTimeout - milliseconds(1)).empty());
  auto ts = t.tick(vouched_at + kSuspectTimeout);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].to, State::kDead);
}

TEST(MemberTableFencingTest, VouchIgnoresAliveDeadAndOlderIncarnations) {
  MemberTable t = table_with(1);
  t.merge(info(2, 5), kT0);
  EXPECT_FALSE(t.vouch(2, 5, kT0));  // alive: nothing to vouch for
  t.merge(info(2, 5, State::kSuspect), kT0);
  EXPECT_FALSE(t.vouch(2, 4, kT0));  // an answer about an older incarnation
  EXPECT_TRUE(t.vouch(2, 5, kT0));
  t.merge(info(2, 5, State::kDead), kT0);
  EXPECT_FALSE(t.vouch(2, 5, kT0));  // too late: dead is final for that incarnation
  EXPECT_FALSE(t.vouch(1, 1, kT0));  // ourselves
  EXPECT_FALSE(t.vouch(9, 1, kT0));  // unknown
}

TEST(MemberTableFencingTest, MonitoredSuspectsAndAlivePeers) {
  MemberTable t = table_with(1);
  t.merge(info(2), kT0);
  t.merge(info(3, 1, State::kSuspect), kT0);
  t.merge(info(4, 1, State::kDead), kT0);
  const auto suspects = t.monitored_suspects();
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0]->info.node_id, 3u);
  EXPECT_EQ(t.alive_peers(), (std::vector<std::uint32_t>{2}));
}

// --- our own pauses --------------------------------------------------------------------------

TEST(MemberTableFencingTest, AfterOurOwnPauseNobodyIsSuspectedForOurSilence) {
  MemberTable t = table_with(1);
  t.merge(info(2), kT0);
  for (int ms = 0; ms <= 1000; ms += 100) t.heartbeat(2, 1, {}, kT0 + milliseconds(ms));
  const TimePoint resumed = kT0 + milliseconds(4000);  // we were stopped for three seconds
  t.resume_after_pause(resumed);
  EXPECT_TRUE(t.tick(resumed).empty());
  EXPECT_TRUE(t.tick(resumed + milliseconds(100)).empty());
  // It is judged from the resumption: silent from then on, it is suspected in the usual time.
  bool suspected = false;
  for (int ms = 200; ms <= 2000 && !suspected; ms += 100) {
    suspected = !t.tick(resumed + milliseconds(ms)).empty();
  }
  EXPECT_TRUE(suspected);
}

TEST(MemberTableFencingTest, OurOwnPauseRestartsSuspicionClocks) {
  MemberTable t = table_with(1);
  const TimePoint suspect_at = silence_until_suspect(t, 500);
  const TimePoint resumed = suspect_at + milliseconds(3000);
  t.resume_after_pause(resumed);
  EXPECT_TRUE(t.tick(resumed).empty());
  EXPECT_EQ(t.find(2)->info.state, State::kSuspect);
  EXPECT_EQ(t.tick(resumed + kSuspectTimeout).size(), 1u);
}

// --- what a helper answers from its own heartbeats -------------------------------------------

TEST(MemberTableFencingTest, HeardWithinLooksAtTheLastHeartbeatAndIncarnation) {
  MemberTable t = table_with(1);
  t.merge(info(2, 5), kT0);
  EXPECT_FALSE(t.heard_within(2, 5, kT0, milliseconds(200)));  // never heard
  t.heartbeat(2, 5, {}, kT0);
  EXPECT_TRUE(t.heard_within(2, 5, kT0 + milliseconds(200), milliseconds(200)));
  EXPECT_FALSE(t.heard_within(2, 5, kT0 + milliseconds(201), milliseconds(200)));
  EXPECT_TRUE(t.heard_within(2, 4, kT0, milliseconds(200)));
  EXPECT_FALSE(t.heard_within(2, 6, kT0, milliseconds(200)));  // asked about a newer one
  t.merge(info(2, 5, State::kDead), kT0);
  EXPECT_FALSE(t.heard_within(2, 5, kT0, milliseconds(200)));
  EXPECT_FALSE(t.heard_within(1, 1, kT0, milliseconds(200)));
}

}  // namespace
}  // namespace drift
