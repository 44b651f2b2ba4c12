#include "node/balance/load_meter.h"

#include <gtest/gtest.h>

#include <span>

#include "node/tasks/handler_effects.h"

namespace drift {
namespace {

const TaskId kA{1, 0};
const TaskId kB{1, 1};

// One handler's effects: `busy` seconds computing `work` units, then `contributions` step ends.
HandlerEffects effects(TaskId task, double load, double busy, double work, int contributions = 0) {
  HandlerEffects e;
  e.task = task;
  e.load = load;
  e.busy_seconds = busy;
  e.work_units = work;
  for (int i = 0; i < contributions; ++i) {
    ReductionContribution c;
    c.job = task.job;
    c.task = task.index;
    c.step = static_cast<std::uint64_t>(i);
    e.contributions.push_back(c);
  }
  return e;
}

// External load per core, set by the test, read by the meter at sense().
struct FakeExternalLoad {
  double value = 0;
  double asked_at = -1;
  LoadMeter::ExternalLoadSource source() {
    return [this](double now_s) {
      asked_at = now_s;
      return value;
    };
  }
};

LoadMeter::Params dynamic_params(double static_capacity = 500) {
  LoadMeter::Params p;
  p.static_capacity = static_capacity;
  return p;
}

// Feeds `e` three times: the meter is measured from its third sample (each a full window here).
void three_samples(LoadMeter& m, const HandlerEffects& e, double now_s) {
  for (int i = 0; i < 3; ++i) m.on_effects(e, now_s);
}

TEST(LoadMeterTest, EmptyMeterAdvertisesTheStaticEstimate) {
  LoadMeter m(dynamic_params(500), nullptr);
  EXPECT_FALSE(m.measured());
  EXPECT_EQ(m.node_load(), 0);
  EXPECT_EQ(m.task_load(kA), 0);
  EXPECT_EQ(m.task(kA), nullptr);
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
  EXPECT_EQ(m.utilization(), 0);
  m.sense(1);  // no source: no external load
  EXPECT_EQ(m.external_load(), 0);
}

TEST(LoadMeterTest, DynamicCapacityIsWorkPerBusySecondWithoutWaitingForTheStepToEnd) {
  LoadMeter m(dynamic_params(500), nullptr);
  EXPECT_FALSE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
  m.on_effects(effects(kA, 100, 0.5, 1000), 1);  // no contribution yet: still a sample
  EXPECT_FALSE(m.measured()) << "the first of three";
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
  m.on_effects(effects(kA, 100, 0.5, 1000), 1);
  m.on_effects(effects(kA, 100, 0.5, 1000), 1);
  EXPECT_TRUE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 2000);
  m.on_effects(effects(kA, 100, 0.5, 1000, 1), 2);  // step ends: 2000 units in 1 s
  EXPECT_DOUBLE_EQ(m.capacity(), 2000);
  EXPECT_DOUBLE_EQ(m.base_capacity(), 2000);
}

TEST(LoadMeterTest, StaticCapacityIgnoresMeasurements) {
  LoadMeter::Params p = dynamic_params(500);
  p.capacity = CapacityMode::kStatic;
  LoadMeter m(p, nullptr);
  three_samples(m, effects(kA, 100, 1, 2000, 1), 1);
  EXPECT_TRUE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
}

TEST(LoadMeterTest, OnlyADynamicCapacityWaitsToBeMeasured) {
  // Dynamic: the start-up estimate is not in the load's units until measured.
  LoadMeter dynamic(dynamic_params(500), nullptr);
  EXPECT_FALSE(dynamic.capacity_measured());
  three_samples(dynamic, effects(kA, 100, 0.5, 1000), 1);
  EXPECT_TRUE(dynamic.capacity_measured());
  // Static and homogeneous capacities are what they will stay.
  LoadMeter::Params p = dynamic_params(500);
  p.capacity = CapacityMode::kStatic;
  EXPECT_TRUE(LoadMeter(p, nullptr).capacity_measured());
  p = dynamic_params(500);
  p.homogeneous = true;
  EXPECT_TRUE(LoadMeter(p, nullptr).capacity_measured());
}

TEST(LoadMeterTest, ContributionsMarkStepBoundaries) {
  LoadMeter m(dynamic_params(), nullptr);
  m.on_effects(effects(kA, 100, 0.25, 50), 1);
  m.on_effects(effects(kA, 100, 0.5, 100, 1), 2);  // step 0: 0.75 s, 150 units
  const TaskMeasure* t = m.task(kA);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->steps, 1u);
  EXPECT_DOUBLE_EQ(t->step_busy_s, 0.75);
  EXPECT_DOUBLE_EQ(t->step_work_units, 150);
  EXPECT_DOUBLE_EQ(t->last_step_s, 2);
  EXPECT_EQ(t->partial_busy_s, 0);
  m.on_effects(effects(kA, 120, 0.1, 10), 3);  // step 1 begins afresh
  t = m.task(kA);
  EXPECT_DOUBLE_EQ(t->step_busy_s, 0.75);  // still the last complete step
  EXPECT_DOUBLE_EQ(t->partial_busy_s, 0.1);
  EXPECT_DOUBLE_EQ(t->work_units, 160);
  EXPECT_DOUBLE_EQ(t->load, 120);  // the task's newest report
  EXPECT_DOUBLE_EQ(m.task_load(kA), 120);
}

