// Lee's criteria (seed 001): balance only below eff_min and when the time won over the remaining
// steps beats the migration cost; never move work that turns the receiver into the busier node.
#include "balancer/profitability.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace drift::balance {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ProfitInputs inputs(double eff, double now, double after, double remaining, double cost) {
  return {eff, 0.9, now, after, remaining, cost};
}

TEST(ProfitabilityTest, TruthTable) {
  struct Row {
    ProfitInputs in;
    bool profitable;
    const char* why;
  };
  const Row rows[] = {
      {inputs(0.5, 10, 4, 100, 60), true, "gain 600 > cost 60"},
      {inputs(0.95, 10, 4, 100, 60), false, "already efficient enough"},
      {inputs(0.9, 10, 4, 100, 60), false, "eff == eff_min is enough"},
      {inputs(0.5, 10, 4, 10, 60), false, "gain 60 == cost 60 does not pay"},
      {inputs(0.5, 10, 4, 10, 59.9), true, "gain 60 > cost 59.9"},
      {inputs(0.5, 10, 4, 0, 0), false, "no steps left: nothing to win"},
      {inputs(0.5, 10, 10, 1000, 0), false, "no gain, even for free"},
      {inputs(0.5, 10, 12, 1000, 0), false, "the moves make it worse"},
      {inputs(0.5, 10, 9.99, 1e9, 1e6), true, "a small gain over many steps"},
      {inputs(0.5, 10, 4, kInf, 1e12), true, "unknown (infinite) remaining steps"},
      {inputs(0.5, 10, 10, kInf, 0), false, "no gain over infinite steps (0 * inf)"},
      {inputs(0.5, 10, 4, 100, kInf), false, "infinite cost"},
      {inputs(kNaN, 10, 4, 100, 1), false, "NaN efficiency"},
      {inputs(0.5, kNaN, 4, 100, 1), false, "NaN step time"},
      {inputs(0.5, 10, 4, 100, kNaN), false, "NaN cost"},
  };
  for (const Row& r : rows) EXPECT_EQ(profitable(r.in), r.profitable) << r.why;
}

TEST(ProfitabilityTest, EffMinIsTheCallers) {
  ProfitInputs in = inputs(0.95, 10, 4, 100, 60);
  in.eff_min = 0.99;
  EXPECT_TRUE(profitable(in));
}

TEST(KeepsOrderTest, TruthTable) {
  struct Row {
    NodeLoad sender, receiver;
    double amount;
    bool keeps;
    const char* why;
  };
  const Row rows[] = {
      {{0, 10, 1}, {1, 0, 1}, 5, true, "evens out exactly"},
      {{0, 10, 1}, {1, 0, 1}, 4, true, "stays below"},
      {{0, 10, 1}, {1, 0, 1}, 5.01, false, "overshoots"},
      {{0, 10, 1}, {1, 0, 1}, 0, true, "moving nothing"},
      {{0, 10, 1}, {1, 20, 1}, 0, false, "receiver already busier"},
      {{0, 70, 3}, {1, 0, 4}, 40, true, "heterogeneous: 30/3 = 10 = 40/4"},
      {{0, 70, 3}, {1, 0, 4}, 41, false, "heterogeneous: 29/3 < 41/4"},
      {{0, 100, 39}, {1, 0, 1}, 2.5, true, "fast sender, slow receiver: 97.5/39 = 2.5"},
      {{0, 100, 39}, {1, 0, 1}, 3, false, "fast sender, slow receiver: 3 > 97/39"},
      {{0, 10, 0}, {1, 0, 1}, 10, true, "a sender without capacity may give all"},
      {{0, 10, 0}, {1, 0, 1}, 5, true, "and keeps infinite utilization while it holds load"},
      {{0, 10, 1}, {1, 0, 0}, 1, false, "a receiver without capacity takes nothing"},
      {{0, 10, 0}, {1, 0, 0}, 1, false, "not even from a sender without capacity"},
      {{0, 10, 1}, {1, 0, 0}, 0, true, "but an empty one may be given nothing"},
      {{0, 10, 1}, {1, 0, 1}, -1, false, "negative amount"},
      {{0, 10, 1}, {1, 0, 1}, 11, false, "more than the sender holds"},
      {{0, 10, 1}, {1, 0, 1}, kNaN, false, "NaN amount"},
      {{0, 10, 1}, {1, 0, 1}, kInf, false, "infinite amount"},
  };
  for (const Row& r : rows)
    EXPECT_EQ(keeps_order(r.sender, r.receiver, r.amount), r.keeps) << r.why;
}

TEST(KeepsOrderTest, ExactEveningOutSurvivesRounding) {
  // 0.1 + 0.2 style rounding must not flip an exact evening-out.
  const NodeLoad sender{0, 0.7, 0.3}, receiver{1, 0.1, 0.7};
  const double even = (0.7 * 0.7 - 0.3 * 0.1) / (0.3 + 0.7);
  EXPECT_TRUE(keeps_order(sender, receiver, even));
  EXPECT_FALSE(keeps_order(sender, receiver, even * 1.001));
}

