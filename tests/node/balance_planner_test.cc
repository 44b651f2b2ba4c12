// balance_planner: one node's balancing decision from its measurements and its group's.
#include "node/balance/balance_planner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "balancer/profitability.h"

namespace drift {
namespace {

using balance::NodeLoad;
using balance::Strategy;

std::vector<TaskView> tasks_of(std::uint64_t job, int count, double load) {
  std::vector<TaskView> out;
  for (int i = 0; i < count; ++i) out.push_back({TaskId{job, static_cast<std::uint32_t>(i)}, load, {}});
  return out;
}

double moved_to(const RoundPlan& plan, std::uint32_t dest) {
  double sum = 0;
  for (const auto& m : plan.moves) sum += m.dest == dest ? m.load : 0;
  return sum;
}

TEST(BalancePlannerTest, BalancedGroupMovesNothing) {
  RoundInput in{{1, 100, 10}, {{2, 200, 20}, {3, 50, 5}}, tasks_of(7, 10, 10)};
  RoundPlan plan = plan_round(in, {});
  EXPECT_FALSE(plan.balance_needed);
  EXPECT_NEAR(plan.efficiency, 1.0, 1e-12);
  EXPECT_TRUE(plan.moves.empty());
}

TEST(BalancePlannerTest, SlowNodeSendsWorkToTheFastOneInProportionToCapacity) {
  // Node 1 (capacity 1) holds 20 tasks of 10; node 2 (capacity 9) holds none: ideally 180 of 200
  // go to node 2.
  RoundInput in{{1, 200, 1}, {{2, 0, 9}}, tasks_of(7, 20, 10)};
  RoundPlan plan = plan_round(in, {});
  ASSERT_TRUE(plan.balance_needed);
  const double sent = moved_to(plan, 2);
  EXPECT_GT(sent, 0);
  EXPECT_LE(sent, 200 - 1e-9);
  EXPECT_TRUE(balance::lowers_peak({1, 200, 1}, {2, 0, 9}, sent));
}

TEST(BalancePlannerTest, MovesOnlyWhenTheGainOverTheStepsLeftPaysForThem) {
  // Node 1: 11 tasks of 10 at capacity 100 (U = 1.1 s/step); node 2: 9 at 100 (0.9). One task
  // moving evens them: 0.1 s per step won.
  auto with_steps_left = [](double left) {
    std::vector<TaskView> tasks = tasks_of(7, 11, 10);
    for (auto& t : tasks) t.steps_left = left;
    return tasks;
  };
  PlannerParams params;
  params.eff_min = 0.95;
  RoundInput many{{1, 110, 100}, {{2, 90, 100}}, with_steps_left(100), 0.5};
  EXPECT_FALSE(plan_round(many, params).moves.empty()) << "10 s won for 0.5 s of moving";
  RoundInput few{{1, 110, 100}, {{2, 90, 100}}, with_steps_left(3), 0.5};
  EXPECT_TRUE(plan_round(few, params).moves.empty()) << "0.3 s won for 0.5 s of moving";
  RoundInput unknown{{1, 110, 100}, {{2, 90, 100}}, with_steps_left(-1), 0.5};
  EXPECT_FALSE(plan_round(unknown, params).moves.empty()) << "an unknown run counts as long";
}

TEST(BalancePlannerTest, StrategyNoneAndHealthyEfficiencyDoNothing) {
  RoundInput in{{1, 200, 1}, {{2, 0, 9}}, tasks_of(7, 20, 10)};
  PlannerParams none;
  none.strategy = Strategy::kNone;
  EXPECT_TRUE(plan_round(in, none).moves.empty());
  PlannerParams lax;
  lax.eff_min = 0.05;  // efficiency here is 0.5 (U 200 vs avg 100)
  EXPECT_TRUE(plan_round(in, lax).moves.empty());
}

// Node 2 is the bottleneck; node 1 is 3 % above the balanced level (own efficiency 0.97): it
// leaves the work to node 2 rather than trading a task with node 3 on an imbalance that small.
TEST(BalancePlannerTest, OnlyAMemberOutOfBalanceItselfSends) {
  PlannerParams params;
  params.eff_min = 0.95;
  RoundInput near{{1, 103, 100}, {{2, 150, 100}, {3, 47, 100}}, tasks_of(7, 10, 10.3)};
  RoundPlan plan = plan_round(near, params);
  EXPECT_TRUE(plan.balance_needed);
  EXPECT_TRUE(plan.moves.empty());
  RoundInput bottleneck{{2, 150, 100}, {{1, 103, 100}, {3, 47, 100}}, tasks_of(7, 10, 15)};
  EXPECT_FALSE(plan_round(bottleneck, params).moves.empty());
}

// Own efficiency 100 / 108 = 0.926: below eff_min 0.95, so an unsettled node sends; a settled
// one (its last round sent nothing) waits for an imbalance past eff_min - hysteresis = 0.90.
TEST(BalancePlannerTest, ASettledNodeWaitsForAClearlyLargerImbalance) {
  PlannerParams params;
  params.eff_min = 0.95;
  params.hysteresis = 0.05;
  RoundInput in{{1, 108, 100}, {{2, 92, 100}}, tasks_of(7, 27, 4)};
  EXPECT_FALSE(plan_round(in, params).moves.empty());
  in.settled = true;
  EXPECT_TRUE(plan_round(in, params).moves.empty());
  in.self.load = 116;  // own efficiency 1.04 / 1.16 = 0.897
  in.tasks = tasks_of(7, 29, 4);
  EXPECT_FALSE(plan_round(in, params).moves.empty());
  params.hysteresis = 0;
  in.self.load = 108;
  in.tasks = tasks_of(7, 27, 4);
  EXPECT_FALSE(plan_round(in, params).moves.empty()) << "no hysteresis: the plain threshold";
}

// Locality is a preference worth a fraction of each task's load: tasks whose partners all stay
// here still move when the transfer needs them (it once cost 0.1 of the whole transfer per
// task, and a slow machine shed only its border tasks, a few per round).
TEST(BalancePlannerTest, LocalityDoesNotHoldBackALargeTransfer) {
  std::vector<TaskView> tasks = tasks_of(7, 20, 10);
  for (auto& t : tasks) t.partners = {{1, 4}};
  RoundInput in{{1, 200, 1}, {{2, 0, 9}}, tasks};
  EXPECT_GE(moved_to(plan_round(in, {}), 2), 170);
}

// A slow machine sends its whole excess in one round, split among the receivers below the
// balanced level by their deficits: it cannot send again before its worker is free.
TEST(BalancePlannerTest, TheWholeExcessGoesInOneRound) {
  RoundInput in{{1, 300, 1}, {{2, 0, 9}, {3, 0, 10}}, tasks_of(7, 30, 10)};
  const RoundPlan plan = plan_round(in, {});
  const double to2 = moved_to(plan, 2), to3 = moved_to(plan, 3);
  EXPECT_GE(to2 + to3, 280);  // balanced: 15 per unit of capacity, 15 stay here
  EXPECT_NEAR(to2, 135, 10);
  EXPECT_NEAR(to3, 150, 10);
}

TEST(BalancePlannerTest, PrefersTasksWhosePartnersLiveAtTheDestination) {
  // Two equal tasks; moving one is enough. Task 1 talks to tasks on node 2.
  std::vector<TaskView> tasks = tasks_of(7, 2, 10);
  tasks[0].partners = {{1, 5}};
  tasks[1].partners = {{2, 5}};
  RoundInput in{{1, 20, 1}, {{2, 0, 1}}, tasks};
  RoundPlan plan = plan_round(in, {});
  ASSERT_EQ(plan.moves.size(), 1u);
  EXPECT_EQ(plan.moves[0].task.index, 1u);
  EXPECT_EQ(plan.moves[0].dest, 2u);
}

TEST(BalancePlannerTest, RespectsMaxMoves) {
  RoundInput in{{1, 1000, 1}, {{2, 0, 10}, {3, 0, 10}}, tasks_of(7, 100, 10)};
  PlannerParams p;
  p.max_moves = 5;
  EXPECT_EQ(plan_round(in, p).moves.size(), 5u);
}

TEST(BalancePlannerTest, TasksTooCoarseForTheTransferStay) {
  // A transfer smaller than any task cannot be met: moving the one task would reverse the order.
  RoundInput in{{1, 100, 1}, {{2, 70, 1}}, tasks_of(7, 1, 100)};
  EXPECT_TRUE(plan_round(in, {}).moves.empty());
}

TEST(BalancePlannerTest, ReceiverInitiatedAsksTheBusyNeighbours) {
  PlannerParams rid;
  rid.strategy = Strategy::kRid;
  RoundInput idle{{1, 0, 4}, {{2, 400, 4}, {3, 40, 4}}, {}};
  RoundPlan plan = plan_round(idle, rid);
  EXPECT_TRUE(plan.moves.empty());
  ASSERT_FALSE(plan.requests.empty());
  double from_busy = 0;
  for (const auto& r : plan.requests) {
    EXPECT_GT(r.amount, 0);
    if (idle.peers[r.from].id == 2) from_busy += r.amount;
  }
  EXPECT_GT(from_busy, 0);
  // A busy node asks nobody.
  RoundInput busy{{1, 400, 4}, {{2, 0, 4}}, tasks_of(7, 4, 100)};
  EXPECT_TRUE(plan_round(busy, rid).requests.empty());
}

TEST(BalancePlannerTest, AnswerToARequestNeverLeavesTheReceiverBusier) {
  auto tasks = tasks_of(7, 10, 10);
  auto moves = answer_request({1, 100, 1}, {2, 0, 1}, 50, tasks, {});
  double sent = 0;
  for (const auto& m : moves) sent += m.load;
  EXPECT_NEAR(sent, 50, 1e-9);
  EXPECT_TRUE(answer_request({1, 100, 1}, {2, 95, 1}, 50, tasks, {}).empty());
}

}  // namespace
}  // namespace drift