TEST(LoadMeterTest, SeveralContributionsInOneHandlerShareItsTime) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kB, 100, 1, 400), 1);
  m.on_effects(effects(kA, 100, 1, 400, 2), 1);
  EXPECT_EQ(m.task(kA)->steps, 2u);
  EXPECT_DOUBLE_EQ(m.task(kA)->step_busy_s, 0.5);
  EXPECT_DOUBLE_EQ(m.capacity(), 400);
}

TEST(LoadMeterTest, EwmaWeightsTheBestOfTheLastThreeSamples) {
  LoadMeter::Params p = dynamic_params();
  p.ewma = 0.25;
  LoadMeter m(p, nullptr);
  three_samples(m, effects(kA, 1, 1, 1000), 1);  // the best of the first three, as is
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
  m.on_effects(effects(kB, 1, 1, 2000), 2);  // a faster window counts at once
  EXPECT_DOUBLE_EQ(m.capacity(), 0.25 * 2000 + 0.75 * 1000);
  m.on_effects(effects(kA, 1, 2, 2000), 3);  // 1000/s, but 2000 is still among the last three
  EXPECT_DOUBLE_EQ(m.capacity(), 0.25 * 2000 + 0.75 * 1250);
}

// Interference only slows a window down: one or two slow windows in a row leave the estimate
// alone; three in a row are a change of speed.
TEST(LoadMeterTest, SlowWindowsMoveTheEstimateOnlyWhenTheyLast) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kA, 1, 1, 1000), 0);
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
  m.on_effects(effects(kA, 1, 1, 600), 1);  // max(1000, 1000, 600)
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
  m.on_effects(effects(kA, 1, 1, 600), 2);  // max(1000, 600, 600)
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
  m.on_effects(effects(kA, 1, 1, 600), 3);  // max(600, 600, 600)
  EXPECT_DOUBLE_EQ(m.capacity(), 0.5 * 600 + 0.5 * 1000);
  m.on_effects(effects(kA, 1, 1, 600), 4);
  EXPECT_DOUBLE_EQ(m.capacity(), 0.5 * 600 + 0.5 * 800);
}

// A node's first window is often its most disturbed one (tasks just arrived, every node starting
// its step at once): the first 0.2 s of busy time are cut into three samples, the best of which
// starts the estimate, so a node is measured as soon as it used to be with one sample.
TEST(LoadMeterTest, TheFirstWindowIsCutInThree) {
  LoadMeter m(dynamic_params(500), nullptr);
  m.on_effects(effects(kA, 1, 0.07, 49), 1);  // 700/s
  m.on_effects(effects(kA, 1, 0.07, 70), 2);  // 1000/s
  EXPECT_FALSE(m.measured());
  m.on_effects(effects(kA, 1, 0.07, 56), 3);  // 800/s
  ASSERT_TRUE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
}

TEST(LoadMeterTest, StepsWithoutWorkOrBusyTimeAreNoSample) {
  LoadMeter m(dynamic_params(500), nullptr);
  m.on_effects(effects(kA, 1, 0, 0, 1), 1);
  m.on_effects(effects(kA, 1, 0.5, 0, 1), 2);
  EXPECT_FALSE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
}

TEST(LoadMeterTest, ParallelismScalesTheSamples) {
  LoadMeter::Params p = dynamic_params();
  p.parallelism = 4;  // four workers compute side by side, each at the measured rate
  LoadMeter m(p, nullptr);
  three_samples(m, effects(kA, 1, 1, 1000, 1), 1);
  EXPECT_DOUBLE_EQ(m.capacity(), 4000);
}

