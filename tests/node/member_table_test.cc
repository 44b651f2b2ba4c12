#include "node/membership/member_table.h"
#include "tests/node/member_table_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace drift {
namespace {

using namespace member_table_test;
MemberTable table(std::uint32_t self_id, std::size_t group_size = 8) {
  return MemberTable(info(self_id), PhiAccrualDetector::Params{}, kSuspectTimeout, group_size);
}

// A table whose self is `self_id` and which knows members 1..n (alive, incarnation 1).
MemberTable ring(std::uint32_t self_id, std::uint32_t n, std::size_t group_size = 8) {
  MemberTable t = table(self_id, group_size);
  for (std::uint32_t id = 1; id <= n; ++id) t.merge(info(id), kT0);
  return t;
}

State state_of(const MemberTable& t, std::uint32_t id) { return t.find(id)->info.state; }

// --- merge ---------------------------------------------------------------------------------

TEST(MemberTableTest, LearnsAnUnknownMember) {
  MemberTable t = table(1);
  auto ts = t.merge(info(2, 3), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_TRUE(ts[0].joined);
  EXPECT_EQ(ts[0].node_id, 2u);
  EXPECT_EQ(ts[0].to, State::kAlive);
  EXPECT_EQ(ts[0].incarnation, 3u);
  ASSERT_NE(t.find(2), nullptr);
  EXPECT_EQ(t.find(2)->info, info(2, 3));
  EXPECT_FALSE(t.find(2)->heard);
  EXPECT_TRUE(t.merge(info(2, 3), kT0).empty());  // nothing new
}

TEST(MemberTableTest, MergeFollowsSwimPrecedenceInAllOrderings) {
  const State states[] = {State::kAlive, State::kSuspect, State::kDead};
  for (State known : states) {
    for (State claim : states) {
      for (std::uint64_t claim_inc : {4u, 5u, 6u}) {
        MemberTable t = table(1);
        t.merge(info(2, 5, known), kT0);
        auto ts = t.merge(info(2, claim_inc, claim), kT0);
        const bool wins = claim_inc > 5 || (claim_inc == 5 && claim > known);
        const MemberInfo& now = t.find(2)->info;
        SCOPED_TRACE(testing::Message()
                     << "known " << int(known) << "@5, claim " << int(claim) << "@" << claim_inc);
        EXPECT_EQ(now.state, wins ? claim : known);
        EXPECT_EQ(now.incarnation, wins ? claim_inc : 5u);
        ASSERT_EQ(ts.size(), wins ? 1u : 0u);
        if (wins) {
          EXPECT_EQ(ts[0], (MemberTransition{2, known, claim, claim_inc}));
        }
      }
    }
  }
}

TEST(MemberTableTest, DeadIncarnationNeverComesBackAlive) {
  MemberTable t = table(1);
  t.merge(info(2, 5), kT0);
  t.merge(info(2, 5, State::kDead), kT0);
  EXPECT_TRUE(t.merge(info(2, 5, State::kAlive), kT0).empty());
  EXPECT_TRUE(t.merge(info(2, 5, State::kSuspect), kT0).empty());
  EXPECT_TRUE(t.heartbeat(2, 5, {}, kT0).empty());
  EXPECT_EQ(state_of(t, 2), State::kDead);
  // A restart (new incarnation) is a new identity and is accepted.
  auto ts = t.merge(info(2, 6), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kDead, State::kAlive, 6}));
}

TEST(MemberTableTest, SuspectMergeOverridesAliveWithoutOrderDependence) {
  // Two gossip orders of the same facts reach the same entry.
  MemberTable a = table(1), b = table(1);
  const MemberInfo facts[] = {info(2, 1), info(2, 1, State::kSuspect), info(2, 2),
                              info(2, 2, State::kDead)};
  for (const auto& f : facts) a.merge(f, kT0);
  for (auto it = std::rbegin(facts); it != std::rend(facts); ++it) b.merge(*it, kT0);
  EXPECT_EQ(a.find(2)->info, b.find(2)->info);
  EXPECT_EQ(a.find(2)->info, info(2, 2, State::kDead));
}