namespace drift {
namespace {

std::vector<TaskView> splittable_tasks(std::uint64_t job, int count, double load) {
  std::vector<TaskView> out = tasks_of(job, count, load);
  for (auto& t : out) t.splittable = true;
  return out;
}

// Node 3 (capacity 50) would take a task of 1 in 20 ms by its capacity, below this node's 40 ms,
// but its steps cost it 60 ms beyond that whenever it holds work (the messages it relays, at a
// tiny share of the CPU): neither a task nor half of one goes there; node 2 takes what balances
// the two others.
TEST(BalancePlannerTest, NothingGoesToAMemberWhoseStepFloorIsAboveThePeak) {
  const std::vector<NodeLoad> peers{{2, 2, 100}, {3, 0, 50, 0.06}};
  RoundInput in{{1, 4, 100}, peers, splittable_tasks(7, 4, 1)};
  RoundPlan plan = plan_round(in, {});
  EXPECT_EQ(moved_to(plan, 3), 0);
  EXPECT_GT(moved_to(plan, 2), 0);
  for (const auto& s : plan.splits) EXPECT_NE(s.dest, 3u);
  // Without the floor it is the best receiver.
  RoundInput unfloored{{1, 4, 100}, {{2, 2, 100}, {3, 0, 50}}, splittable_tasks(7, 4, 1)};
  EXPECT_GT(moved_to(plan_round(unfloored, {}), 3), 0);
}

// The same node holding half a tile: 70 ms a step, the group's slowest by far. It sends the half
// away although by its capacity it holds less than its share.
// One task left of a small job, four equal hosts; the others last measured smaller floors,
// without this task's overhead. Moving it would only swap the roles: it stays.
TEST(BalancePlannerTest, ALoneTaskStaysAmongEqualHosts) {
  auto lone = tasks_of(7, 1, 1.1e-4);
  RoundInput in{{3, 1.1e-4, 1, 1.66e-4}, {{1, 0, 1, 1.3e-4}, {2, 0, 1}, {4, 0, 1, 1.32e-4}}, lone};
  RoundPlan plan = plan_round(in, {});
  EXPECT_TRUE(plan.balance_needed) << "one of four busy";
  EXPECT_TRUE(plan.moves.empty());
  EXPECT_TRUE(plan.splits.empty());
  // A host twice as fast takes it.
  in.peers[1].capacity = 2;
  plan = plan_round(in, {});
  ASSERT_EQ(plan.moves.size(), 1u);
  EXPECT_EQ(plan.moves[0].dest, 2u);
}

TEST(BalancePlannerTest, AMemberHeldUpByItsStepFloorSendsItsLastTask) {
  RoundInput in{{3, 0.5, 50, 0.06}, {{1, 2, 100}, {2, 2, 100}}, splittable_tasks(7, 1, 0.5)};
  RoundPlan plan = plan_round(in, {});
  ASSERT_EQ(plan.moves.size(), 1u);
  EXPECT_NE(plan.moves[0].dest, 3u);
  RoundInput unfloored{{3, 0.5, 50}, {{1, 2, 100}, {2, 2, 100}}, splittable_tasks(7, 1, 0.5)};
  EXPECT_TRUE(plan_round(unfloored, {}).moves.empty());
}

}  // namespace
}  // namespace drift