TEST(LoadMeterTest, UtilizationIsNodeLoadOverCapacity) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kA, 300, 1, 2000, 1), 1);
  m.on_effects(effects(kB, 700, 0, 0), 1);
  EXPECT_DOUBLE_EQ(m.node_load(), 1000);
  EXPECT_DOUBLE_EQ(m.utilization(), 0.5);
}

TEST(LoadMeterTest, HomogeneousLoadIsBusySecondsPerStepAndCapacityOne) {
  LoadMeter::Params p = dynamic_params(500);
  p.homogeneous = true;
  LoadMeter m(p, nullptr);
  m.on_effects(effects(kA, 300, 0.2, 100), 1);
  EXPECT_DOUBLE_EQ(m.task_load(kA), 0.2);  // no complete step yet: the step so far
  m.on_effects(effects(kA, 300, 0.1, 100, 1), 2);
  m.on_effects(effects(kB, 700, 0.5, 500, 1), 2);
  EXPECT_DOUBLE_EQ(m.task_load(kA), 0.3);
  EXPECT_DOUBLE_EQ(m.task_load(kB), 0.5);
  EXPECT_DOUBLE_EQ(m.node_load(), 0.8);
  EXPECT_EQ(m.capacity(), 1);
  EXPECT_DOUBLE_EQ(m.utilization(), 0.8);
  EXPECT_DOUBLE_EQ(m.task(kA)->load, 300);  // the abstract load is still there
}

TEST(LoadMeterTest, ExternalLoadIsNotCountedTwice) {
  // An unloaded machine does 1000 units/s; one competing process halves what a task gets.
  FakeExternalLoad ext;
  LoadMeter m(dynamic_params(800), ext.source());
  ext.value = 1;
  m.sense(5);
  EXPECT_EQ(ext.asked_at, 5);
  EXPECT_DOUBLE_EQ(m.external_load(), 1);
  EXPECT_DOUBLE_EQ(m.capacity(), 400);             // the static estimate drops at once
  three_samples(m, effects(kA, 1, 1, 500, 1), 6);  // measured under that load: 500/s
  EXPECT_DOUBLE_EQ(m.base_capacity(), 1000);       // normalised
  EXPECT_DOUBLE_EQ(m.capacity(), 500);             // what a task gets now, not 250
  ext.value = 0;
  m.sense(7);
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);  // the load went away: before any new sample
  m.on_effects(effects(kA, 1, 1, 1000, 1), 8);
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
}

TEST(LoadMeterTest, SensingEveryFollowsMeasurementsAndLoad) {
  FakeExternalLoad ext;
  LoadMeter m(dynamic_params(), ext.source());
  three_samples(m, effects(kA, 1, 1, 1000, 1), 1);
  m.on_effects(effects(kA, 1, 1, 3000, 1), 2);
  EXPECT_DOUBLE_EQ(m.capacity(), 2000);
  ext.value = 3;
  m.sense(3);
  EXPECT_DOUBLE_EQ(m.capacity(), 500);
}

TEST(LoadMeterTest, SensingOnceFreezesAfterTheFirstMeasuredStep) {
  FakeExternalLoad ext;
  LoadMeter::Params p = dynamic_params(800);
  p.sensing = Sensing::kOnce;
  LoadMeter m(p, ext.source());
  ext.value = 1;
  m.sense(1);
  EXPECT_DOUBLE_EQ(m.capacity(), 400);  // not yet measured: still follows the load
  ext.value = 0;
  m.sense(2);
  three_samples(m, effects(kA, 1, 1, 2000, 1), 3);
  EXPECT_DOUBLE_EQ(m.capacity(), 2000);
  three_samples(m, effects(kA, 1, 1, 500, 1), 4);
  ext.value = 3;
  m.sense(5);
  EXPECT_DOUBLE_EQ(m.capacity(), 2000);    // frozen
  EXPECT_DOUBLE_EQ(m.external_load(), 3);  // still sensed and reported
  EXPECT_DOUBLE_EQ(m.utilization(), m.node_load() / 2000);
}

TEST(LoadMeterTest, BadExternalLoadReadsAsZero) {
  FakeExternalLoad ext;
  LoadMeter m(dynamic_params(100), ext.source());
  ext.value = -2;
  m.sense(1);
  EXPECT_EQ(m.external_load(), 0);
  ext.value = std::numeric_limits<double>::quiet_NaN();
  m.sense(2);
  EXPECT_EQ(m.external_load(), 0);
  EXPECT_DOUBLE_EQ(m.capacity(), 100);
}