// --- refutation ----------------------------------------------------------------------------

TEST(MemberTableTest, RefutesSuspicionAtOurIncarnation) {
  MemberTable t = table(1);
  auto ts = t.merge(info(1, 1, State::kSuspect), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{1, State::kSuspect, State::kAlive, 2}));
  EXPECT_EQ(t.self().incarnation, 2u);
  EXPECT_EQ(t.self().state, State::kAlive);
}

TEST(MemberTableTest, RefutesDeathAtAHigherIncarnation) {
  MemberTable t = table(1);
  auto ts = t.merge(info(1, 7, State::kDead), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{1, State::kDead, State::kAlive, 8}));
  EXPECT_EQ(t.self().incarnation, 8u);
}

TEST(MemberTableTest, IgnoresStaleOrHarmlessClaimsAboutUs) {
  MemberTable t = table(1);
  t.merge(info(1, 4, State::kSuspect), kT0);  // -> incarnation 5
  EXPECT_TRUE(t.merge(info(1, 4, State::kSuspect), kT0).empty());
  EXPECT_TRUE(t.merge(info(1, 5, State::kAlive), kT0).empty());
  EXPECT_TRUE(t.merge(info(1, 3, State::kAlive), kT0).empty());
  EXPECT_EQ(t.self().incarnation, 5u);
  // Someone knows us alive at a higher incarnation: we must outbid it or our heartbeats are
  // dropped.
  auto ts = t.merge(info(1, 9, State::kAlive), kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(t.self().incarnation, 10u);
}

// --- heartbeats and failure detection ------------------------------------------------------

TEST(MemberTableTest, HeartbeatRecordsLoadAndDropsStaleIncarnations) {
  MemberTable t = table(1);
  t.merge(info(2, 3), kT0);
  LoadIndex load;
  load.task_load = 42;
  EXPECT_TRUE(t.heartbeat(2, 3, load, kT0).empty());
  EXPECT_TRUE(t.find(2)->heard);
  EXPECT_EQ(t.find(2)->load.task_load, 42);
  LoadIndex stale;
  stale.task_load = 7;
  EXPECT_TRUE(t.heartbeat(2, 2, stale, kT0).empty());
  EXPECT_EQ(t.find(2)->load.task_load, 42);
  EXPECT_TRUE(t.heartbeat(9, 1, stale, kT0).empty());  // unknown: learn it by merge first
  EXPECT_EQ(t.find(9), nullptr);
}

TEST(MemberTableTest, HeartbeatAtNewIncarnationRevivesADeadMember) {
  MemberTable t = table(1);
  t.merge(info(2, 3, State::kDead), kT0);
  auto ts = t.heartbeat(2, 4, {}, kT0);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kDead, State::kAlive, 4}));
}

TEST(MemberTableTest, SilentMemberGoesSuspectThenDead) {
  MemberTable t = table(1);
  t.merge(info(2), kT0);  // enters our group now; never heard from
  EXPECT_TRUE(t.find(2)->monitored());
  EXPECT_TRUE(t.tick(kT0 + milliseconds(400)).empty());
  auto ts = t.tick(kT0 + milliseconds(1000));
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kAlive, State::kSuspect, 1}));
  EXPECT_TRUE(t.tick(kT0 + milliseconds(1000) + kSuspectTimeout - milliseconds(1)).empty());
  ts = t.tick(kT0 + milliseconds(1000) + kSuspectTimeout);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kSuspect, State::kDead, 1}));
  EXPECT_FALSE(t.find(2)->monitored());
  EXPECT_TRUE(t.tick(kT0 + std::chrono::hours(1)).empty());
}

// Members 1..4, heard at kT0; then only `beating` keep sending heartbeats.
std::vector<MemberTransition> silence_all_but(MemberTable& t, const std::set<std::uint32_t>& beating,
                                              int until_ms) {
  std::vector<MemberTransition> all;
  for (int ms = 0; ms <= until_ms; ms += 100) {
    const TimePoint now = kT0 + milliseconds(ms);
    for (std::uint32_t id : beating) t.heartbeat(id, 1, {}, now);
    auto ts = t.tick(now + milliseconds(50));
    all.insert(all.end(), ts.begin(), ts.end());
  }
  return all;
}