namespace drift {
namespace {

TEST(BalancePlannerTest, APeersStepFloorCountsOnlyAsAFinitePositiveNumber) {
  EXPECT_DOUBLE_EQ(peer_floor(0.029), 0.029);
  EXPECT_EQ(peer_floor(0), 0);
  EXPECT_EQ(peer_floor(-1), 0);
  EXPECT_EQ(peer_floor(std::nan("")), 0);
  EXPECT_EQ(peer_floor(std::numeric_limits<double>::infinity()), 0);
}

TEST(BalancePlannerTest, APeerHoldingLoadCountsOnlyOnceItsCapacityIsMeasured) {
  // Recorded in the real testbed's equal-quota particles row: node 1 had just measured 2.46e6
  // particles/s; its peers, each holding 18 tasks, still advertised the benchmark's 1.6e8-3.0e8.
  LoadIndex peer;
  peer.task_load = 4.49e5;
  peer.capacity = 2.96e8;
  peer.capacity_measured = false;
  EXPECT_FALSE(balancing_peer(2, peer));
  // Measured, it counts, with its floor.
  peer.capacity = 2.29e6;
  peer.capacity_measured = true;
  peer.step_floor = 0.04;
  auto counted = balancing_peer(2, peer);
  ASSERT_TRUE(counted);
  EXPECT_EQ(counted->id, 2u);
  EXPECT_DOUBLE_EQ(counted->load, 4.49e5);
  EXPECT_DOUBLE_EQ(counted->capacity, 2.29e6);
  EXPECT_DOUBLE_EQ(counted->floor, 0.04);
  // An empty member has nothing to measure by: its estimate is what there is.
  LoadIndex empty;
  empty.capacity = 2.96e8;
  empty.capacity_measured = false;
  EXPECT_TRUE(balancing_peer(3, empty));
}

TEST(BalancePlannerTest, APeerWithUnusableValuesOrItsOwnerBackIsLeftOut) {
  LoadIndex peer;
  peer.task_load = 10;
  peer.capacity = 100;
  ASSERT_TRUE(balancing_peer(2, peer));
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -1.0}) {
    LoadIndex p = peer;
    p.task_load = bad;
    EXPECT_FALSE(balancing_peer(2, p)) << "load " << bad;
    p = peer;
    p.capacity = bad;
    EXPECT_FALSE(balancing_peer(2, p)) << "capacity " << bad;
  }
  LoadIndex zero = peer;
  zero.capacity = 0;
  EXPECT_FALSE(balancing_peer(2, zero));
  LoadIndex reclaimed = peer;
  reclaimed.owner = OwnerState::kReclaimed;
  EXPECT_FALSE(balancing_peer(2, reclaimed));
}

}  // namespace
}  // namespace drift