TEST(LoadMeterTest, ForgetAndRetainDropTasksThatLeft) {
  LoadMeter m(dynamic_params(), nullptr);
  m.on_effects(effects(kA, 300, 0, 0), 1);
  m.on_effects(effects(kB, 700, 0, 0), 1);
  const TaskId c{2, 0};
  m.on_effects(effects(c, 50, 0, 0), 1);
  m.forget(kA);
  EXPECT_EQ(m.task(kA), nullptr);
  EXPECT_DOUBLE_EQ(m.node_load(), 750);
  m.retain({c, TaskId{9, 9}});
  EXPECT_EQ(m.task(kB), nullptr);
  EXPECT_DOUBLE_EQ(m.node_load(), 50);
  EXPECT_EQ(m.tasks().size(), 1u);
}

TEST(LoadMeterTest, FinishedTaskLeavesButItsLastStepCounts) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kB, 1, 1, 1500), 1);
  HandlerEffects last = effects(kA, 300, 1, 1500, 1);
  last.finished = TaskFinished{};
  m.on_effects(last, 1);
  EXPECT_EQ(m.task(kA), nullptr);
  EXPECT_TRUE(m.measured());
  EXPECT_DOUBLE_EQ(m.capacity(), 1500);
  HandlerEffects failed = effects(kB, 300, 0, 0);
  failed.error = "boom";
  m.on_effects(failed, 2);  // kB leaves too
  EXPECT_EQ(m.node_load(), 0);
}

TEST(LoadMeterTest, ArrivingTaskCountsWithItsSendersLoadUntilMeasuredHere) {
  LoadMeter m(dynamic_params(), nullptr);
  m.expect(kA, 250);
  EXPECT_DOUBLE_EQ(m.task_load(kA), 250);
  EXPECT_DOUBLE_EQ(m.node_load(), 250);
  m.on_effects(effects(kA, 300, 0.1, 300), 1);  // its own report replaces the sender's
  EXPECT_DOUBLE_EQ(m.task_load(kA), 300);
  m.expect(kA, 999);  // already known here: ignored
  EXPECT_DOUBLE_EQ(m.task_load(kA), 300);
  m.expect(kB, -1);  // not a load
  EXPECT_EQ(m.task(kB), nullptr);
}

TEST(LoadMeterTest, HomogeneousArrivalCountsItsSendersSecondsUntilAStepEnds) {
  LoadMeter::Params p = dynamic_params();
  p.homogeneous = true;
  LoadMeter m(p, nullptr);
  m.expect(kA, 0.5);
  EXPECT_DOUBLE_EQ(m.task_load(kA), 0.5);
  m.on_effects(effects(kA, 300, 0.2, 300, 1), 1);
  EXPECT_DOUBLE_EQ(m.task_load(kA), 0.2);
}

TEST(LoadMeterTest, ShortStepsArePooledIntoOneSample) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kB, 1, 1, 1000), 0);
  // 3 ms steps at 1000 units/s, one slow outlier: nothing is sampled until 0.2 s are pooled,
  // then the sample is the pooled rate, not the last step's.
  for (int i = 0; i < 60; ++i) m.on_effects(effects(kA, 3, 0.003, 3, 1), 0.003 * i);
  EXPECT_DOUBLE_EQ(m.capacity(), 1000);
  m.on_effects(effects(kA, 3, 0.03, 3, 1), 0.18);                            // 100 units/s, jitter
  for (int i = 0; i < 2; ++i) m.on_effects(effects(kB, 1, 0.2, 100), 0.21);  // two slow windows
  EXPECT_NEAR(m.capacity(), 0.5 * 183.0 / 0.21 + 0.5 * 1000, 1e-6);
}

// As node 8 on the real-CPU testbed: measured while the job's merges slowed its computes, then
// left with one small tile — 2 ms of computing every 0.1 s, a full 0.2 s window only every 10 s.
// Its windows close on wall time too, so the estimate follows its true speed within seconds.
TEST(LoadMeterTest, ANodeWithLittleWorkStillRefreshesItsEstimate) {
  LoadMeter m(dynamic_params(), nullptr);
  three_samples(m, effects(kA, 1, 0.2, 120), 0);  // 600/s during the merges
  ASSERT_DOUBLE_EQ(m.capacity(), 600);
  double t = 0;
  for (; t < 1.95; t += 0.1) m.on_effects(effects(kA, 1, 0.002, 2), t);  // 1000/s
  EXPECT_DOUBLE_EQ(m.capacity(), 600) << "under 2 s: the window stays open";
  for (; t < 8.05; t += 0.1) m.on_effects(effects(kA, 1, 0.002, 2), t);
  EXPECT_GT(m.capacity(), 900) << "three light windows of 1000/s: " << m.capacity();
  // Less than a tenth of a window in 2 s is no sample: a compute or two say little.
  LoadMeter idle(dynamic_params(), nullptr);
  three_samples(idle, effects(kA, 1, 0.2, 120), 0);
  for (double u = 0; u < 6.05; u += 1) idle.on_effects(effects(kA, 1, 0.002, 2), u);
  EXPECT_DOUBLE_EQ(idle.capacity(), 600);
}