TEST(MemberTableTest, AMinorityDoesNotDeclareTheMajorityDead) {
  MemberTable t = ring(4, 5);  // 5 members; we are node 4, cut off with node 5
  for (std::uint32_t id : {1u, 2u, 3u, 5u}) t.heartbeat(id, 1, {}, kT0);
  silence_all_but(t, {5}, 5000);
  EXPECT_FALSE(t.has_quorum());
  for (std::uint32_t id : {1u, 2u, 3u}) EXPECT_EQ(state_of(t, id), State::kSuspect) << id;
}

TEST(MemberTableTest, AGossipedDeathIsBelievedOnlyWithTheQuorumOurOwnDetectorNeeds) {
  MemberTable t = ring(4, 5);  // node 4, cut off with node 5: no quorum
  for (std::uint32_t id : {1u, 2u, 3u, 5u}) t.heartbeat(id, 1, {}, kT0);
  silence_all_but(t, {5}, 5000);
  ASSERT_FALSE(t.has_quorum());
  // Node 5 (on our side, so heard) says 1 is dead: without a quorum we would not declare it
  // ourselves, so we do not believe it either.
  EXPECT_TRUE(t.merge(info(1, 1, State::kDead), kT0 + milliseconds(5000), 5).empty());
  EXPECT_EQ(state_of(t, 1), State::kSuspect);
  EXPECT_EQ(t.deaths_disbelieved(), 1u);
  // A member's word about itself (it leaves) needs no quorum.
  auto left = t.merge(info(3, 1, State::kDead), kT0 + milliseconds(5000), 3);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].to, State::kDead);
  // With a quorum, the same claim is believed.
  MemberTable u = ring(1, 5);
  for (std::uint32_t id = 2; id <= 5; ++id) u.heartbeat(id, 1, {}, kT0);
  ASSERT_TRUE(u.has_quorum());
  auto ts = u.merge(info(2, 1, State::kDead), kT0, 3);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kAlive, State::kDead, 1}));
  EXPECT_EQ(u.deaths_disbelieved(), 0u);
}

TEST(MemberTableTest, AMinorityThatHealsGivesItsSuspectsAFreshTimeout) {
  MemberTable t = ring(4, 5);  // node 4, cut off with node 5 for 5 s
  for (std::uint32_t id : {1u, 2u, 3u, 5u}) t.heartbeat(id, 1, {}, kT0);
  silence_all_but(t, {5}, 5000);
  ASSERT_EQ(state_of(t, 2), State::kSuspect);
  // The partition heals: 1 and 3 are heard at once, 2's first heartbeat is a little late.
  const TimePoint healed = kT0 + milliseconds(5100);
  t.heartbeat(1, 1, {}, healed);
  t.heartbeat(3, 1, {}, healed);
  t.heartbeat(5, 1, {}, healed);
  EXPECT_TRUE(t.tick(healed).empty());
  EXPECT_TRUE(t.has_quorum());
  EXPECT_EQ(state_of(t, 2), State::kSuspect) << "declared dead on a timeout that ran out while "
                                                "we could not see it";
  t.heartbeat(2, 1, {}, healed + kSuspectTimeout - milliseconds(100));
  EXPECT_EQ(state_of(t, 2), State::kAlive);
  // Silent for a whole timeout after we regained the quorum: dead.
  MemberTable u = ring(4, 5);
  for (std::uint32_t id : {1u, 2u, 3u, 5u}) u.heartbeat(id, 1, {}, kT0);
  silence_all_but(u, {5}, 5000);
  for (std::uint32_t id : {1u, 3u, 5u}) u.heartbeat(id, 1, {}, healed);
  u.tick(healed);
  EXPECT_EQ(state_of(u, 2), State::kSuspect);
  for (std::uint32_t id : {1u, 3u, 5u}) u.heartbeat(id, 1, {}, healed + kSuspectTimeout);
  u.tick(healed + kSuspectTimeout);
  EXPECT_EQ(state_of(u, 2), State::kDead);
}