TEST(LowersPeakTest, LeesConditionAllowsACoarseTaskThatLowersThePairsPeak) {
  // Sender 3 tasks of 1 at capacity 1 (U 3), receiver 24 at capacity 9 (U 2.67): moving one task
  // leaves the receiver at 2.78 > the sender's 2 — keeps_order refuses, Lee's condition allows.
  const NodeLoad sender{1, 3, 1}, receiver{2, 24, 9};
  EXPECT_FALSE(keeps_order(sender, receiver, 1));
  EXPECT_TRUE(lowers_peak(sender, receiver, 1));
  // Moving it back would need the receiver's new 2.78 to exceed... the sender's new 2 + 1 = 3: no.
  EXPECT_FALSE(lowers_peak({2, 25, 9}, {1, 2, 1}, 1));
}

TEST(LowersPeakTest, RefusesMovesThatDoNotLowerThePeakAndBadInput) {
  EXPECT_FALSE(lowers_peak({1, 10, 1}, {2, 9, 1}, 1));   // receiver ends at the sender's 10
  EXPECT_TRUE(lowers_peak({1, 10, 1}, {2, 8, 1}, 1));
  EXPECT_FALSE(lowers_peak({1, 10, 1}, {2, 0, 1}, 0));   // nothing moves
  EXPECT_FALSE(lowers_peak({1, 10, 1}, {2, 0, 1}, 11));  // more than the sender holds
  EXPECT_FALSE(lowers_peak({1, 10, 1}, {2, 0, 0}, 1));   // receiver without capacity
  EXPECT_TRUE(lowers_peak({1, 10, 0}, {2, 5, 1}, 10));   // a sender leaving the pool
  EXPECT_FALSE(lowers_peak({1, 10, 1}, {2, 0, 1}, std::nan("")));
}

// The real-CPU testbed's slowest node (a thirtieth of a core) spends about 0.7 ms of CPU a step
// on the halos and reductions it relays whatever it computes: 21 ms at its share. Half a tile
// (16 ms at its capacity) looked like a gain by capacity alone; with the floor it is 37 ms.
TEST(LowersPeakTest, AStepFloorAboveTheSendersUtilizationRefusesTheReceiver) {
  const NodeLoad fast{1, 2.36, 124};       // U 19 ms
  const NodeLoad slow{5, 0, 16.5, 0.021};  // holds nothing; 21 ms a step beyond L / C
  EXPECT_FALSE(lowers_peak(fast, slow, 0.26));
  EXPECT_TRUE(lowers_peak(fast, NodeLoad{5, 0, 16.5}, 0.26)) << "by capacity alone it would go";
  // Holding the half tile, it is the slowest at 37 ms: it gives it to the fast node (21 ms).
  EXPECT_TRUE(lowers_peak({5, 0.26, 16.5, 0.021}, fast, 0.26));
  // Floors alike on both sides change little: 10 + 0.5 at the sender, 9 + 0.5 at the receiver.
  EXPECT_TRUE(lowers_peak({1, 10, 1, 0.5}, {2, 8, 1, 0.5}, 1));
}

TEST(LowersPeakTest, AStepFloorKeepsMovesFromComingBack) {
  // Sender U 3 + 0.5; the receiver gets the task: 1.5 + 1 = 2.5 < 3.5. Back: the sender would
  // be at 3 + 0.5 again, above the receiver's 2.5: no.
  const NodeLoad sender{1, 3, 1, 0.5}, receiver{2, 0.5, 1, 1.0};
  ASSERT_TRUE(lowers_peak(sender, receiver, 1));
  EXPECT_FALSE(lowers_peak({2, 1.5, 1, 1.0}, {1, 2, 1, 0.5}, 1));
}

// Seen on the multi-host test: one task left of a small job (0.11 ms a step at its capacity)
// went back and forth between two equal hosts every round. Its host measured a floor of 0.166 ms
// with the task; the idle one still advertised the 0.132 ms it measured before, without the
// task's own overhead, so the task always looked 14 % faster elsewhere.
TEST(LowersPeakTest, ALoneTaskDoesNotGoBackAndForthOnTheFloorItBringsAlong) {
  const NodeLoad host{3, 1.1e-4, 1, 1.66e-4}, idle{4, 0, 1, 1.32e-4};
  EXPECT_FALSE(lowers_peak(host, idle, 1.1e-4));
  // Nor the other way round, once the other host measured the task's overhead itself.
  EXPECT_FALSE(lowers_peak({4, 1.1e-4, 1, 1.70e-4}, {3, 0, 1, 1.66e-4}, 1.1e-4));
  // A faster idle node still takes it: the same work, overhead included, at twice the speed.
  EXPECT_TRUE(lowers_peak(host, {4, 0, 2, 1.32e-4}, 1.1e-4));
}

}  // namespace
}  // namespace drift::balance
