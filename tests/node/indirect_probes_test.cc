// IndirectProbes: when rounds go out, to which helpers, and which answers count. Time injected.
#include "node/membership/indirect_probes.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using std::chrono::milliseconds;
using ProbesTime = IndirectProbes::TimePoint;
using Ids = std::vector<std::uint32_t>;

const ProbesTime kProbesT0{std::chrono::hours(1)};

IndirectProbes probes(std::size_t helpers = 3) {
  return IndirectProbes(1, {helpers, milliseconds(100), milliseconds(150)});
}

TEST(IndirectProbesTest, HelpersAreTheTargetsNearestRingNeighbours) {
  const Ids live{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_EQ(IndirectProbes::helpers_for(5, live, 3, 0), (Ids{3, 4, 6}));
  // Wraps around the ring: 10's neighbours are 9 and 1, then 8 and 2.
  EXPECT_EQ(IndirectProbes::helpers_for(10, live, 4, 0), (Ids{1, 2, 8, 9}));
  // A later round moves on to the next ones.
  EXPECT_EQ(IndirectProbes::helpers_for(5, live, 3, 3), (Ids{2, 7, 8}));
  // Never the target itself; fewer candidates than asked: all of them.
  EXPECT_EQ(IndirectProbes::helpers_for(5, Ids{5, 2, 9}, 3, 0), (Ids{2, 9}));
  EXPECT_TRUE(IndirectProbes::helpers_for(5, Ids{5}, 3, 0).empty());
}

TEST(IndirectProbesTest, FirstRoundAfterTheDelayThenEveryInterval) {
  IndirectProbes p = probes();
  const std::vector<IndirectProbes::Suspect> suspects{{7, 3, kProbesT0}};
  const Ids live{2, 3, 4, 5, 6, 8, 9};
  EXPECT_TRUE(p.due(suspects, live, kProbesT0).empty());
  EXPECT_TRUE(p.due(suspects, live, kProbesT0 + milliseconds(99)).empty());
  auto rounds = p.due(suspects, live, kProbesT0 + milliseconds(100));
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(rounds[0].target, 7u);
  EXPECT_EQ(rounds[0].incarnation, 3u);
  EXPECT_EQ(rounds[0].helpers, (Ids{5, 6, 8}));  // 6 and 8 are its neighbours, then 5 (< 9)
  EXPECT_TRUE(p.due(suspects, live, kProbesT0 + milliseconds(249)).empty());
  auto second = p.due(suspects, live, kProbesT0 + milliseconds(250));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_GT(second[0].probe, rounds[0].probe);
  EXPECT_EQ(second[0].helpers, (Ids{2, 4, 9}));  // 9, then 2 and 4 three steps away
}

TEST(IndirectProbesTest, NoRoundWithoutHelpersOrWhenTurnedOff) {
  IndirectProbes p = probes();
  EXPECT_TRUE(p.due({{7, 3, kProbesT0}}, Ids{1, 7}, kProbesT0 + milliseconds(500)).empty());
  IndirectProbes off = probes(0);
  EXPECT_TRUE(off.due({{7, 3, kProbesT0}}, Ids{2, 3, 4}, kProbesT0 + milliseconds(500)).empty());
}

TEST(IndirectProbesTest, AnswersCountOnlyForTheCurrentSuspicion) {
  IndirectProbes p = probes();
  const Ids live{2, 3, 4, 5};
  EXPECT_FALSE(p.answers(1, 7, 3));  // no round yet
  auto r = p.due({{7, 3, kProbesT0}}, live, kProbesT0 + milliseconds(100));
  ASSERT_EQ(r.size(), 1u);
  const std::uint64_t probe = r[0].probe;
  EXPECT_TRUE(p.answers(probe, 7, 3));
  EXPECT_TRUE(p.answers(probe, 7, 4));    // it answered at a newer incarnation: alive too
  EXPECT_FALSE(p.answers(probe, 7, 2));   // about an older one
  EXPECT_FALSE(p.answers(probe, 5, 3));   // another target
  EXPECT_FALSE(p.answers(probe + 1, 7, 3));  // a round never sent
  // The suspicion ends (a heartbeat came): late answers to it no longer count.
  p.due({}, live, kProbesT0 + milliseconds(150));
  EXPECT_FALSE(p.answers(probe, 7, 3));
  // A new suspicion at a new incarnation: the old round's answer does not belong to it.
  p.due({{7, 4, kProbesT0 + milliseconds(200)}}, live, kProbesT0 + milliseconds(200));
  EXPECT_FALSE(p.answers(probe, 7, 4));
}

TEST(IndirectProbesTest, ARoundOfTheSameSuspicionStillCountsAfterLaterRounds) {
  IndirectProbes p = probes();
  const Ids live{2, 3, 4, 5};
  const std::vector<IndirectProbes::Suspect> suspects{{7, 3, kProbesT0}};
  auto first = p.due(suspects, live, kProbesT0 + milliseconds(100));
  auto second = p.due(suspects, live, kProbesT0 + milliseconds(250));
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(p.answers(first[0].probe, 7, 3));
  EXPECT_TRUE(p.answers(second[0].probe, 7, 3));
}

TEST(IndirectProbesTest, SeveralSuspectsEachGetTheirRounds) {
  IndirectProbes p = probes(2);
  const Ids live{2, 3, 4, 5, 6};
  auto rounds = p.due({{3, 1, kProbesT0}, {5, 1, kProbesT0}}, live, kProbesT0 + milliseconds(100));
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[0].target, 3u);
  EXPECT_EQ(rounds[1].target, 5u);
  EXPECT_NE(rounds[0].probe, rounds[1].probe);
  for (const auto& r : rounds) {
    EXPECT_EQ(r.helpers.size(), 2u);
    for (std::uint32_t h : r.helpers) {
      EXPECT_NE(h, r.target);
      EXPECT_NE(h, 1u);  // never ourselves
    }
  }
}

}  // namespace
}  // namespace drift