TEST(LoadMeterTest, TasksThatHaveNotReportedCountWithTheMeanOfThoseThatHave) {
  LoadMeter m(dynamic_params(), nullptr);
  m.on_effects(effects(kA, 100, 0.1, 100), 1);
  m.on_effects(effects(kB, 300, 0.1, 300), 1);
  const TaskId queued{1, 2}, gone{1, 3};
  m.expect(gone, 50);
  m.track({kA, kB, queued});
  EXPECT_EQ(m.task(gone), nullptr);
  EXPECT_DOUBLE_EQ(m.task_load(queued), 200);
  EXPECT_DOUBLE_EQ(m.node_load(), 600);
  m.on_effects(effects(queued, 120, 0.1, 120), 2);  // its own report replaces the estimate
  EXPECT_DOUBLE_EQ(m.task_load(queued), 120);
  LoadMeter empty(dynamic_params(), nullptr);
  empty.track({kA});  // nothing measured: nothing to estimate from
  EXPECT_EQ(empty.task(kA), nullptr);
}

TEST(LoadMeterTest, EffectsOfNoTaskAreIgnored) {
  LoadMeter m(dynamic_params(), nullptr);
  m.on_effects(HandlerEffects{}, 1);
  EXPECT_TRUE(m.tasks().empty());
}

}  // namespace
}  // namespace drift