TEST(MemberTableTest, AMajorityDeclaresTheMinorityDead) {
  MemberTable t = ring(1, 5);  // we are node 1, with 2 and 3; 4 and 5 are cut off
  for (std::uint32_t id : {2u, 3u, 4u, 5u}) t.heartbeat(id, 1, {}, kT0);
  silence_all_but(t, {2, 3}, 5000);
  EXPECT_TRUE(t.has_quorum());
  EXPECT_EQ(state_of(t, 4), State::kDead);
  EXPECT_EQ(state_of(t, 5), State::kDead);
}

TEST(MemberTableTest, AnEvenSplitIsWonByTheHalfWithTheLowestId) {
  MemberTable low = ring(1, 4);
  MemberTable high = ring(3, 4);
  for (std::uint32_t id = 1; id <= 4; ++id) {
    low.heartbeat(id, 1, {}, kT0);
    high.heartbeat(id, 1, {}, kT0);
  }
  silence_all_but(low, {2}, 5000);
  silence_all_but(high, {4}, 5000);
  EXPECT_EQ(state_of(low, 3), State::kDead);
  EXPECT_EQ(state_of(high, 1), State::kSuspect);
  EXPECT_EQ(state_of(high, 2), State::kSuspect);
}

TEST(MemberTableTest, RegularHeartbeatsKeepAMemberAlive) {
  MemberTable t = table(1);
  t.merge(info(2), kT0);
  for (int ms = 0; ms <= 5000; ms += 100) {
    const TimePoint now = kT0 + milliseconds(ms);
    t.heartbeat(2, 1, {}, now);
    EXPECT_TRUE(t.tick(now + milliseconds(50)).empty()) << ms;
  }
  EXPECT_EQ(state_of(t, 2), State::kAlive);
}

TEST(MemberTableTest, SuspectRecoversOnHeartbeat) {
  MemberTable t = table(1);
  t.merge(info(2), kT0);
  for (int ms = 0; ms <= 1000; ms += 100) t.heartbeat(2, 1, {}, kT0 + milliseconds(ms));
  const TimePoint late = kT0 + milliseconds(2000);
  ASSERT_EQ(t.tick(late).size(), 1u);
  EXPECT_EQ(state_of(t, 2), State::kSuspect);
  auto ts = t.heartbeat(2, 1, {}, late + milliseconds(100));
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0], (MemberTransition{2, State::kSuspect, State::kAlive, 1}));
  // Long past the suspect timeout, but it keeps beating: it stays alive.
  for (int ms = 200; ms <= 2000; ms += 100) {
    t.heartbeat(2, 1, {}, late + milliseconds(ms));
    EXPECT_TRUE(t.tick(late + milliseconds(ms + 50)).empty()) << ms;
  }
}

TEST(MemberTableTest, SuspicionFromGossipTimesOutForAMonitoredMember) {
  MemberTable t = table(1);
  t.merge(info(2), kT0);
  t.heartbeat(2, 1, {}, kT0);
  t.merge(info(2, 1, State::kSuspect), kT0 + milliseconds(100));
  EXPECT_TRUE(t.tick(kT0 + milliseconds(550)).empty());
  auto ts = t.tick(kT0 + milliseconds(600));
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].to, State::kDead);
}

TEST(MemberTableTest, OnlyTheLocalGroupIsMonitored) {
  MemberTable t = ring(1, 20, 4);  // group: 2, 3, 19, 20
  for (int ms = 0; ms <= 5000; ms += 100) {
    const TimePoint now = kT0 + milliseconds(ms);
    for (std::uint32_t id : {2u, 3u, 19u, 20u}) t.heartbeat(id, 1, {}, now);
    EXPECT_TRUE(t.tick(now).empty()) << ms;
  }
  EXPECT_FALSE(t.find(10)->monitored());
  EXPECT_EQ(state_of(t, 10), State::kAlive);
}