namespace drift {
namespace {

// Recorded on this machine (Debian 12 VM, cgroup v1, quota 4 ms per 20 ms = 0.2 core; a Python
// loop spinning on the thread's CPU clock, 2026-11-25): each compute's wall time and the CPU time
// it got. (A) computes of 2 ms between 8 ms waits for messages, as a balanced slow node's: within
// its quota, never throttled, every one at the full speed of a core. (B) back-to-back computes of
// 5 ms: each spans a throttled gap, 21 or 37 ms on the wall.
struct RecordedCompute {
  double wall_s;
  double cpu_s;
};
const RecordedCompute kAtFifthOfACore[] = {
    {0.0020, 0.002}, {0.0020, 0.002}, {0.0020, 0.002}, {0.0020, 0.002}, {0.0021, 0.002},
    {0.0020, 0.002}, {0.0022, 0.002}, {0.0020, 0.002}, {0.0020, 0.002}, {0.0020, 0.002},
    {0.0022, 0.002}, {0.0020, 0.002}, {0.0020, 0.002}, {0.0020, 0.002}, {0.0020, 0.002},
    {0.0020, 0.002}, {0.0112, 0.005}, {0.0210, 0.005}, {0.0370, 0.005}, {0.0210, 0.005},
    {0.0210, 0.005}, {0.0371, 0.005}, {0.0210, 0.005}, {0.0210, 0.005},
};
constexpr double kUnitsPerCpuSecond = 200000;  // the work the computes did, per CPU second

// What a meter measures from `computes` (repeated), their times scaled by `speed_scale` (2: a
// core half as fast).
double measured_capacity(std::span<const RecordedCompute> computes, double parallelism,
                         bool cpu_time, double speed_scale = 1.0) {
  LoadMeter::Params p = dynamic_params();
  p.parallelism = parallelism;
  p.cpu_time = cpu_time;
  p.sample_window_s = 0.01;
  LoadMeter m(p, nullptr);
  for (int round = 0; round < 4; ++round) {
    for (const RecordedCompute& c : computes) {
      HandlerEffects e = effects(kA, 1, c.wall_s * speed_scale, c.cpu_s * kUnitsPerCpuSecond);
      e.cpu_seconds = c.cpu_s * speed_scale;
      m.on_effects(e, 0);
    }
  }
  EXPECT_TRUE(m.measured());
  return m.capacity();
}

const std::span<const RecordedCompute> kWaiting(kAtFifthOfACore, 16);        // (A)
const std::span<const RecordedCompute> kBackToBack(kAtFifthOfACore + 16, 8);  // (B)

// The compression the real-CPU testbed showed: by busy wall time a node at a fifth of a core
// measured anything from a whole core (a balanced node: its short computes between waits are never
// throttled) to a quarter of one (saturated), so the balancer gave it work, took it back, and
// never saw its share; by CPU time times its quota, a fifth of a core either way.
TEST(LoadMeterTest, AThrottledNodeIsMeasuredByItsQuotaNotByItsFastWindows) {
  const double core = kUnitsPerCpuSecond;
  EXPECT_NEAR(measured_capacity(kWaiting, 1.0, false), core, 0.1 * core);  // the old measure
  EXPECT_NEAR(measured_capacity(kBackToBack, 1.0, false), 0.005 / 0.021 * core, 0.03 * core);
  EXPECT_NEAR(measured_capacity(kWaiting, 0.2, true), 0.2 * core, 0.01 * core);
  EXPECT_NEAR(measured_capacity(kBackToBack, 0.2, true), 0.2 * core, 0.01 * core);
}

// Two nodes with quotas 12:1 on cores of the same speed advertise 12:1, not 2.8:1.
TEST(LoadMeterTest, QuotaSharesCarryIntoTheAdvertisedRatio) {
  const double fast = measured_capacity(kAtFifthOfACore, 1.2, true);
  const double slow = measured_capacity(kAtFifthOfACore, 0.1, true);
  EXPECT_NEAR(fast / slow, 12.0, 0.1);
  // A core half as fast: half the capacity at the same quota.
  EXPECT_NEAR(measured_capacity(kAtFifthOfACore, 0.1, true, 2.0) / slow, 0.5, 0.01);
}

// A machine shared with an owner's program (no quota): the compute got half the wall time as CPU
// time; the base speed stays the core's, and the external load halves what is advertised.
TEST(LoadMeterTest, CpuTimeSamplesAreNotNormalisedAgainByTheExternalLoad) {
  FakeExternalLoad ext;
  ext.value = 1.0;
  LoadMeter::Params p = dynamic_params();
  p.cpu_time = true;
  p.sample_window_s = 0.01;
  LoadMeter m(p, ext.source());
  m.sense(0);
  for (int i = 0; i < 6; ++i) {
    HandlerEffects e = effects(kA, 1, 0.02, 1000);
    e.cpu_seconds = 0.01;
    m.on_effects(e, 0);
  }
  EXPECT_NEAR(m.base_capacity(), 1000 / 0.01, 1);
  EXPECT_NEAR(m.capacity(), 1000 / 0.01 / 2, 1);
}

}  // namespace
}  // namespace drift

namespace drift {
namespace {

// The step floor is the measured overhead at the node's share of the CPU: 1 ms of CPU a step at
// a thirtieth of a core is 30 ms; with as much external load again, the node gets half of that.
TEST(LoadMeterTest, TheStepFloorIsTheOverheadAtTheNodesShareOfTheCpu) {
  FakeExternalLoad external;
  LoadMeter::Params p = dynamic_params();
  p.cpu_time = true;
  p.parallelism = 1.0 / 30;
  LoadMeter m(p, external.source());
  EXPECT_EQ(m.step_floor(), 0) << "nothing measured";
  m.set_step_overhead(0.001);
  EXPECT_NEAR(m.step_floor(), 0.030, 1e-12);
  external.value = 1;
  m.sense(5);
  EXPECT_NEAR(m.step_floor(), 0.060, 1e-12);
}

// What the overhead is measured against: the computes' CPU and the steps, whatever the tasks.
TEST(LoadMeterTest, CountsTheComputesCpuAndEveryTasksSteps) {
  LoadMeter m(dynamic_params(), nullptr);
  HandlerEffects a = effects(kA, 10, 0.02, 100, 2);
  a.cpu_seconds = 0.015;
  HandlerEffects b = effects(kB, 10, 0.01, 50, 1);
  b.cpu_seconds = 0.005;
  m.on_effects(a, 1);
  m.on_effects(b, 1);
  EXPECT_DOUBLE_EQ(m.compute_cpu_seconds(), 0.02);
  EXPECT_EQ(m.steps_done(), 3u);
  m.forget(kA);  // a task that left keeps its part of the totals: they only grow
  EXPECT_EQ(m.steps_done(), 3u);
}

}  // namespace
}  // namespace drift