TEST(MemberTableTest, MemberEnteringTheGroupIsJudgedFromThatMoment) {
  MemberTable t = ring(1, 20, 2);  // group: 2, 20
  EXPECT_FALSE(t.find(3)->monitored());
  const TimePoint death = kT0 + milliseconds(5000);
  t.merge(info(2, 1, State::kDead), death);  // 3 moves into our group now
  EXPECT_TRUE(t.find(3)->monitored());
  auto suspects_three = [](const std::vector<MemberTransition>& ts) {
    return std::any_of(ts.begin(), ts.end(), [](const MemberTransition& tr) {
      return tr.node_id == 3 && tr.to == State::kSuspect;
    });
  };
  EXPECT_FALSE(suspects_three(t.tick(death + milliseconds(400))));
  EXPECT_TRUE(suspects_three(t.tick(death + milliseconds(1000))));
}

// --- local group ---------------------------------------------------------------------------

TEST(MemberTableTest, LocalGroupOnSmallRings) {
  EXPECT_TRUE(ring(1, 1).local_group(8).empty());
  EXPECT_EQ(ring(1, 2).local_group(8), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(ring(3, 5).local_group(8), (std::vector<std::uint32_t>{1, 2, 4, 5}));
  EXPECT_EQ(ring(3, 5).local_group(2), (std::vector<std::uint32_t>{2, 4}));
  EXPECT_EQ(ring(1, 5).local_group(2), (std::vector<std::uint32_t>{2, 5}));
}

TEST(MemberTableTest, LocalGroupOnTwentyWrapsAroundTheRing) {
  EXPECT_EQ(ring(10, 20).local_group(8), (std::vector<std::uint32_t>{6, 7, 8, 9, 11, 12, 13, 14}));
  EXPECT_EQ(ring(1, 20).local_group(8), (std::vector<std::uint32_t>{2, 3, 4, 5, 17, 18, 19, 20}));
  EXPECT_EQ(ring(19, 20).local_group(8), (std::vector<std::uint32_t>{1, 2, 3, 15, 16, 17, 18, 20}));
  EXPECT_EQ(ring(5, 20).local_group(3), (std::vector<std::uint32_t>{3, 4, 6, 7}));  // odd rounds up
}

TEST(MemberTableTest, LocalGroupsAreSymmetricAndOverlap) {
  const std::uint32_t n = 20;
  std::vector<std::vector<std::uint32_t>> groups(n + 1);
  for (std::uint32_t id = 1; id <= n; ++id) groups[id] = ring(id, n).local_group(8);
  for (std::uint32_t a = 1; a <= n; ++a) {
    EXPECT_EQ(groups[a].size(), 8u);
    for (std::uint32_t b : groups[a]) {
      EXPECT_TRUE(std::count(groups[b].begin(), groups[b].end(), a)) << a << " " << b;
    }
  }
}

TEST(MemberTableTest, LocalGroupSkipsDeadMembers) {
  MemberTable t = ring(10, 20);
  t.merge(info(11, 1, State::kDead), kT0);
  t.merge(info(8, 1, State::kSuspect), kT0);  // suspects still count
  EXPECT_EQ(t.local_group(8), (std::vector<std::uint32_t>{6, 7, 8, 9, 12, 13, 14, 15}));
  MemberTable small = ring(1, 3);
  small.merge(info(2, 1, State::kDead), kT0);
  small.merge(info(3, 1, State::kDead), kT0);
  EXPECT_TRUE(small.local_group(8).empty());
}

// --- gossip --------------------------------------------------------------------------------

TEST(MemberTableTest, GossipRespectsMaxAndSendsNoEntryTwice) {
  MemberTable t = ring(1, 20);
  EXPECT_TRUE(t.gossip(0, 4, true).empty());
  for (int round = 0; round < 30; ++round) {
    auto g = t.gossip(5, 4, true);
    ASSERT_EQ(g.size(), 5u);
    EXPECT_EQ(g[0], t.self());
    std::set<std::uint32_t> ids;
    for (const auto& m : g) ids.insert(m.node_id);
    EXPECT_EQ(ids.size(), g.size()) << "no entry twice in one heartbeat";
  }
  EXPECT_EQ(ring(1, 1).gossip(5, 4, true).size(), 1u);
}

// A member's own entry goes out on its first beats (who it is, its arch) and after it changes
// (a refutation); otherwise only when asked for, now and then.
TEST(MemberTableTest, GossipCarriesSelfWhenNewOrChangedOrAsked) {
  MemberTable t = ring(1, 20);
  for (int r = 0; r < 1 + 2; ++r) {  // ceil(log2(1 + 1)) + 2: the table began with self alone
    auto g = t.gossip(3, 1, false);
    ASSERT_FALSE(g.empty());
    EXPECT_EQ(g[0].node_id, 1u) << "round " << r;
  }
  const int rounds = 5 + 2;  // ceil(log2(20 + 1)) + 2
  for (int i = 0; i < 100; ++i) t.gossip(3, 1, false);  // age out the joins
  auto quiet = t.gossip(3, 1, false);
  ASSERT_EQ(quiet.size(), 1u) << "nothing changed: one entry of the rotating slice";
  EXPECT_NE(quiet[0].node_id, 1u);
  auto asked = t.gossip(3, 1, true);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], t.self());
  t.merge(info(1, 1, State::kSuspect), kT0);  // refuted: self carries incarnation 2
  for (int r = 0; r < rounds; ++r) {
    auto g = t.gossip(3, 1, false);
    ASSERT_FALSE(g.empty());
    EXPECT_EQ(g[0].node_id, 1u);
    EXPECT_EQ(g[0].incarnation, 2u) << "round " << r;
  }
  EXPECT_NE(t.gossip(3, 1, false)[0].node_id, 1u);
}

TEST(MemberTableTest, GossipSendsRecentChangesFirstForAFewRounds) {
  MemberTable t = ring(1, 20);
  for (int i = 0; i < 100; ++i) t.gossip(4, 1, false);  // age out the joins
  t.merge(info(13, 1, State::kSuspect), kT0);
  t.merge(info(7, 1, State::kSuspect), kT0);
  const int rounds = 5 + 2;                   // ceil(log2(20 + 1)) + 2
  for (int r = 0; r < rounds; ++r) {
    auto g = t.gossip(4, 0, false);
    ASSERT_EQ(g.size(), 2u) << "the changes, whatever the rotating slice's size";
    EXPECT_EQ(g[0], info(7, 1, State::kSuspect)) << "round " << r;  // equal age: by id
    EXPECT_EQ(g[1], info(13, 1, State::kSuspect));
  }
  EXPECT_TRUE(t.gossip(4, 0, false).empty()) << "spread: back in the rotation only";
}

TEST(MemberTableTest, GossipEventuallyCoversEveryone) {
  MemberTable t = ring(7, 50);
  for (int i = 0; i < 200; ++i) t.gossip(6, 1, false);  // age out the joins
  std::set<std::uint32_t> seen{7};
  for (int round = 0; round < 49; ++round) {  // 49 others, one per round
    for (const auto& m : t.gossip(6, 1, false)) seen.insert(m.node_id);
  }
  EXPECT_EQ(seen.size(), 50u);
}

// --- bookkeeping ---------------------------------------------------------------------------

TEST(MemberTableTest, MembersIncludeSelfInIdOrder) {
  MemberTable t = table(5);
  t.merge(info(9), kT0);
  t.merge(info(2), kT0);
  LoadIndex load;
  load.capacity = 3.5;
  t.set_self_load(load);
  auto all = t.members();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].info.node_id, 2u);
  EXPECT_EQ(all[1].info.node_id, 5u);
  EXPECT_EQ(all[1].load.capacity, 3.5);
  EXPECT_EQ(all[2].info.node_id, 9u);
  EXPECT_EQ(t.find(5)->info, t.self());
}

}  // namespace
}  // namespace drift
